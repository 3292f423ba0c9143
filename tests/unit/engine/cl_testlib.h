/* SPDX-License-Identifier: MIT */
/* Fixtures shared by the OpenCL test files: a private, initially empty program-binary
 * cache folder that SKIRMISH_CL_CACHE points at for the length of a suite (the previous
 * value is restored afterwards), and re-running one suite of this test binary in a child
 * process whose ICD loader sees no OpenCL platform. No assertions about the backend. */
#ifndef CL_TESTLIB_H
#define CL_TESTLIB_H

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "battle_cl.h"

extern char **environ;

struct cl_test_cache {
    char dir[256];   /* the private folder */
    char saved[512]; /* SKIRMISH_CL_CACHE before the suite, when had is set */
    int had;
};

/*
 * Creates a folder from the mkdtemp template `tmpl` (e.g. "/tmp/skirmish-x.XXXXXX"; not
 * modified) and points SKIRMISH_CL_CACHE at it. Returns 0 on success, as a CUnit suite
 * initialiser does.
 */
static inline int cl_test_cache_enter(struct cl_test_cache *c, const char *tmpl)
{
    snprintf(c->dir, sizeof(c->dir), "%s", tmpl);
    if (!mkdtemp(c->dir))
        return 1;
    c->had = getenv(BATTLE_CL_ENV_CACHE) != NULL;
    if (c->had)
        snprintf(c->saved, sizeof(c->saved), "%s", getenv(BATTLE_CL_ENV_CACHE));
    return setenv(BATTLE_CL_ENV_CACHE, c->dir, 1) != 0;
}

/* Removes every file of the folder (it stays, empty). */
static inline void cl_test_cache_empty(const struct cl_test_cache *c)
{
    DIR *d = opendir(c->dir);
    struct dirent *e;
    char p[600];

    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof(p), "%s/%s", c->dir, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
}

/* Removes the folder and its files, then restores SKIRMISH_CL_CACHE, so later suites do
 * not write into the removed folder. Returns 0 on success. */
static inline int cl_test_cache_leave(struct cl_test_cache *c)
{
    cl_test_cache_empty(c);
    rmdir(c->dir);
    if (c->had)
        return setenv(BATTLE_CL_ENV_CACHE, c->saved, 1) != 0;
    return unsetenv(BATTLE_CL_ENV_CACHE) != 0;
}

/*
 * Runs suite `suite` of this test binary in a child process with our environment minus
 * OCL_ICD_VENDORS and SKIRMISH_DEVICE, plus OCL_ICD_VENDORS=<an empty folder> (so the ICD
 * loader finds no platform) and `child_env`=1 (so the test knows it is the child).
 * Asserts that the child exited with status 0, i.e. that every assertion in it passed.
 */
static inline void cl_test_run_without_platform(const char *suite, const char *child_env)
{
    char vendors[] = "/tmp/skirmish-no-icd.XXXXXX";
    char *argv[] = {"test_engine", (char *)suite, NULL};
    char env_vendors[300], env_child[128];
    char *envp[256];
    size_t ne = 0;
    pid_t pid;
    int status = -1;

    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(vendors));
    snprintf(env_vendors, sizeof(env_vendors), "OCL_ICD_VENDORS=%s", vendors);
    snprintf(env_child, sizeof(env_child), "%s=1", child_env);
    for (char **e = environ; *e && ne < 250; e++)
        if (strncmp(*e, "OCL_ICD_VENDORS=", 16) != 0 && strncmp(*e, "SKIRMISH_DEVICE=", 16) != 0)
            envp[ne++] = *e;
    envp[ne++] = env_vendors;
    envp[ne++] = env_child;
    envp[ne] = NULL;
    CU_ASSERT_EQUAL_FATAL(posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, envp), 0);
    CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
    CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    rmdir(vendors);
}

#endif
