/* SPDX-License-Identifier: MIT */
/* Poisons libc functions that are easy to misuse (docs/style.md, rule 12). Include it LAST in
 * every .c file, after all other headers, so system headers still declare them.
 * Replacements: snprintf, sk_parse_i64/sk_parse_u64, gmtime_r, localtime_r. */
#ifndef SK_BANNED_H
#define SK_BANNED_H

#define SK_BANNED(func) sorry_##func##_is_banned_in_skirmish

#undef strcpy
#define strcpy(x, y) SK_BANNED(strcpy)
#undef strcat
#define strcat(x, y) SK_BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) SK_BANNED(strncpy)
#undef sprintf
#define sprintf(...) SK_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) SK_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) SK_BANNED(strtok)
#undef atoi
#define atoi(x) SK_BANNED(atoi)
#undef atol
#define atol(x) SK_BANNED(atol)
#undef gmtime
#define gmtime(x) SK_BANNED(gmtime)
#undef localtime
#define localtime(x) SK_BANNED(localtime)
#undef ctime
#define ctime(x) SK_BANNED(ctime)

#endif
