/* SPDX-License-Identifier: MIT */
/* The optimiser's thread pool: every item of every task runs exactly once, whatever the
 * threads and the task sizes (tasks of 0 and 1 item included), the helpers really take
 * items (a task whose first item waits for its second cannot end on the caller alone),
 * and a pool is freed cleanly with or without tasks run. */
#include <CUnit/CUnit.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "battle_pool.h"
#include "sk_mem.h"

#include "sk_banned.h"

#define MAX_ITEMS 5000

struct count_task {
    unsigned *runs; /* per item: how often it ran */
    uint64_t *value;
    uint64_t salt;
};

static void count_item(void *ctx, uint64_t item)
{
    struct count_task *t = ctx;
    t->runs[item]++;
    t->value[item] = item * 7 + t->salt;
}

static void check_pool(int threads)
{
    struct battle_pool *p = NULL;
    struct count_task t = {sk_calloc(MAX_ITEMS, sizeof(unsigned)),
                           sk_calloc(MAX_ITEMS, sizeof(uint64_t)), 0};

    CU_ASSERT_FATAL(t.runs && t.value);
    CU_ASSERT_FATAL(battle_pool_new(threads, &p) == SK_OK);
    for (uint64_t task = 0; task < 400; task++) {
        uint64_t n = task < 4 ? task : (task * 977) % MAX_ITEMS;
        int bad = 0;
        memset(t.runs, 0, MAX_ITEMS * sizeof(unsigned));
        t.salt = task;
        battle_pool_run(p, n, count_item, &t);
        for (uint64_t i = 0; i < MAX_ITEMS; i++)
            bad |= t.runs[i] != (i < n) || (i < n && t.value[i] != i * 7 + task);
        CU_ASSERT(!bad);
    }
    battle_pool_free(p);
    sk_free(t.runs);
    sk_free(t.value);
}

static void test_every_item_once(void)
{
    check_pool(0);
    check_pool(1);
    check_pool(2);
    check_pool(3);
    check_pool(1000); /* capped at BATTLE_POOL_MAX */
}

struct wait_task {
    atomic_int second_started;
    int waited_ok;
};

/* Item 0 (the caller claims it first) waits up to 30 s for item 1 to start: only a helper
 * can run it meanwhile. */
static void wait_item(void *ctx, uint64_t item)
{
    struct wait_task *t = ctx;
    if (item == 1) {
        atomic_store(&t->second_started, 1);
        return;
    }
    for (int i = 0; i < 30000 && !atomic_load(&t->second_started); i++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    t->waited_ok = atomic_load(&t->second_started);
}

static void test_helpers_take_items(void)
{
    struct battle_pool *p = NULL;
    struct wait_task t;

    atomic_init(&t.second_started, 0);
    t.waited_ok = 0;
    CU_ASSERT_FATAL(battle_pool_new(2, &p) == SK_OK);
    battle_pool_run(p, 2, wait_item, &t);
    CU_ASSERT(t.waited_ok);
    battle_pool_free(p);
}

static void test_free_unused(void)
{
    struct battle_pool *p = NULL;
    CU_ASSERT_FATAL(battle_pool_new(4, &p) == SK_OK);
    battle_pool_free(p);
    battle_pool_free(NULL);
}

static CU_TestInfo pool_tests[] = {
    {"every item of every task runs once, whatever the threads", test_every_item_once},
    {"helpers take items while the caller waits", test_helpers_take_items},
    {"a pool that ran nothing is freed", test_free_unused},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_pool_suites[] = {
    {"battle_pool", NULL, NULL, NULL, NULL, pool_tests},
    CU_SUITE_INFO_NULL,
};
