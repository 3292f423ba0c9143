/* SPDX-License-Identifier: MIT */
/* The catalog store: where the game's card files live so that every process can load the
 * catalog a job was submitted with (docs/cards.md, "The catalog store"). A folder named by
 * SKIRMISH_CARDS_DIR is either the game's files themselves (one catalog, as the game's
 * tools keep them) or a store that `skirmish cards update` keeps:
 *
 *   DIR/current          symbolic link to catalogs/<hex>: the catalog new jobs use
 *   DIR/catalogs/<hex>/  one catalog's files, never changed once there; <hex> is the 16
 *                        hex digits of its content hash ("fnv1a64:<hex>")
 *
 * A new catalog is assembled in a folder of its own, validated, renamed into catalogs/ and
 * made current by renaming a new link over `current`: a reader sees the old set or the
 * new one, never a mix. Only file-system paths here: loading is battle_catalog's. */
#ifndef BATTLE_STORE_H
#define BATTLE_STORE_H

#include <stddef.h>

#include "sk_err.h"

#define BATTLE_STORE_CURRENT  "current"
#define BATTLE_STORE_CATALOGS "catalogs"
/* The prefix of a folder catalog's hash; the rest is the folder's name in the store. */
#define BATTLE_STORE_HASH_PREFIX "fnv1a64:"

/** 1 when `dir` is a store (it holds a `current` link or folder), else 0. */
int battle_store_is_store(const char *dir);

/**
 * Writes into `out` the folder holding the catalog `dir` serves now: DIR/catalogs/<hex>
 * (`current` read once, so one load reads one set) for a store, else `dir` itself.
 * SK_ERANGE when it does not fit; SK_EIO with a message in `err` when `current` cannot
 * be read.
 */
enum sk_err battle_store_current(const char *dir, char *out, size_t outlen, char *err,
                                 size_t errlen);

/**
 * Writes into `out` the hash ("fnv1a64:<16 hex digits>") of the catalog `dir` serves now,
 * read from the name of the folder `current` links to, without loading the files (the
 * store names each catalog folder by its hash). SK_ENOTFOUND when `dir` is no store or
 * `current` is not a link to such a folder; SK_ERANGE when it does not fit.
 */
enum sk_err battle_store_current_hash(const char *dir, char *out, size_t outlen);

/**
 * Writes into `out` the folder of the store `dir` that holds the catalog whose hash is
 * `hash` ("fnv1a64:<16 hex digits>"). SK_ENOTFOUND when `dir` is no store, the hash is
 * not of that form, or the store has no such catalog; SK_ERANGE when it does not fit.
 */
enum sk_err battle_store_find(const char *dir, const char *hash, char *out, size_t outlen);

/**
 * Makes the folder `staged` (on the same file system as `dir`, typically inside it) the
 * store's catalog `hash` and its current one: renamed to DIR/catalogs/<hex> (or removed,
 * with its files, when the store already holds that catalog), then `current` replaced
 * atomically. Creates the store's folders when `dir` is empty or new. SK_EINVAL when
 * `hash` is not a folder hash; SK_EIO with a message naming the path otherwise.
 */
enum sk_err battle_store_install(const char *dir, const char *staged, const char *hash, char *err,
                                 size_t errlen);

/** Removes the folder `path` and the plain files in it (not recursive: a catalog folder is
 * flat). 0 on success, -1 with errno otherwise. */
int battle_store_remove_flat(const char *path);

#endif
