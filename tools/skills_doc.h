/* SPDX-License-Identifier: MIT */
/* What the skill table (battle_skills.h) writes into files of the repository: the skill
 * lists of openapi/openapi.json with the document's layout, and the skill table of
 * docs/jobs.md. A schema that carries "x-skills" has its "enum" rewritten:
 * "engine" lists the table's rows in table order (BATTLE_SKILL_TABLE: the skills a job's
 * card may have), "game" the game's skills in the peer's order (BATTLE_SKILL_GAME_TABLE: the
 * catalog's cards and filter, Enhance's and Evolve's "s" and "s2"). The document is laid
 * out as Python's json.dumps(indent=1) writes it, which skills_doc_dump reproduces byte for
 * byte, so the generator (tools/gen_skills.c, `make gen-skills`) changes the lists and
 * nothing else. This module reads and writes no file; test_battle_skills.c runs it on both
 * files and fails when they differ from what it makes. Not thread-safe (jansson values). */
#ifndef SKILLS_DOC_H
#define SKILLS_DOC_H

#include <jansson.h>
#include <stddef.h>

#include "sk_buf.h"
#include "sk_err.h"

/* The command that regenerates every list, for the messages of the checks. */
#define SKILLS_DOC_REGEN "make gen-skills"

/**
 * Makes the "enum" of every schema of `doc` (borrowed, changed in place) that carries
 * "x-skills" the list it names. On SK_OK *n_marked is the number of such schemas and
 * *n_changed those whose enum was not already that list. SK_EINVAL, with `err` naming the
 * schema by its JSON pointer, when an "x-skills" is not "engine" or "game", or when an
 * "enum" lists a skill without "x-skills" (it would drift from the table unseen); `doc`
 * may then be partly rewritten. SK_ENOMEM.
 */
enum sk_err skills_doc_update(json_t *doc, int *n_marked, int *n_changed, char *err, size_t errlen);

/* The lines around the skill table of docs/jobs.md, which skills_doc_markdown rewrites. */
#define SKILLS_DOC_TABLE_BEGIN                                                                     \
    "<!-- The skill table: `make gen-skills` writes it from engine/battle/rules/battle_skills.h. " \
    "-->"
#define SKILLS_DOC_TABLE_END "<!-- End of the skill table. -->"

/**
 * Appends the Markdown table of every row of the skill table, in table order, to `out`:
 * name, kind, the range of "x" (battle_rules_skill_x_max) or that it takes none, whether it
 * takes "all", its other options, the card types that may have it. Returns `out`'s sticky
 * error.
 */
enum sk_err skills_doc_table(struct sk_buf *out);

/**
 * Appends Markdown text `md` (borrowed, NUL-terminated) to `out` with the lines between
 * SKILLS_DOC_TABLE_BEGIN and SKILLS_DOC_TABLE_END (each a line of its own, once, in that
 * order) replaced by skills_doc_table's, with a blank line before and after. SK_EINVAL when `md`
 * lacks them; else `out`'s sticky error.
 */
enum sk_err skills_doc_markdown(const char *md, struct sk_buf *out);

/**
 * Appends `doc` (borrowed) to `out` as json.dumps(doc, indent=1) writes it, and a newline:
 * one space of indent a level, ", " never (a comma ends the line), ": " after keys, "[]"
 * and "{}" when empty, strings ASCII with \uXXXX escapes, reals in their shortest form that
 * reads back the same (0.842, 50.0, 1e-05). Returns `out`'s sticky error (SK_OK, SK_ENOMEM,
 * SK_ERANGE past its max).
 */
enum sk_err skills_doc_dump(const json_t *doc, struct sk_buf *out);

#endif
