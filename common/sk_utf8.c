/* SPDX-License-Identifier: MIT */
/* UTF-8 validation, cutting and escaping (see sk_utf8.h). */
#include "sk_utf8.h"

#include <string.h>

#include "sk_banned.h"

size_t sk_utf8_seq(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len;
    unsigned long cp;

    if (n == 0)
        return 0;
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) {
        len = 2;
        cp = p[0] & 0x1fu;
    } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        len = 3;
        cp = p[0] & 0x0fu;
    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        len = 4;
        cp = p[0] & 0x07u;
    } else {
        return 0; /* a continuation byte, an overlong lead (C0, C1) or past U+10FFFF */
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3fu);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0; /* overlong, out of range, or a UTF-16 surrogate */
    return len;
}

int sk_utf8_valid(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t k = sk_utf8_seq(s + i, n - i);
        if (k == 0)
            return 0;
        i += k;
    }
    return 1;
}

size_t sk_utf8_cut(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = n;
    /* back over at most three continuation bytes to the lead byte of the last character */
    while (i > 0 && n - i < 4 && (p[i - 1] & 0xc0) == 0x80)
        i--;
    if (i == 0 || p[i - 1] < 0x80)
        return n; /* ends on ASCII, or only continuation bytes: nothing to gain */
    i--;          /* the lead byte */
    return sk_utf8_seq(s + i, n - i) == n - i ? n : i;
}

static int is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

int sk_utf8_needs_escape(const char *s, size_t n, int pct)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t k = sk_utf8_seq(s + i, n - i);
        if (k == 0 || (k == 1 && (is_control(c) || (pct && c == '%'))))
            return 1;
        i += k;
    }
    return 0;
}

size_t sk_utf8_escape(char *out, size_t len, const char *s, size_t n, int pct)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    size_t i = 0;

    if (len == 0)
        return 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t k = sk_utf8_seq(s + i, n - i);
        if (k == 0 || (k == 1 && (is_control(c) || (pct && c == '%')))) {
            if (o + 3 >= len)
                break;
            out[o++] = '%';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
            i++;
            continue;
        }
        if (o + k >= len)
            break;
        memcpy(out + o, s + i, k);
        o += k;
        i += k;
    }
    out[o] = '\0';
    return o;
}
