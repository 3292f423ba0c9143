/* SPDX-License-Identifier: MIT */
/* The bytes of data/cards.json, compiled into sk_engine by cmake/SkEmbed.cmake (the .c is
 * generated in the build tree), so no binary depends on its working directory. Only
 * battle_catalog.c reads them. */
#ifndef BATTLE_CATALOG_DATA_H
#define BATTLE_CATALOG_DATA_H

#include <stddef.h>

/* The file's bytes followed by a NUL that battle_catalog_data_json_len does not count. */
extern const unsigned char battle_catalog_data_json[];
extern const size_t battle_catalog_data_json_len;

#endif
