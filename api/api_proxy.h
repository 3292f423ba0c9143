/* SPDX-License-Identifier: MIT */
/* Trusted reverse proxies (SKIRMISH_TRUSTED_PROXIES, docs/deploy.md): a list of IPv4 and
 * IPv6 addresses and CIDR blocks. A request whose TCP peer is in the list has its client
 * address taken from X-Forwarded-For: the right-most entry that is not itself a trusted
 * proxy (entries left of it were written by the client and prove nothing). A request from
 * any other peer keeps the peer's address, whatever it sends, so an empty list (the
 * default) reads no X-Forwarded-For at all. A value that cannot be read where the client
 * should be (not an address, too many entries, too long) gives the peer's address back,
 * never an error.
 *
 * The API keys clients by an IPv4 address (host order) everywhere (api_guard, api_authfail);
 * an IPv6 client's /64, the block one subscriber usually holds, is folded into a stand-in
 * address of 240.0.0.0/4, which is reserved and never a real IPv4 client. An IPv4-mapped
 * IPv6 address (::ffff:a.b.c.d) is the IPv4 address. Pure data after api_proxy_new;
 * thread-safe for reading. */
#ifndef API_PROXY_H
#define API_PROXY_H

#include <stddef.h>
#include <stdint.h>

#include "sk_err.h"

struct api_proxy;

/* Most X-Forwarded-For entries looked at, right to left, and most bytes of one entry:
 * past them the peer's address is used (a longer chain is not one a deployment makes). */
#define API_PROXY_MAX_HOPS  16
#define API_PROXY_MAX_ENTRY 64

/* Room for the text of a client address (an IPv6 address with its scope, NUL). */
#define API_PROXY_ADDRSTRLEN 48

/**
 * Parses a comma-separated list of addresses and CIDR blocks ("10.0.0.0/8, 192.168.1.7,
 * fd00::/8"; spaces around entries allowed; at most 64 entries). An empty or blank `list`
 * gives a proxy list that trusts nothing. Returns SK_OK with *out (free with
 * api_proxy_free), SK_EINVAL with the first bad entry described in `err` (`errlen` bytes,
 * may be 0), SK_ENOMEM.
 */
enum sk_err api_proxy_new(const char *list, struct api_proxy **out, char *err, size_t errlen);
/** Frees; NULL-safe. */
void api_proxy_free(struct api_proxy *p);

/** Entries in the list (0: X-Forwarded-For is never read); NULL-safe. */
size_t api_proxy_count(const struct api_proxy *p);

/** 1 when IPv4 address `addr` (host order) is in the list; NULL-safe (0). */
int api_proxy_trusts(const struct api_proxy *p, uint32_t addr);

/**
 * The client address of a request from peer `peer` (IPv4, host order) carrying the `n`
 * X-Forwarded-For field values `xff` in the order received (NULL entries skipped; the
 * values are joined as one comma-separated list, as RFC 9110 says repeated fields are).
 * Returns `peer` unless the peer is trusted and the right-most untrusted entry is an
 * address; then that address (IPv6 folded as above). When every entry is a trusted proxy,
 * the left-most one. `text` (size `textlen`, may be NULL) gets the address used, as
 * text: the IPv6 address itself for a folded one. Pure; thread-safe.
 */
uint32_t api_proxy_client(const struct api_proxy *p, uint32_t peer, const char *const *xff,
                          size_t n, char *text, size_t textlen);

#endif
