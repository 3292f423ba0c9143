/* SPDX-License-Identifier: MIT */
/* key=value event logging on stderr (see sk_log.h). */
#include "sk_log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sk_utf8.h"

#include "sk_banned.h"

static const char *log_prog = "skirmish";
static atomic_int log_level = SK_LOG_INFO;
static const char *const level_names[] = {"debug", "info", "warn", "error"};

void sk_log_set_prog(const char *prog)
{
    log_prog = prog;
}

void sk_log_set_level(enum sk_log_level level)
{
    atomic_store(&log_level, (int)level);
}

int sk_log_level_parse(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, level_names[i]) == 0)
            return i;
    return -1;
}

void sk_log(enum sk_log_level level, const char *fmt, ...)
{
    char line[2048];
    struct timespec ts;
    struct tm tm;
    size_t n;
    int k;
    va_list ap;

    if ((int)level < atomic_load(&log_level))
        return;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    k = snprintf(line, sizeof(line), "ts=%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ level=%s prog=%s ",
                 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                 ts.tv_nsec / 1000000, level_names[level], log_prog);
    n = k < 0 ? 0 : (size_t)k;
    va_start(ap, fmt);
    k = vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
    va_end(ap);
    if (k > 0)
        n += (size_t)k < sizeof(line) - n - 1 ? (size_t)k : sizeof(line) - n - 2;
    line[n++] = '\n';
    /* One write per line: concurrent threads never interleave inside a line. */
    if (write(STDERR_FILENO, line, n) < 0)
        return;
}

const char *sk_log_quote(char *buf, size_t len, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    size_t n = s ? strlen(s) : 0;
    size_t i = 0;

    if (len < 3) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    buf[o++] = '"';
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t k = sk_utf8_seq(s + i, n - i);
        /* a control byte (a forged line), or a byte of no valid character: \xHH */
        if (k == 0 || c < 0x20 || c == 0x7f) {
            if (o + 4 + 2 > len)
                break;
            buf[o++] = '\\';
            buf[o++] = 'x';
            buf[o++] = hex[c >> 4];
            buf[o++] = hex[c & 15];
            i++;
        } else if (c == '"' || c == '\\') {
            if (o + 2 + 2 > len)
                break;
            buf[o++] = '\\';
            buf[o++] = (char)c;
            i++;
        } else {
            if (o + k + 2 > len)
                break;
            memcpy(buf + o, s + i, k);
            o += k;
            i += k;
        }
    }
    buf[o++] = '"';
    buf[o] = '\0';
    return buf;
}
