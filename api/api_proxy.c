/* SPDX-License-Identifier: MIT */
/* Trusted reverse proxies and X-Forwarded-For (see api_proxy.h). */
#include "api_proxy.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "sk_mem.h"

#include "sk_banned.h"

#define MAX_NETS 64

/* An address as 16 bytes: IPv4 as its IPv4-mapped IPv6 form (::ffff:a.b.c.d), so that one
 * prefix match serves both families. */
struct ip {
    unsigned char b[16];
};

struct net {
    struct ip ip;  /* host bits cleared */
    unsigned bits; /* prefix length over the 16 bytes (an IPv4 /n is 96 + n) */
    int v4;        /* an IPv4 block: matches IPv4 addresses only, and an IPv6 one (::/0)
                      matches IPv6 addresses only, as whoever wrote it means */
};

struct api_proxy {
    size_t n;
    struct net nets[MAX_NETS];
};

static void from_v4(uint32_t a, struct ip *ip)
{
    memset(ip->b, 0, 10);
    ip->b[10] = ip->b[11] = 0xff;
    ip->b[12] = (unsigned char)(a >> 24);
    ip->b[13] = (unsigned char)(a >> 16);
    ip->b[14] = (unsigned char)(a >> 8);
    ip->b[15] = (unsigned char)a;
}

static int is_v4(const struct ip *ip)
{
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    return memcmp(ip->b, mapped, sizeof(mapped)) == 0;
}

static uint32_t to_v4(const struct ip *ip)
{
    return (uint32_t)ip->b[12] << 24 | (uint32_t)ip->b[13] << 16 | (uint32_t)ip->b[14] << 8 |
           (uint32_t)ip->b[15];
}

/* Reads the `n` bytes at `s` (spaces and tabs around them ignored) as one IPv4 or IPv6
 * address. 1 when it is one. inet_pton takes only the plain forms: dotted quads without
 * leading zeros' octal or shorthand, IPv6 without brackets, port or zone. */
static int parse_ip(const char *s, size_t n, struct ip *ip)
{
    char buf[API_PROXY_MAX_ENTRY];
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n == 0 || n >= sizeof(buf))
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (memchr(buf, ':', n))
        return inet_pton(AF_INET6, buf, ip->b) == 1;
    {
        unsigned char v4[4];
        if (inet_pton(AF_INET, buf, v4) != 1)
            return 0;
        from_v4((uint32_t)v4[0] << 24 | (uint32_t)v4[1] << 16 | (uint32_t)v4[2] << 8 | v4[3], ip);
    }
    return 1;
}

static void clear_host_bits(struct ip *ip, unsigned bits)
{
    for (unsigned i = 0; i < 16; i++) {
        if (bits >= 8) {
            bits -= 8;
            continue;
        }
        ip->b[i] &= (unsigned char)(0xff00u >> bits);
        bits = 0;
    }
}

static int in_net(const struct net *net, const struct ip *ip)
{
    struct ip m = *ip;
    if (is_v4(ip) != net->v4)
        return 0;
    clear_host_bits(&m, net->bits);
    return memcmp(m.b, net->ip.b, 16) == 0;
}

static int trusted(const struct api_proxy *p, const struct ip *ip)
{
    for (size_t i = 0; i < p->n; i++)
        if (in_net(&p->nets[i], ip))
            return 1;
    return 0;
}

/* One entry of the list: an address, or an address, '/' and a prefix length. */
static int parse_net(const char *s, size_t n, struct net *net)
{
    const char *slash = memchr(s, '/', n);
    size_t alen = slash ? (size_t)(slash - s) : n;
    unsigned max, bits;
    if (!parse_ip(s, alen, &net->ip))
        return 0;
    max = is_v4(&net->ip) && !memchr(s, ':', alen) ? 32 : 128;
    bits = max;
    if (slash) {
        const char *d = slash + 1;
        size_t dn = n - alen - 1;
        while (dn && (d[dn - 1] == ' ' || d[dn - 1] == '\t'))
            dn--;
        if (dn == 0 || dn > 3)
            return 0;
        bits = 0;
        for (size_t i = 0; i < dn; i++) {
            if (d[i] < '0' || d[i] > '9')
                return 0;
            bits = bits * 10 + (unsigned)(d[i] - '0');
        }
        if (bits > max)
            return 0;
    }
    net->bits = max == 32 ? 96 + bits : bits;
    clear_host_bits(&net->ip, net->bits);
    /* ::ffff:a.b.c.d/n with n >= 96 is an IPv4 block written in IPv6 */
    net->v4 = net->bits >= 96 && is_v4(&net->ip);
    return 1;
}

