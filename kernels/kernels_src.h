/* SPDX-License-Identifier: MIT */
/* The OpenCL C sources of kernels/, embedded at build time by kernels/embed.cmake: each
 * kernels/<name>.cl with the engine headers it includes inlined, so the device compiles
 * exactly the rules code the CPU backend runs. Only the table lives here; building is
 * battle_cl's job. */
#ifndef KERNELS_SRC_H
#define KERNELS_SRC_H

#include <stddef.h>

struct kernels_src {
    const char *name; /* basename of the .cl file, e.g. "battle" */
    const char *text; /* NUL-terminated source */
    size_t len;       /* bytes of text, excluding the NUL */
};

/** The embedded sources (static storage), ending with an entry whose name is NULL. */
const struct kernels_src *kernels_src_all(void);

#endif
