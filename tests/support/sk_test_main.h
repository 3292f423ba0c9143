/* SPDX-License-Identifier: MIT */
/* The shared main() of every CUnit executable: registers the suites, runs them in basic
 * mode and turns failures into the exit status. Not a test framework of its own. */
#ifndef SK_TEST_MAIN_H
#define SK_TEST_MAIN_H

#include <CUnit/CUnit.h>

/**
 * Registers every NULL-terminated array in `all` (itself NULL-terminated), then runs the
 * suites. With argv[1] given, only the suite of that name runs (`test_engine battle_rules`);
 * with argv[1] "--list", nothing runs and the suites' names are printed, one a line.
 * Returns 0 when every test passed, 1 otherwise (also when a named suite does not exist).
 */
int sk_test_main(int argc, char **argv, CU_SuiteInfo **all);

/** Path of a file under the source tree's tests/data; returns a static buffer. */
const char *sk_test_data(const char *rel);

#endif
