/* SPDX-License-Identifier: MIT */
/* Trusted proxies and X-Forwarded-For (api_proxy.h): the list's syntax; the trust decision
 * (only a trusted peer's header is read); the right-most untrusted entry; every value that
 * cannot be read gives the peer back; IPv6 clients folded per /64; random bytes never
 * crash and give the peer or an address the header names. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "api_proxy.h"

#include "sk_banned.h"

#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

static void test_list_syntax(void)
{
    struct api_proxy *p = NULL;
    char err[200];
    static const char *good[] = {
        "",
        "   ",
        "10.0.0.5",
        "10.0.0.0/8",
        " 10.0.0.0/8 , 192.168.1.7 ,fd00::/8",
        "0.0.0.0/0",
        "::/0",
        "2001:db8::1",
        "::ffff:10.1.2.3",
        "172.16.5.9/12", /* host bits: cleared, not refused */
    };
    static const char *bad[] = {
        "10.0.0",      "10.0.0.256", "10.0.0.0/33", "fd00::/129",        "10.0.0.1,",
        ",10.0.0.1",   "10.0.0.0/",  "10.0.0.0/a",  "localhost",         "[::1]",
        "10.0.0.1:80", "1.2.3.4/-1", "010.0.0.1",   "10.0.0.1 10.0.0.2",
    };
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        CU_ASSERT_EQUAL(api_proxy_new(good[i], &p, err, sizeof(err)), SK_OK);
        CU_ASSERT_PTR_NOT_NULL(p);
        api_proxy_free(p);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (api_proxy_new(bad[i], &p, err, sizeof(err)) != SK_EINVAL)
            fprintf(stderr, "accepted: '%s'\n", bad[i]);
        CU_ASSERT_EQUAL(api_proxy_new(bad[i], &p, err, sizeof(err)), SK_EINVAL);
        CU_ASSERT_PTR_NULL(p);
        CU_ASSERT_NOT_EQUAL(err[0], '\0');
    }
    CU_ASSERT_EQUAL(api_proxy_new("10.0.0.1,nope", &p, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "'nope'"));
    /* 64 entries at most */
    {
        char list[2000] = "";
        size_t n = 0;
        for (int i = 0; i < 65; i++)
            n += (size_t)snprintf(list + n, sizeof(list) - n, "%s10.0.%d.1", i ? "," : "", i);
        CU_ASSERT_EQUAL(api_proxy_new(list, &p, NULL, 0), SK_EINVAL);
        list[strlen(list) - strlen(",10.0.64.1")] = '\0';
        CU_ASSERT_EQUAL(api_proxy_new(list, &p, NULL, 0), SK_OK);
        CU_ASSERT_EQUAL(api_proxy_count(p), 64);
        api_proxy_free(p);
    }
    api_proxy_free(NULL);
}

static void test_trust(void)
{
    struct api_proxy *p = NULL;
    CU_ASSERT_FATAL(api_proxy_new("10.0.0.0/8, 192.168.1.7, fd00::/8, ::ffff:172.16.0.0/108", &p,
                                  NULL, 0) == SK_OK);
    CU_ASSERT_EQUAL(api_proxy_count(p), 4);
    CU_ASSERT_TRUE(api_proxy_trusts(p, IP4(10, 0, 0, 1)));
    CU_ASSERT_TRUE(api_proxy_trusts(p, IP4(10, 255, 255, 255)));
    CU_ASSERT_FALSE(api_proxy_trusts(p, IP4(11, 0, 0, 1)));
    CU_ASSERT_TRUE(api_proxy_trusts(p, IP4(192, 168, 1, 7)));
    CU_ASSERT_FALSE(api_proxy_trusts(p, IP4(192, 168, 1, 8)));
    /* an IPv4-mapped block written in IPv6 is the IPv4 block (/108 = /12) */
    CU_ASSERT_TRUE(api_proxy_trusts(p, IP4(172, 31, 0, 1)));
    CU_ASSERT_FALSE(api_proxy_trusts(p, IP4(172, 32, 0, 1)));
    api_proxy_free(p);
    /* no list, an empty one: nothing is trusted */
    CU_ASSERT_FALSE(api_proxy_trusts(NULL, IP4(10, 0, 0, 1)));
    CU_ASSERT_FATAL(api_proxy_new("", &p, NULL, 0) == SK_OK);
    CU_ASSERT_EQUAL(api_proxy_count(p), 0);
    CU_ASSERT_FALSE(api_proxy_trusts(p, IP4(10, 0, 0, 1)));
    api_proxy_free(p);
    CU_ASSERT_TRUE(api_proxy_new("0.0.0.0/0", &p, NULL, 0) == SK_OK);
    CU_ASSERT_TRUE(api_proxy_trusts(p, IP4(203, 0, 113, 9)));
    api_proxy_free(p);
}

