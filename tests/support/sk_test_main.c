/* SPDX-License-Identifier: MIT */
/* The shared main() of the CUnit executables (see sk_test_main.h). */
#include "sk_test_main.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

int sk_test_main(int argc, char **argv, CU_SuiteInfo **all)
{
    int rc = 1;

    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "cannot initialise the CUnit registry\n");
        return 1;
    }
    for (CU_SuiteInfo **s = all; *s; s++) {
        if (CU_register_suites(*s) != CUE_SUCCESS) {
            fprintf(stderr, "cannot register suites: %s\n", CU_get_error_msg());
            goto out;
        }
    }
    /* `--list`: the suites' names, one a line, in registration order. ctest registers one
     * test per line (cmake/SkTests.cmake), so that `ctest -j` runs the suites side by side. */
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (CU_SuiteInfo **s = all; *s; s++)
            for (CU_SuiteInfo *si = *s; si->pName; si++)
                printf("%s\n", si->pName);
        rc = 0;
        goto out;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    if (argc > 1) {
        CU_pSuite suite = CU_get_suite(argv[1]);
        if (!suite) {
            fprintf(stderr, "no suite named '%s'\n", argv[1]);
            goto out;
        }
        CU_basic_run_suite(suite);
    } else {
        CU_basic_run_tests();
    }
    rc = (CU_get_number_of_failures() == 0 && CU_get_error() == CUE_SUCCESS) ? 0 : 1;
    if (CU_get_number_of_suites_failed() > 0)
        rc = 1;
out:
    CU_cleanup_registry();
    return rc;
}

const char *sk_test_data(const char *rel)
{
    static char path[4096];
    snprintf(path, sizeof(path), "%s/tests/data/%s", SK_SOURCE_DIR, rel);
    return path;
}
