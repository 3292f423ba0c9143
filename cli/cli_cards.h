/* SPDX-License-Identifier: MIT */
/* `skirmish cards`: gets and refreshes the game's card files in a catalog store
 * (engine/battle/include/battle_store.h, docs/cards.md "Getting and refreshing the game's
 * cards"). `update` downloads the files over HTTP(S) with libcurl, conditionally (ETags),
 * into a staging folder inside the store, has the engine's importer load them, and only
 * then installs them as the store's current catalog; `status` prints what a store serves.
 * It knows the names of the game's files and how to fetch them; where a catalog lives and
 * how one becomes current is battle_store's, and what the files mean is the importer's.
 * Not thread-safe: it installs signal handlers while it downloads. */
#ifndef CLI_CARDS_H
#define CLI_CARDS_H

#include <stdio.h>

/* The setting naming where the files are downloaded from (also in common/sk_config.c). */
#define CLI_CARDS_ENV_URL "SKIRMISH_CARDS_URL"

/**
 * Runs `skirmish cards SUBCOMMAND ...`; argv[0] is "cards" (borrowed, not changed).
 * Output goes to stdout, problems to stderr. Returns the exit status: 0 done (also when
 * nothing changed), 1 a failed update or status (the previous catalog stays current),
 * 2 a usage error, 130 interrupted.
 */
int cli_cards_main(int argc, char **argv);

/** Writes the options of `skirmish cards` (for `skirmish help cards`) to `f`. */
void cli_cards_usage(FILE *f);

#endif