static uint32_t client1(const struct api_proxy *p, uint32_t peer, const char *xff, char *text)
{
    const char *v[1] = {xff};
    return api_proxy_client(p, peer, v, 1, text, API_PROXY_ADDRSTRLEN);
}

static void test_client(void)
{
    struct api_proxy *p = NULL;
    const uint32_t proxy = IP4(10, 0, 0, 2), stranger = IP4(203, 0, 113, 50);
    char text[API_PROXY_ADDRSTRLEN];

    CU_ASSERT_FATAL(api_proxy_new("10.0.0.0/24, 2001:db8:ffff::/48", &p, NULL, 0) == SK_OK);
    /* the right-most untrusted entry; what the client wrote left of it is ignored */
    CU_ASSERT_EQUAL(client1(p, proxy, "198.51.100.7", text), IP4(198, 51, 100, 7));
    CU_ASSERT_STRING_EQUAL(text, "198.51.100.7");
    CU_ASSERT_EQUAL(client1(p, proxy, "1.1.1.1, 198.51.100.7", text), IP4(198, 51, 100, 7));
    CU_ASSERT_EQUAL(client1(p, proxy, "evil, 198.51.100.7", text), IP4(198, 51, 100, 7));
    /* trusted hops on the right are skipped */
    CU_ASSERT_EQUAL(client1(p, proxy, "1.1.1.1,198.51.100.7, 10.0.0.9 ,10.0.0.3", text),
                    IP4(198, 51, 100, 7));
    /* several fields: one list, in order; the proxy's field comes last */
    {
        const char *v[3] = {"6.6.6.6", NULL, "198.51.100.8"};
        CU_ASSERT_EQUAL(api_proxy_client(p, proxy, v, 3, text, sizeof(text)), IP4(198, 51, 100, 8));
        v[2] = "10.0.0.7";
        CU_ASSERT_EQUAL(api_proxy_client(p, proxy, v, 3, text, sizeof(text)), IP4(6, 6, 6, 6));
        CU_ASSERT_STRING_EQUAL(text, "6.6.6.6");
    }
    /* an untrusted peer: its header is not read */
    CU_ASSERT_EQUAL(client1(p, stranger, "198.51.100.7", text), stranger);
    CU_ASSERT_STRING_EQUAL(text, "203.0.113.50");
    CU_ASSERT_EQUAL(client1(NULL, stranger, "198.51.100.7", text), stranger);
    /* no header, an empty one: the peer */
    CU_ASSERT_EQUAL(api_proxy_client(p, proxy, NULL, 0, text, sizeof(text)), proxy);
    CU_ASSERT_STRING_EQUAL(text, "10.0.0.2");
    CU_ASSERT_EQUAL(client1(p, proxy, "", text), proxy);
    CU_ASSERT_EQUAL(client1(p, proxy, " , ,", text), proxy);
    /* every entry trusted: the left-most (the first proxy's own request) */
    CU_ASSERT_EQUAL(client1(p, proxy, "10.0.0.4, 10.0.0.3", text), IP4(10, 0, 0, 4));
    /* where the client should be, something that is not an address: the peer */
    static const char *unreadable[] = {
        "garbage",
        "198.51.100.7:4711",
        "[2001:db8::1]",
        "198.51.100",
        "198.51.100.7 198.51.100.8",
        "0.0.0.0",
        "unknown",
        "198.51.100.7, _hidden",
        "fe80::1%eth0",
        "1.1.1.1,"
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    };
    for (size_t i = 0; i < sizeof(unreadable) / sizeof(unreadable[0]); i++)
        CU_ASSERT_EQUAL(client1(p, proxy, unreadable[i], text), proxy);
    /* bounded: more than API_PROXY_MAX_HOPS entries walked gives the peer */
    {
        char v[1024] = "198.51.100.7";
        size_t n = strlen(v);
        for (int i = 0; i < API_PROXY_MAX_HOPS - 1; i++)
            n += (size_t)snprintf(v + n, sizeof(v) - n, ",10.0.0.%d", i + 10);
        CU_ASSERT_EQUAL(client1(p, proxy, v, text), IP4(198, 51, 100, 7));
        n += (size_t)snprintf(v + n, sizeof(v) - n, ",10.0.0.99");
        CU_ASSERT_EQUAL(client1(p, proxy, v, text), proxy);
    }
    /* IPv4-mapped is IPv4; IPv6 is folded per /64 into 240.0.0.0/4, its text kept */
    CU_ASSERT_EQUAL(client1(p, proxy, "::ffff:198.51.100.9", text), IP4(198, 51, 100, 9));
    {
        uint32_t a = client1(p, proxy, "2001:db8:1:2::1", text);
        CU_ASSERT_STRING_EQUAL(text, "2001:db8:1:2::1");
        CU_ASSERT_EQUAL(a >> 28, 0xf);
        CU_ASSERT_EQUAL(client1(p, proxy, "2001:db8:1:2:ffff::7", text), a);
        CU_ASSERT_NOT_EQUAL(client1(p, proxy, "2001:db8:1:3::1", text), a);
        /* a trusted IPv6 hop is skipped */
        CU_ASSERT_EQUAL(client1(p, proxy, "2001:db8:1:2::1, 2001:db8:ffff::5", text), a);
    }
    /* a small text buffer is cut, not overrun */
    {
        char small[4];
        const char *v[1] = {"198.51.100.7"};
        CU_ASSERT_EQUAL(api_proxy_client(p, proxy, v, 1, small, sizeof(small)),
                        IP4(198, 51, 100, 7));
        CU_ASSERT_STRING_EQUAL(small, "198");
        CU_ASSERT_EQUAL(api_proxy_client(p, proxy, v, 1, NULL, 0), IP4(198, 51, 100, 7));
    }
    api_proxy_free(p);
}

