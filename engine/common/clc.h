/* SPDX-License-Identifier: MIT */
/* The few definitions that let one header compile both as C11 (host, CPU backend) and as
 * OpenCL C 1.2 (kernels): fixed-width integer names, function qualifiers, address
 * spaces. Rules code uses only these and the language subset common to both: no VLAs,
 * no recursion, no function pointers, no library calls. */
#ifndef CLC_H
#define CLC_H

#ifdef __OPENCL_VERSION__
typedef uchar clc_u8;
typedef short clc_i16;
typedef ushort clc_u16;
typedef int clc_i32;
typedef uint clc_u32;
typedef long clc_i64;
typedef ulong clc_u64;
#define CLC_FN       static inline
#define CLC_INLINE   static inline
#define CLC_NOINLINE static
#define CLC_NOCLONE  static
#define CLC_GLOBAL   __global
#define CLC_CONSTANT __constant
#define CLC_PRIVATE  __private
#else
#include <stdint.h>
typedef uint8_t clc_u8;
typedef int16_t clc_i16;
typedef uint16_t clc_u16;
typedef int32_t clc_i32;
typedef uint32_t clc_u32;
typedef int64_t clc_i64;
typedef uint64_t clc_u64;
#define CLC_FN       static inline
/* A function the host compiler must inline even when large: one whose callers pass
 * constants that are meant to fold into its body (kernel compilers inline everything). */
#define CLC_INLINE   static inline __attribute__((always_inline))
/* One the host compiler must keep out of line: a large body called from many places. */
#define CLC_NOINLINE static __attribute__((noinline))
/* One that must also stay a single body: GCC's constant-propagation clones of a large
 * function called from two game loops cost the common loop instructions (clang has no
 * clones of this kind and no such attribute). */
#if defined(__clang__)
#define CLC_NOCLONE static __attribute__((noinline))
#else
#define CLC_NOCLONE static __attribute__((noinline, noclone))
#endif
#define CLC_GLOBAL
#define CLC_CONSTANT
#define CLC_PRIVATE
#endif

#endif
