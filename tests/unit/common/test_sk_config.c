/* SPDX-License-Identifier: MIT */
/* Tests of common/sk_config and common/sk_log: defaults, file and environment sources and
 * their precedence, validation that reports every bad value, secret masking, quoting. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sk_config.h"
#include "sk_log.h"
#include "sk_mem.h"

#include "sk_banned.h"

static void clear_env(void)
{
    for (const struct sk_config_row *r = sk_config_rows(); r->env; r++)
        unsetenv(r->env);
    unsetenv("SKIRMISH_CONFIG_FILE");
}

/* Writes `text` into a new file named from `path` (a mkstemp template, rewritten) and points
 * SKIRMISH_CONFIG_FILE at it, the environment cleared first; 0 on success. */
static int config_file(char *path, const char *text)
{
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return -1;
    fputs(text, f);
    fclose(f);
    clear_env();
    setenv("SKIRMISH_CONFIG_FILE", path, 1);
    return 0;
}

static void test_defaults(void)
{
    struct sk_config cfg;
    char err[512];
    clear_env();
    CU_ASSERT_EQUAL_FATAL(sk_config_load(&cfg, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(cfg.http_port, 8080);
    CU_ASSERT_EQUAL(cfg.max_body_bytes, 1048576);
    CU_ASSERT_EQUAL(cfg.lease_ms, 30000);
    CU_ASSERT_STRING_EQUAL(cfg.http_addr, "127.0.0.1");
    CU_ASSERT_STRING_EQUAL(cfg.queue_prefix, "skirmish");
    sk_config_release(&cfg);
}

static void test_file_then_env(void)
{
    struct sk_config cfg;
    char err[512];
    char path[] = "/tmp/sk_config_test_XXXXXX";
    CU_ASSERT_FATAL(
        config_file(path, "# comment\nSKIRMISH_HTTP_PORT=9000\nSKIRMISH_LEASE_MS=2000\n") == 0);
    setenv("SKIRMISH_LEASE_MS", "3000", 1); /* the environment wins over the file */
    CU_ASSERT_EQUAL_FATAL(sk_config_load(&cfg, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(cfg.http_port, 9000);
    CU_ASSERT_EQUAL(cfg.lease_ms, 3000);
    sk_config_release(&cfg);
    unlink(path);
    clear_env();
}

/* What the engine reads from the environment, set in a configuration file, reaches the
 * environment at start; 0 (the engine's own choice) and empty values are left unset, and a
 * variable already set is kept. */
static void test_export_engine(void)
{
    struct sk_config cfg;
    char err[512];
    char path[] = "/tmp/sk_config_test_XXXXXX";
    CU_ASSERT_FATAL(config_file(path,
                                "SKIRMISH_CL_WORK_GROUP=128\nSKIRMISH_CL_CACHE=/tmp/sk-cl-cache\n"
                                "SKIRMISH_CL_GAMES_PER_ITEM=4\n") == 0);
    CU_ASSERT_EQUAL_FATAL(sk_config_load(&cfg, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(cfg.cl_work_group, 128);
    CU_ASSERT_EQUAL(cfg.cl_per_launch, 0);
    CU_ASSERT_EQUAL(cfg.cl_per_item, 4);
    CU_ASSERT_EQUAL(sk_config_export_engine(&cfg), SK_OK);
    CU_ASSERT_STRING_EQUAL(getenv("SKIRMISH_CL_WORK_GROUP"), "128");
    CU_ASSERT_STRING_EQUAL(getenv("SKIRMISH_CL_GAMES_PER_ITEM"), "4");
    CU_ASSERT_STRING_EQUAL(getenv("SKIRMISH_CL_CACHE"), "/tmp/sk-cl-cache");
    CU_ASSERT_PTR_NULL(getenv("SKIRMISH_CL_GAMES_PER_LAUNCH"));
    CU_ASSERT_PTR_NULL(getenv("SKIRMISH_CARDS_FILE"));
    sk_config_release(&cfg);
    clear_env();
    setenv("SKIRMISH_CONFIG_FILE", path, 1);
    CU_ASSERT_EQUAL_FATAL(sk_config_load(&cfg, err, sizeof(err)), SK_OK);
    setenv("SKIRMISH_CL_WORK_GROUP", "32", 1); /* set after the load: export keeps it */
    CU_ASSERT_EQUAL(sk_config_export_engine(&cfg), SK_OK);
    CU_ASSERT_STRING_EQUAL(getenv("SKIRMISH_CL_WORK_GROUP"), "32");
    sk_config_release(&cfg);
    unlink(path);
    clear_env();
    setenv("SKIRMISH_CL_GAMES_PER_LAUNCH", "2000000000", 1);
    CU_ASSERT_EQUAL(sk_config_load(&cfg, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "SKIRMISH_CL_GAMES_PER_LAUNCH"));
    clear_env();
    setenv("SKIRMISH_CL_GAMES_PER_ITEM", "1025", 1);
    CU_ASSERT_EQUAL(sk_config_load(&cfg, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "SKIRMISH_CL_GAMES_PER_ITEM"));
    clear_env();
}

static void test_every_error_reported(void)
{
    struct sk_config cfg;
    char err[1024];
    clear_env();
    setenv("SKIRMISH_HTTP_PORT", "70000", 1);
    setenv("SKIRMISH_MAX_ATTEMPTS", "abc", 1);
    setenv("SKIRMISH_LOG_LEVEL", "loud", 1);
    setenv("SKIRMISH_REDIS_URL", "http://x", 1);
    setenv("SKIRMISH_WORKER_NAME", "w\n1", 1);
    CU_ASSERT_EQUAL(sk_config_load(&cfg, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "SKIRMISH_WORKER_NAME: must not hold control characters"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "SKIRMISH_HTTP_PORT: must be an integer in 1..65535"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "SKIRMISH_MAX_ATTEMPTS: must be an integer in 1..100"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "SKIRMISH_LOG_LEVEL: must be debug, info, warn or error"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "SKIRMISH_REDIS_URL: must start with redis://"));
    clear_env();
}

static void test_unknown_file_setting(void)
{
    struct sk_config cfg;
    char err[512];
    char path[] = "/tmp/sk_config_test_XXXXXX";
    CU_ASSERT_FATAL(config_file(path, "SKIRMISH_NO_SUCH=1\n") == 0);
    CU_ASSERT_EQUAL(sk_config_load(&cfg, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown setting 'SKIRMISH_NO_SUCH'"));
    unlink(path);
    setenv("SKIRMISH_CONFIG_FILE", "/nonexistent/skirmish.conf", 1);
    CU_ASSERT_EQUAL(sk_config_load(&cfg, err, sizeof(err)), SK_EIO);
    clear_env();
}

static void test_mask(void)
{
    char buf[256];
    CU_ASSERT_STRING_EQUAL(sk_config_mask(buf, sizeof(buf), "postgresql://app:s3cret@db:5432/x"),
                           "postgresql://app:****@db:5432/x");
    CU_ASSERT_STRING_EQUAL(sk_config_mask(buf, sizeof(buf), "redis://:pw@127.0.0.1:6380"),
                           "redis://:****@127.0.0.1:6380");
    CU_ASSERT_STRING_EQUAL(sk_config_mask(buf, sizeof(buf), "postgresql://app@db/x"),
                           "postgresql://app@db/x");
}

static void test_log_quote(void)
{
    char buf[64];
    /* a newline (a forged log line) and a byte of no character are written as \xHH */
    CU_ASSERT_STRING_EQUAL(sk_log_quote(buf, sizeof(buf), "a \"b\"\n\\c"),
                           "\"a \\\"b\\\"\\x0a\\\\c\"");
    CU_ASSERT_STRING_EQUAL(sk_log_quote(buf, sizeof(buf), "/v1/x\nevent=forged \xff"),
                           "\"/v1/x\\x0aevent=forged \\xff\"");
    CU_ASSERT_STRING_EQUAL(sk_log_quote(buf, 6, "abcdefgh"), "\"abc\"");
    /* cut short, never inside a character: "é" is two bytes */
    CU_ASSERT_STRING_EQUAL(sk_log_quote(buf, 6, "ab\xc3\xa9"), "\"ab\"");
    CU_ASSERT_EQUAL(sk_log_level_parse("warn"), SK_LOG_WARN);
    CU_ASSERT_EQUAL(sk_log_level_parse("verbose"), -1);
}

/* The README's configuration table is a copy of sk_config_markdown's output: every row of
 * the generated table must appear there verbatim. */
static void test_readme_table(void)
{
    char *gen = NULL;
    size_t gen_len = 0;
    char *readme = NULL;
    long n;
    FILE *mem = open_memstream(&gen, &gen_len);
    FILE *f = fopen(SK_SOURCE_DIR "/README.md", "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    sk_config_markdown(mem);
    fclose(mem);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    readme = sk_calloc(1, (size_t)n + 1);
    CU_ASSERT_EQUAL_FATAL(fread(readme, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    for (char *line = gen, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl)
            break;
        *nl = '\0';
        if (!strstr(readme, line))
            fprintf(stderr, "README.md lacks the configuration row: %s\n", line);
        CU_ASSERT_PTR_NOT_NULL(strstr(readme, line));
    }
    sk_free(readme);
    free(gen); /* open_memstream allocates with malloc(3) */
}

static CU_TestInfo config_tests[] = {
    {"README table matches the config table", test_readme_table},
    {"defaults", test_defaults},
    {"file then environment", test_file_then_env},
    {"every error reported", test_every_error_reported},
    {"engine settings exported", test_export_engine},
    {"unknown file setting, unreadable file", test_unknown_file_setting},
    {"secrets masked", test_mask},
    {"log value quoting", test_log_quote},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sk_config_suites[] = {
    {"sk_config", NULL, NULL, NULL, NULL, config_tests},
    CU_SUITE_INFO_NULL,
};