/* Random header values (bytes that matter to the parser, mostly): never a crash, and the
 * answer is the peer or an address the value holds. */
static void test_random_values(void)
{
    static const char alphabet[] = "0123456789abcdef:.,/ \t[]%xX-\xff";
    struct api_proxy *p = NULL;
    const uint32_t proxy = IP4(10, 0, 0, 2);
    uint64_t s = 0x9e3779b97f4a7c15ull;
    char v[200], text[API_PROXY_ADDRSTRLEN];

    CU_ASSERT_FATAL(api_proxy_new("10.0.0.0/8, ::/0", &p, NULL, 0) == SK_OK);
    for (int round = 0; round < 200000; round++) {
        size_t n;
        uint32_t a;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        n = (size_t)(s % sizeof(v));
        for (size_t i = 0; i < n; i++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            v[i] = alphabet[s % (sizeof(alphabet) - 1)];
        }
        v[n] = '\0';
        a = client1(p, proxy, v, text);
        if (a != proxy && a >> 28 != 0xf) {
            char want[32];
            snprintf(want, sizeof(want), "%u.%u.%u.%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255,
                     a & 255);
            CU_ASSERT_PTR_NOT_NULL(strstr(v, want));
        }
    }
    api_proxy_free(p);
}

static CU_TestInfo tests[] = {
    {"the list: addresses and CIDR blocks, bad entries named", test_list_syntax},
    {"trust: in a block or not, IPv4-mapped blocks, empty list", test_trust},
    {"the client: right-most untrusted entry, else the peer", test_client},
    {"random values: the peer or an address they hold", test_random_values},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_proxy_suites[] = {
    {"api_proxy", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
