/* SPDX-License-Identifier: MIT */
/* What every part of the search asks of an optimize job (see battle_opt_job.h). */
#include "battle_opt_job.h"

#include <string.h>

#include "battle_catalog.h"
#include "battle_tu.h"
#include "sk_mem.h"

#include "sk_banned.h"

void battle_opt_job_release(struct opt_job *job)
{
    if (!job)
        return;
    json_decref(job->base);
    sk_free(job->cards);
    sk_free(job->own);
    battle_catalog_put(job->cat);
    memset(job, 0, sizeof(*job));
}

int battle_opt_copies(const struct opt_deck *d, int c)
{
    int n = 0;
    for (int i = 0; i < d->n; i++)
        n += d->cards[i] == c;
    return n;
}

int battle_opt_faction_ok(const struct opt_job *job, int c)
{
    int f = job->cards[c].faction;

    /* a faction beyond the game's six (a file the importer read loosely) is in none listed */
    return job->factions == 0 || (f >= 0 && f < OPT_FACTIONS_MAX && (job->factions >> f & 1u));
}

int battle_opt_limit(const struct opt_job *job, int c)
{
    if (!battle_opt_faction_ok(job, c) || job->cards[c].fusion < job->min_fusion)
        return 0;
    if (job->fund > 0 && job->cards[c].id > 0)
        return job->max_copies;
    return job->cards[c].owned < job->max_copies ? job->cards[c].owned : job->max_copies;
}

json_t *battle_opt_side_json(const struct opt_job *job, const struct opt_deck *d)
{
    static const char *const plays[] = {"random", "ordered", "exact", "flexible"};
    json_t *side = json_pack("{s:s, s:[], s:[], s:s}", "commander", job->cards[d->commander].name,
                             "fortresses", "deck", "play", plays[job->play]);
    json_t *forts = json_object_get(side, "fortresses");
    json_t *deck = json_object_get(side, "deck");
    int bad = !side;

    for (int f = 0; !bad && f < job->n_fortresses; f++)
        bad = json_array_append_new(forts, json_string(job->fortresses[f])) != 0;
    for (int i = 0; !bad && i < d->n; i++) {
        /* consecutive copies as one entry: the same positions, a shorter list */
        int n = 1;
        while (i + n < d->n && d->cards[i + n] == d->cards[i])
            n++;
        bad = json_array_append_new(deck, json_pack("{s:s, s:i}", "card",
                                                    job->cards[d->cards[i]].name, "count", n)) != 0;
        i += n - 1;
    }
    if (bad) {
        json_decref(side);
        return NULL;
    }
    return side;
}

double battle_opt_score_unit(const struct opt_job *job)
{
    return job->objective == OPT_OBJ_POINTS ? 0.01 : 1.0;
}