enum sk_err api_proxy_new(const char *list, struct api_proxy **out, char *err, size_t errlen)
{
    struct api_proxy *p = sk_calloc(1, sizeof(*p));
    const char *s = list ? list : "";
    enum sk_err rc = SK_EINVAL;

    *out = NULL;
    if (errlen)
        err[0] = '\0';
    if (!p)
        return SK_ENOMEM;
    if (strspn(s, " \t") == strlen(s)) {
        *out = p; /* blank: trusts nothing */
        return SK_OK;
    }
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        if (p->n == MAX_NETS) {
            if (errlen)
                snprintf(err, errlen, "more than %d entries", MAX_NETS);
            goto out;
        }
        if (!parse_net(s, n, &p->nets[p->n])) {
            if (errlen)
                snprintf(err, errlen, "'%.*s' is not an IPv4 or IPv6 address or CIDR block",
                         (int)(n > 80 ? 80 : n), s);
            goto out;
        }
        p->n++;
        if (!comma)
            break;
        s = comma + 1;
    }
    *out = p;
    p = NULL;
    rc = SK_OK;
out:
    sk_free(p);
    return rc;
}

void api_proxy_free(struct api_proxy *p)
{
    sk_free(p);
}

size_t api_proxy_count(const struct api_proxy *p)
{
    return p ? p->n : 0;
}

int api_proxy_trusts(const struct api_proxy *p, uint32_t addr)
{
    struct ip ip;
    if (!p || p->n == 0)
        return 0;
    from_v4(addr, &ip);
    return trusted(p, &ip);
}

/* The key of a client address: the IPv4 address itself, or an IPv6 address's /64 hashed
 * (FNV-1a) into 240.0.0.0/4. */
static uint32_t key_of(const struct ip *ip)
{
    uint32_t h = 2166136261u;
    if (is_v4(ip))
        return to_v4(ip);
    for (int i = 0; i < 8; i++) {
        h ^= ip->b[i];
        h *= 16777619u;
    }
    return 0xf0000000u | (h & 0x0fffffffu);
}

static void write_text(const struct ip *ip, char *text, size_t textlen)
{
    char t[INET6_ADDRSTRLEN];
    unsigned char v4[4];
    const char *r;
    if (!text || textlen == 0)
        return;
    if (is_v4(ip)) {
        memcpy(v4, ip->b + 12, 4);
        r = inet_ntop(AF_INET, v4, t, sizeof(t));
    } else {
        r = inet_ntop(AF_INET6, ip->b, t, sizeof(t));
    }
    snprintf(text, textlen, "%s", r ? r : "?");
}

/* Looks at the entries of value `v` right to left. Returns 1 when the client is found
 * (*client set), -1 when the walk must stop with the peer's address (an entry that is not an
 * address, too many entries), 0 when every entry of `v` was a trusted proxy (*last set to
 * the left-most, *have = 1) or empty. */
static int walk_value(const struct api_proxy *p, const char *v, size_t *hops, struct ip *client,
                      struct ip *last, int *have)
{
    size_t end = strlen(v);
    for (;;) {
        size_t start = end;
        while (start > 0 && v[start - 1] != ',')
            start--;
        if (++*hops > API_PROXY_MAX_HOPS)
            return -1;
        if (strspn(v + start, " \t") < end - start) { /* empty list elements are allowed */
            struct ip ip;
            if (!parse_ip(v + start, end - start, &ip))
                return -1;
            /* 0.0.0.0 is no client, and 0 means "unknown" to the per-address tables */
            if (is_v4(&ip) && to_v4(&ip) == 0)
                return -1;
            if (!trusted(p, &ip)) {
                *client = ip;
                return 1;
            }
            *last = ip;
            *have = 1;
        }
        if (start == 0)
            return 0;
        end = start - 1;
    }
}

uint32_t api_proxy_client(const struct api_proxy *p, uint32_t peer, const char *const *xff,
                          size_t n, char *text, size_t textlen)
{
    struct ip pip, client, last;
    size_t hops = 0;
    int have = 0;

    from_v4(peer, &pip);
    write_text(&pip, text, textlen);
    if (!api_proxy_trusts(p, peer))
        return peer;
    for (size_t i = n; i-- > 0;) {
        int r;
        if (!xff[i])
            continue;
        r = walk_value(p, xff[i], &hops, &client, &last, &have);
        if (r < 0)
            return peer;
        if (r > 0) {
            write_text(&client, text, textlen);
            return key_of(&client);
        }
    }
    if (!have)
        return peer;
    write_text(&last, text, textlen);
    return key_of(&last);
}
