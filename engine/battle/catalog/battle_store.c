/* SPDX-License-Identifier: MIT */
/* The catalog store (see battle_store.h). */
#include "battle_store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sk_banned.h"

#define HEX_LEN 16

static int join(char *out, size_t outlen, const char *a, const char *b)
{
    int n = snprintf(out, outlen, "%s/%s", a, b);
    return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

int battle_store_is_store(const char *dir)
{
    char path[PATH_MAX];
    struct stat st;
    return join(path, sizeof(path), dir, BATTLE_STORE_CURRENT) == 0 && lstat(path, &st) == 0;
}

/* The 16 hex digits of a folder hash, or NULL when `hash` is not one. */
static const char *hash_hex(const char *hash)
{
    size_t plen = strlen(BATTLE_STORE_HASH_PREFIX);
    if (strncmp(hash, BATTLE_STORE_HASH_PREFIX, plen) != 0 || strlen(hash + plen) != HEX_LEN)
        return NULL;
    for (const char *p = hash + plen; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return NULL;
    return hash + plen;
}

enum sk_err battle_store_current(const char *dir, char *out, size_t outlen, char *err,
                                 size_t errlen)
{
    char link[PATH_MAX], target[PATH_MAX];
    struct stat st;
    ssize_t n;

    if (join(link, sizeof(link), dir, BATTLE_STORE_CURRENT) || lstat(link, &st) != 0) {
        if (snprintf(out, outlen, "%s", dir) >= (int)outlen)
            return SK_ERANGE;
        return SK_OK;
    }
    if (!S_ISLNK(st.st_mode)) /* a plain folder named current: read it as it is */
        return join(out, outlen, dir, BATTLE_STORE_CURRENT) ? SK_ERANGE : SK_OK;
    n = readlink(link, target, sizeof(target) - 1);
    if (n < 0) {
        snprintf(err, errlen, "%s: %s", link, strerror(errno));
        return SK_EIO;
    }
    target[n] = '\0';
    /* The link is relative (catalogs/<hex>) so that the store can move; an absolute one
     * written by hand is taken as it is. */
    if (target[0] == '/')
        return snprintf(out, outlen, "%s", target) >= (int)outlen ? SK_ERANGE : SK_OK;
    return join(out, outlen, dir, target) ? SK_ERANGE : SK_OK;
}

enum sk_err battle_store_current_hash(const char *dir, char *out, size_t outlen)
{
    char link[PATH_MAX], target[PATH_MAX], hash[64];
    const char *base;
    ssize_t n;

    if (join(link, sizeof(link), dir, BATTLE_STORE_CURRENT))
        return SK_ENOTFOUND;
    n = readlink(link, target, sizeof(target) - 1);
    if (n < 0) /* no store, or a plain folder named current: no hash to read */
        return SK_ENOTFOUND;
    target[n] = '\0';
    base = strrchr(target, '/');
    base = base ? base + 1 : target;
    if (snprintf(hash, sizeof(hash), "%s%s", BATTLE_STORE_HASH_PREFIX, base) >= (int)sizeof(hash) ||
        !hash_hex(hash))
        return SK_ENOTFOUND;
    return snprintf(out, outlen, "%s", hash) >= (int)outlen ? SK_ERANGE : SK_OK;
}

enum sk_err battle_store_find(const char *dir, const char *hash, char *out, size_t outlen)
{
    const char *hex = hash_hex(hash);
    char sub[PATH_MAX];
    struct stat st;

    if (!hex || !battle_store_is_store(dir))
        return SK_ENOTFOUND;
    if (join(sub, sizeof(sub), dir, BATTLE_STORE_CATALOGS) || join(out, outlen, sub, hex))
        return SK_ERANGE;
    return stat(out, &st) == 0 && S_ISDIR(st.st_mode) ? SK_OK : SK_ENOTFOUND;
}

int battle_store_remove_flat(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    char file[PATH_MAX];
    int rc = 0;

    if (!d)
        return -1;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (join(file, sizeof(file), path, e->d_name) || unlink(file) != 0)
            rc = -1;
    }
    (void)closedir(d); /* read only */
    return rc == 0 ? rmdir(path) : rc;
}

/* Flushes the folder `path` itself, so that a rename in it survives a crash. */
static void sync_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd); /* best effort: the rename is already visible to every reader */
        (void)close(fd);
    }
}

enum sk_err battle_store_install(const char *dir, const char *staged, const char *hash, char *err,
                                 size_t errlen)
{
    const char *hex = hash_hex(hash);
    char cats[PATH_MAX], final[PATH_MAX], link[PATH_MAX], tmp[PATH_MAX], target[64];
    struct stat st;

    if (!hex) {
        snprintf(err, errlen, "'%s' is not a catalog folder hash", hash);
        return SK_EINVAL;
    }
    if (join(cats, sizeof(cats), dir, BATTLE_STORE_CATALOGS) ||
        join(final, sizeof(final), cats, hex) ||
        join(link, sizeof(link), dir, BATTLE_STORE_CURRENT) ||
        snprintf(tmp, sizeof(tmp), "%s/.current.%ld", dir, (long)getpid()) >= (int)sizeof(tmp)) {
        snprintf(err, errlen, "%s: path too long", dir);
        return SK_EIO;
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return SK_EIO;
    }
    if (mkdir(cats, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", cats, strerror(errno));
        return SK_EIO;
    }
    if (stat(final, &st) == 0) {
        /* The same files are in the store already (a refresh back to an older set): that
         * copy stays, as jobs may be reading it. */
        (void)battle_store_remove_flat(staged);
    } else if (rename(staged, final) != 0) {
        snprintf(err, errlen, "%s -> %s: %s", staged, final, strerror(errno));
        return SK_EIO;
    }
    sync_dir(cats);
    snprintf(target, sizeof(target), "%s/%s", BATTLE_STORE_CATALOGS, hex);
    (void)unlink(tmp); /* a leftover of a crashed install of this pid */
    if (symlink(target, tmp) != 0) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        return SK_EIO;
    }
    if (rename(tmp, link) != 0) {
        snprintf(err, errlen, "%s -> %s: %s", tmp, link, strerror(errno));
        (void)unlink(tmp);
        return SK_EIO;
    }
    sync_dir(dir);
    return SK_OK;
}
