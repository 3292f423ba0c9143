/* SPDX-License-Identifier: MIT */
/* The battle game library's public face: the `battle` job kind (one row of job.c's table)
 * and the OpenCL devices it can run on, for `skirmish devices`. Everything else of the
 * library (rules, plan, backends, codec, catalog) is private to engine/battle/. */
#ifndef BATTLE_H
#define BATTLE_H

#include <stddef.h>
#include <stdint.h>

#include "job_kind.h"
#include "sk_err.h"

/* The `battle` job kind: Monte-Carlo deck-vs-deck battles (docs/jobs.md). */
extern const struct job_kind_ops battle_kind;

/* The environment variables the OpenCL backend reads. */
#define BATTLE_CL_ENV_DEVICE "SKIRMISH_DEVICE"   /* index, name substring, or "cpu" */
#define BATTLE_CL_ENV_CACHE  "SKIRMISH_CL_CACHE" /* program-binary cache folder */
/* Work-items per group, games per kernel launch and games per work-item, where
 * battle_cl_opts leaves them 0; unset, empty or "0" = the backend's choice (battle_cl.c,
 * choose_sizes). */
#define BATTLE_CL_ENV_WORK_GROUP "SKIRMISH_CL_WORK_GROUP"
#define BATTLE_CL_ENV_PER_LAUNCH "SKIRMISH_CL_GAMES_PER_LAUNCH"
/* Games a work-item plays one after another in a whole launch (kernels/battle.cl): a warp's
 * lanes then finish close together instead of waiting for the longest of 32 games. */
#define BATTLE_CL_ENV_PER_ITEM   "SKIRMISH_CL_GAMES_PER_ITEM"
#define BATTLE_CL_ENV_SPECIALISE "SKIRMISH_CL_SPECIALISE" /* 1: a program per plan; 0: one */

/* One OpenCL device as discovered; plain data. */
struct battle_cl_device {
    int index;  /* position in the discovery order: what SKIRMISH_DEVICE=<n> names */
    int is_gpu; /* CL_DEVICE_TYPE_GPU */
    unsigned compute_units;
    uint64_t global_mem; /* bytes */
    char platform[128];  /* platform name */
    char name[128];      /* device name */
    char version[128];   /* CL_DEVICE_VERSION */
    char driver[64];     /* CL_DRIVER_VERSION */
};

/**
 * Lists every device of every OpenCL platform, platforms in ICD order and devices in
 * platform order. On SK_OK *out is a new array of *n entries (caller frees with sk_free;
 * NULL when *n is 0). No platform at all (no ICD installed) is SK_OK with *n = 0, not an
 * error. SK_EIO with a message in `err` when an OpenCL query fails; SK_ENOMEM.
 */
enum sk_err battle_cl_devices(struct battle_cl_device **out, size_t *n, char *err, size_t errlen);

/** True when `spec` (SKIRMISH_DEVICE syntax) asks for the CPU backend: "cpu", any case. */
int battle_cl_spec_is_cpu(const char *spec);

/**
 * Picks a device of `devs` (borrowed, `n` entries) by `spec`: NULL or "" = the first GPU
 * (none is SK_ENOTFOUND: jobs then use the CPU backend); all digits = that index; anything else =
 * the first device whose name or platform name contains `spec`, ignoring case. On SK_OK *idx is a
 * position in `devs`. SK_ENOTFOUND with a message in `err` when nothing matches (or n is 0);
 * SK_EINVAL for "cpu", which names no device.
 */
enum sk_err battle_cl_pick(const struct battle_cl_device *devs, size_t n, const char *spec,
                           size_t *idx, char *err, size_t errlen);

/**
 * Self-check of device `index`: opens it, computes the first words of a few random
 * streams on it (the shared rng.h built by its OpenCL compiler) and compares them with the
 * host's. Returns 0 when they agree, else -1 with the reason in `why`.
 */
int battle_cl_check(int index, char *why, size_t whylen);

/* ===== The game's card files, for `skirmish cards` (catalog store: battle_store.h) ===== */

/* Most card files (cards_section_1.xml ... cards_section_N.xml) the importer reads from
 * one folder, and so the most `skirmish cards update` fetches. */
#define BATTLE_FOLDER_SECTIONS_MAX 99

/* What a folder of the game's files holds, as the importer reads it. */
struct battle_folder {
    char hash[32];  /* the catalog's content hash, "fnv1a64:<16 hex digits>" */
    size_t n_cards; /* catalog cards: one per unit and level */
    char **names;   /* owned: the units' names (top level), sorted by strcmp */
    size_t n_names;
    size_t n_enemies; /* missions and raids */
};

/**
 * Loads the game's files in `dir` (a folder of them, or a catalog store's current one)
 * with the importer every process uses, so that a folder it accepts is one the API and
 * the workers load (its missions and raids parsed too, which a process otherwise puts off
 * until a job names one). On SK_OK *out is filled (release with battle_folder_release). On
 * failure `err` names the file and why (SK_EIO: unreadable or missing; SK_EINVAL: not
 * the game's format); SK_ENOMEM.
 */
enum sk_err battle_folder_read(const char *dir, struct battle_folder *out, char *err,
                               size_t errlen);

/** Frees what battle_folder_read allocated and zeroes `f`; NULL-safe. */
void battle_folder_release(struct battle_folder *f);

#endif
