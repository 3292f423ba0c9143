/* SPDX-License-Identifier: MIT */
/* Catalog stores for tests (engine and integration): folders of the game's files made of
 * links to ../shared/data/tu (never copied into the repository), one file changed where a
 * test needs a catalog whose results differ, installed with the real store functions. */
#ifndef SK_TEST_CARDS_H
#define SK_TEST_CARDS_H

/* The game's files the tests read. */
#define SK_TEST_TU_DIR SK_SOURCE_DIR "/../shared/data/tu"

/**
 * Makes the new folder `dir` a catalog of the game's files: links to SK_TEST_TU_DIR's,
 * except cards_section_1.xml, copied with Bazooka Marine's attack (3 in the game's data)
 * set to the digit `attack`. Test assertions are fatal.
 */
void sk_test_cards_folder(const char *dir, char attack);

/**
 * Makes such a folder as `store`/`name` and installs it into the catalog store `store` as
 * its current catalog; its hash into `hash` (32 bytes).
 */
void sk_test_cards_install(const char *store, const char *name, char attack, char hash[32]);

/** Removes the folder `path` and everything in it (a test's store). */
void sk_test_cards_remove(const char *path);

#endif
