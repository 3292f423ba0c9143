/* SPDX-License-Identifier: MIT */
/* `skirmish cards` (see cli_cards.h). */
#include "cli_cards.h"

#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "battle.h"
#include "battle_store.h"
#include "sk_config.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

#ifndef SK_VERSION
#define SK_VERSION "unknown"
#endif

/* As skirmish.c's: 2 is the caller's fault, 1 ours, the network's or the system's. */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

/* The files the game serves and a catalog needs: a 404 on one fails the update. */
static const char *const required_files[] = {"fusion_recipes_cj2.xml", "missions.xml",
                                             "skills_set.xml"};
/* Served by the game but not always there: a 404 means the catalog has none. */
static const char *const optional_files[] = {"raids.xml", "levels.xml"};
/* The user's own files, never downloaded: taken from the store's top level when there,
 * else carried over from the current catalog, so that every catalog folder is whole. */
static const char *const user_files[] = {"customdecks.txt", "cardabbrs.txt", "bges.txt"};

#define N_OF(a)     (sizeof(a) / sizeof((a)[0]))
#define SECTION_FMT "cards_section_%d.xml"
#define FILES_MAX                                                                                  \
    (N_OF(required_files) + BATTLE_FOLDER_SECTIONS_MAX + N_OF(optional_files) + N_OF(user_files))
#define FILE_NAME_MAX    64
#define ETAG_MAX         256 /* a longer ETag is not kept: that file is fetched whole next time */
#define URL_MAX          2048
#define FILE_BYTES_MAX   (256LL << 20) /* one file; the game's largest is about 1.4 MB */
#define TIMEOUT_S        60            /* --timeout's default, per file */
#define TIMEOUT_S_MAX    3600
#define STALL_S          30 /* a transfer that moves no byte this long ends (or --timeout) */
#define NEW_NAMES_SHOWN  20
#define ETAGS_FILE       "etags.tsv"
#define ETAGS_TMP_PREFIX ".etags.tsv."
#define LOCK_FILE        ".lock"
#define STAGING_PREFIX   ".staging-"

/* ===== Options and usage ===== */

void cli_cards_usage(FILE *f)
{
    fprintf(f,
            "\ncards commands:\n"
            "  update [--base-url URL] [--dir DIR] [--offline] [--timeout S]\n"
            "      download the game's card files into the catalog store DIR and make them\n"
            "      its current catalog once they load; files the server says are unchanged\n"
            "      (ETag) are kept; on any failure the previous catalog stays current\n"
            "  status [--dir DIR]\n"
            "      print the catalog DIR serves now: folder, hash, cards\n"
            "\ncards options:\n"
            "  --base-url URL  where the files are (default: $%s, else the game's\n"
            "                  server, as the peer simulator fetches them)\n"
            "  --dir DIR       the store (default: $SKIRMISH_CARDS_DIR); made when missing.\n"
            "                  A folder holding the game's files itself is refused\n"
            "  --offline       no network: a new catalog from the current one and the user\n"
            "                  files at DIR's top level (customdecks.txt, cardabbrs.txt,\n"
            "                  bges.txt)\n"
            "  --timeout S     seconds per file (default %d, 1..%d); a transfer that moves\n"
            "                  no byte for %d s ends sooner\n"
            "  --help          print this help\n"
            "\nThen: SKIRMISH_CARDS_DIR=DIR for skirmish run, skirmish-api and skirmish-worker\n"
            "(docs/cards.md, \"Getting and refreshing the game's cards\").\n"
            "\nexit status: 0 done or nothing changed, 1 failed (the previous catalog stays\n"
            "current), 2 usage error, 130 interrupted\n",
            CLI_CARDS_ENV_URL, TIMEOUT_S, TIMEOUT_S_MAX, STALL_S);
}

struct cards_args {
    const char *base_url; /* borrowed from argv, or NULL */
    const char *dir;      /* likewise */
    int offline;
    long timeout_s;
};

/* Reads the value of option `name` (either "--name=V" in argv[*i] or the next argument). */
static const char *opt_value(int argc, char **argv, int *i, const char *cmd, const char *name)
{
    size_t n = strlen(name);
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (*i + 1 < argc)
        return argv[++*i];
    fprintf(stderr, "skirmish cards %s: %s needs a value\n", cmd, name);
    return NULL;
}

static int is_opt(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* Parses argv after the subcommand `cmd` ("update" takes every option, "status" --dir);
 * returns 0, or -1 after a message. */
static int parse_args(int argc, char **argv, const char *cmd, struct cards_args *a)
{
    int is_update = strcmp(cmd, "update") == 0;

    a->timeout_s = TIMEOUT_S;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *v;
        uint64_t u;
        if (is_opt(arg, "--dir")) {
            v = opt_value(argc, argv, &i, cmd, "--dir");
            if (!v)
                return -1;
            if (!*v) {
                fprintf(stderr, "skirmish cards %s: --dir must not be empty\n", cmd);
                return -1;
            }
            a->dir = v;
        } else if (is_update && is_opt(arg, "--base-url")) {
            v = opt_value(argc, argv, &i, cmd, "--base-url");
            if (!v)
                return -1;
            a->base_url = v;
        } else if (is_update && is_opt(arg, "--timeout")) {
            v = opt_value(argc, argv, &i, cmd, "--timeout");
            if (!v)
                return -1;
            if (sk_parse_u64(v, 1, TIMEOUT_S_MAX, &u)) {
                fprintf(stderr, "skirmish cards %s: --timeout must be 1..%d seconds, not '%s'\n",
                        cmd, TIMEOUT_S_MAX, v);
                return -1;
            }
            a->timeout_s = (long)u;
        } else if (is_update && strcmp(arg, "--offline") == 0) {
            a->offline = 1;
        } else {
            fprintf(stderr, "skirmish cards %s: unknown %s '%s'\n", cmd,
                    arg[0] == '-' ? "option" : "argument", arg);
            return -1;
        }
    }
    return 0;
}

/* ===== Files and folders ===== */

/* Writes one message into err (truncated to errlen: paths can be long). */
__attribute__((format(printf, 3, 4))) static void put_err(char *err, size_t errlen, const char *fmt,
                                                          ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static int join(char *out, size_t outlen, const char *a, const char *b)
{
    int n = snprintf(out, outlen, "%s/%s", a, b);
    return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* 1 when dir/name is a plain file. */
static int has_file(const char *dir, const char *name)
{
    char path[PATH_MAX];
    return dir[0] && join(path, sizeof(path), dir, name) == 0 && is_file(path);
}

/* mkdir -p: makes `path` and the folders above it that are missing; 0 or -1 with errno. */
static int make_dirs(const char *path)
{
    char p[PATH_MAX];
    struct stat st;

    if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    if (mkdir(p, 0755) != 0 && errno != EEXIST)
        return -1;
    if (stat(p, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* Writes all of `len` bytes; 0 or -1 with errno. */
static int write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Ends a file written for a catalog: flushed to the disk before the catalog is made current,
 * so that a crash cannot leave a current catalog with empty files. 0 or -1 with errno. */
static int finish_file(int fd)
{
    int rc = fsync(fd);
    int saved = errno;
    if (close(fd) != 0 && rc == 0)
        return -1;
    errno = saved;
    return rc;
}

/* Copies the file `src` to the new file `dst`; 0, or -1 with a message in err. */
static int copy_file(const char *src, const char *dst, char *err, size_t errlen)
{
    char buf[65536];
    int in = -1, out = -1, rc = -1;
    ssize_t n;

    in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        put_err(err, errlen, "cannot read %s: %s", src, strerror(errno));
        goto out;
    }
    out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (out < 0) {
        put_err(err, errlen, "cannot write %s: %s", dst, strerror(errno));
        goto out;
    }
    while ((n = read(in, buf, sizeof(buf))) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            put_err(err, errlen, "cannot read %s: %s", src, strerror(errno));
            goto out;
        }
        if (write_all(out, buf, (size_t)n) != 0) {
            put_err(err, errlen, "cannot write %s: %s", dst, strerror(errno));
            goto out;
        }
    }
    rc = finish_file(out);
    out = -1;
    if (rc != 0)
        put_err(err, errlen, "cannot write %s: %s", dst, strerror(errno));
out:
    if (out >= 0)
        (void)close(out); /* failed already: the staging folder goes */
    if (in >= 0)
        (void)close(in); /* read only */
    return rc;
}

/* A catalog's files never change once it is in the store, so a new catalog can share an
 * unchanged file's inode; a copy where the file system cannot link. */
static int link_or_copy(const char *src, const char *dst, char *err, size_t errlen)
{
    if (link(src, dst) == 0)
        return 0;
    return copy_file(src, dst, err, errlen);
}

/* 1 when the two files hold the same bytes, 0 when not (or either cannot be read). */
static int same_content(const char *a, const char *b)
{
    char ba[16384], bb[16384];
    FILE *fa = fopen(a, "rb");
    FILE *fb = fopen(b, "rb");
    int same = fa && fb;

    while (same) {
        size_t na = fread(ba, 1, sizeof(ba), fa);
        size_t nb = fread(bb, 1, sizeof(bb), fb);
        if (na != nb || memcmp(ba, bb, na) != 0)
            same = 0;
        if (na < sizeof(ba)) {
            same = same && !ferror(fa) && !ferror(fb);
            break;
        }
    }
    if (fa)
        (void)fclose(fa); /* read only */
    if (fb)
        (void)fclose(fb);
    return same;
}

/* ===== The update's state ===== */

enum file_kind { KIND_REQUIRED, KIND_SECTION, KIND_OPTIONAL, KIND_USER };
enum file_state {
    ST_ABSENT,     /* not in the new catalog */
    ST_DOWNLOADED, /* new content, in the staging folder */
    ST_UNCHANGED,  /* the current catalog's copy is taken (HTTP 304, or offline) */
    ST_CHANGED,    /* a user file from the store's top level, unlike the current catalog's */
};

struct cfile {
    char name[FILE_NAME_MAX];
    enum file_kind kind;
    enum file_state state;
    long long bytes;         /* downloaded (ST_DOWNLOADED) */
    char etag[ETAG_MAX + 1]; /* the server's ETag of this content; "" none */
};

/* DIR/etags.tsv: the ETags of the current catalog's downloaded files, valid only for the
 * catalog and base URL it names (a catalog made current by hand, or another server, makes
 * every request unconditional). */
struct etags {
    char catalog[40];
    char url[URL_MAX];
    size_t n;
    struct {
        char name[FILE_NAME_MAX];
        char etag[ETAG_MAX + 1];
    } items[FILES_MAX];
};

struct update {
    const char *dir; /* borrowed: the store */
    char base[URL_MAX];
    long timeout_s;
    int offline;
    int log_level;      /* SKIRMISH_LOG_LEVEL's, restored after the quiet load of the new files */
    char cur[PATH_MAX]; /* the current catalog's folder; "" none */
    char cur_hash[40];  /* its hash as the store names it; "" unknown */
    char staging[PATH_MAX]; /* DIR/.staging-<pid> once made; "" none (or installed) */
    struct etags old;       /* as read; used only when old_ok */
    int old_ok;
    struct cfile files[FILES_MAX];
    size_t n;
    int n_sections;
    CURL *curl;
    char curl_err[CURL_ERROR_SIZE];
    char err[2048]; /* why the update failed, naming the file */
};

/* Set by SIGINT or SIGTERM while downloading: the transfer stops (on_progress) and the
 * update ends as a failed one, leaving nothing behind. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

static struct cfile *add_file(struct update *u, const char *name, enum file_kind kind)
{
    struct cfile *f = &u->files[u->n++];
    memset(f, 0, sizeof(*f));
    snprintf(f->name, sizeof(f->name), "%s", name);
    f->kind = kind;
    return f;
}

/* Copies `src` into `dst` (`cap` bytes), cut short when longer. A memcpy, not snprintf:
 * the source is often in the same struct update, which GCC's -Wrestrict cannot tell apart
 * from the destination, and -Wformat-truncation sees every line of etags.tsv as long. */
static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void set_etag(struct cfile *f, const char *etag)
{
    copy_str(f->etag, sizeof(f->etag), etag);
}

static const char *old_etag(const struct update *u, const char *name)
{
    if (!u->old_ok)
        return NULL;
    for (size_t i = 0; i < u->old.n; i++)
        if (strcmp(u->old.items[i].name, name) == 0)
            return u->old.items[i].etag;
    return NULL;
}

static int ensure_staging(struct update *u)
{
    char name[64];

    if (u->staging[0])
        return 0;
    snprintf(name, sizeof(name), STAGING_PREFIX "%ld", (long)getpid());
    if (join(u->staging, sizeof(u->staging), u->dir, name) != 0) {
        u->staging[0] = '\0';
        errno = ENAMETOOLONG;
        return -1;
    }
    if (mkdir(u->staging, 0755) != 0) {
        int e = errno;
        u->staging[0] = '\0';
        errno = e;
        return -1;
    }
    return 0;
}

/* Opens the staging folder's new file `name` (making the folder first) and writes its path
 * into `path`; a descriptor, or -1 with errno. */
static int open_staged(struct update *u, const char *name, char *path, size_t pathlen)
{
    if (ensure_staging(u) != 0)
        return -1;
    if (join(path, pathlen, u->staging, name) != 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

/* One line per file, as soon as it is known (a download may take a while). */
static void print_file(const struct cfile *f, const char *dir)
{
    switch (f->state) {
    case ST_DOWNLOADED:
        printf("  %-24s downloaded (%lld bytes)\n", f->name, f->bytes);
        break;
    case ST_UNCHANGED:
        printf("  %-24s unchanged\n", f->name);
        break;
    case ST_CHANGED:
        printf("  %-24s taken from %s/%s\n", f->name, dir, f->name);
        break;
    case ST_ABSENT:
        printf("  %-24s absent\n", f->name);
        break;
    }
    (void)fflush(stdout); /* progress only */
}

/* ===== ETags ===== */

/* 1 when `s` is safe to keep in etags.tsv and send back: printable, no tab. */
static int etag_ok(const char *s, size_t n)
{
    if (n == 0 || n > ETAG_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
            return 0;
    return 1;
}

/* Reads DIR/etags.tsv into u->old (nothing when it is missing or unreadable: every request
 * is then unconditional) and decides whether it applies to the current catalog. */
static void read_etags(struct update *u)
{
    char path[PATH_MAX], line[URL_MAX + 64];
    FILE *f;

    memset(&u->old, 0, sizeof(u->old));
    if (join(path, sizeof(path), u->dir, ETAGS_FILE) != 0)
        return;
    f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        char *tab = strchr(line, '\t');
        char *end = line + strlen(line);
        while (end > line && (end[-1] == '\n' || end[-1] == '\r'))
            *--end = '\0';
        if (line[0] == '#' || !tab)
            continue;
        *tab++ = '\0';
        if (strcmp(line, "catalog") == 0) {
            copy_str(u->old.catalog, sizeof(u->old.catalog), tab);
        } else if (strcmp(line, "url") == 0) {
            copy_str(u->old.url, sizeof(u->old.url), tab);
        } else if (u->old.n < FILES_MAX && strlen(line) < FILE_NAME_MAX &&
                   etag_ok(tab, strlen(tab))) {
            copy_str(u->old.items[u->old.n].name, FILE_NAME_MAX, line);
            copy_str(u->old.items[u->old.n].etag, ETAG_MAX + 1, tab);
            u->old.n++;
        }
    }
    (void)fclose(f); /* read only */
    u->old_ok = u->cur_hash[0] && strcmp(u->old.catalog, u->cur_hash) == 0 &&
                (u->offline || strcmp(u->old.url, u->base) == 0);
}

/* Writes DIR/etags.tsv for the catalog `hash` now current: the ETags of its downloaded
 * files, through a temporary file renamed over the old one, so that a reader (the next
 * update) sees the old list or the new one. 0, or -1 with a message in u->err. */
static int write_etags(struct update *u, const char *hash)
{
    char path[PATH_MAX], tmp[PATH_MAX], name[64];
    const char *url = u->offline ? u->old.url : u->base;
    FILE *f = NULL;
    int rc = -1;

    snprintf(name, sizeof(name), ETAGS_TMP_PREFIX "%ld", (long)getpid());
    if (join(path, sizeof(path), u->dir, ETAGS_FILE) != 0 ||
        join(tmp, sizeof(tmp), u->dir, name) != 0) {
        put_err(u->err, sizeof(u->err), "%s: path too long", u->dir);
        return -1;
    }
    f = fopen(tmp, "w");
    if (!f)
        goto out;
    fprintf(f, "# ETags of the downloaded files of the store's current catalog, written by "
               "`skirmish cards update` (docs/cards.md)\n");
    fprintf(f, "catalog\t%s\nurl\t%s\n", hash, url);
    for (size_t i = 0; i < u->n; i++) {
        const struct cfile *c = &u->files[i];
        if (c->kind != KIND_USER && c->state != ST_ABSENT && c->etag[0])
            fprintf(f, "%s\t%s\n", c->name, c->etag);
    }
    if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0)
        goto out;
    rc = fclose(f);
    f = NULL;
    if (rc == 0)
        rc = rename(tmp, path);
out:
    if (rc != 0) {
        put_err(u->err, sizeof(u->err), "cannot write %s: %s", path, strerror(errno));
        if (f)
            (void)fclose(f); /* failed already */
        (void)unlink(tmp);
    }
    return rc;
}

/* ===== Downloads ===== */

/* One transfer: where its body goes and what its header said. */
struct fetch {
    struct update *u;
    struct cfile *f;
    char path[PATH_MAX]; /* the file in the staging folder */
    int fd;              /* -1 until the first byte of a 200's body */
    int werr;            /* errno of a failed create or write; 0 none */
    int too_big;
    long long got;
    char etag[ETAG_MAX + 1];
};

static size_t on_header(char *p, size_t size, size_t n, void *arg)
{
    struct fetch *x = arg;
    size_t len = size * n;
    size_t klen = strlen("etag:");

    /* A new response (after a redirect) starts again: only the last one's ETag counts. */
    if (len >= 5 && strncmp(p, "HTTP/", 5) == 0) {
        x->etag[0] = '\0';
    } else if (len > klen && strncasecmp(p, "etag:", klen) == 0) {
        const char *v = p + klen;
        const char *end = p + len;
        while (v < end && (*v == ' ' || *v == '\t'))
            v++;
        while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
            end--;
        if (etag_ok(v, (size_t)(end - v)))
            snprintf(x->etag, sizeof(x->etag), "%.*s", (int)(end - v), v);
    }
    return len;
}

static size_t on_body(char *p, size_t size, size_t n, void *arg)
{
    struct fetch *x = arg;
    size_t len = size * n;
    long code = 0;

    (void)curl_easy_getinfo(x->u->curl, CURLINFO_RESPONSE_CODE, &code);
    if (code != 200)
        return len; /* an error page: its status says what went wrong */
    if (x->fd < 0) {
        x->fd = open_staged(x->u, x->f->name, x->path, sizeof(x->path));
        if (x->fd < 0) {
            x->werr = errno;
            return 0;
        }
    }
    if (x->got + (long long)len > FILE_BYTES_MAX) {
        x->too_big = 1;
        return 0;
    }
    if (write_all(x->fd, p, len) != 0) {
        x->werr = errno;
        return 0;
    }
    x->got += (long long)len;
    return len;
}

static int on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow)
{
    return stop_signal != 0; /* non-zero aborts the transfer */
}

static enum sk_err curl_open(struct update *u)
{
    long stall = u->timeout_s < STALL_S ? u->timeout_s : STALL_S;

    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return SK_ENOMEM;
    u->curl = curl_easy_init();
    if (!u->curl) {
        curl_global_cleanup();
        return SK_ENOMEM;
    }
    (void)curl_easy_setopt(u->curl, CURLOPT_USERAGENT, "skirmish/" SK_VERSION);
    (void)curl_easy_setopt(u->curl, CURLOPT_ERRORBUFFER, u->curl_err);
    (void)curl_easy_setopt(u->curl, CURLOPT_FOLLOWLOCATION, 1L);
    (void)curl_easy_setopt(u->curl, CURLOPT_MAXREDIRS, 5L);
#if LIBCURL_VERSION_NUM >= 0x075500 /* 7.85: the text form; the bit mask is deprecated */
    (void)curl_easy_setopt(u->curl, CURLOPT_PROTOCOLS_STR, "http,https");
    (void)curl_easy_setopt(u->curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    (void)curl_easy_setopt(u->curl, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    (void)curl_easy_setopt(u->curl, CURLOPT_REDIR_PROTOCOLS,
                           (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    /* Certificates are checked (libcurl's default, left as it is). */
    (void)curl_easy_setopt(u->curl, CURLOPT_TIMEOUT, u->timeout_s);
    (void)curl_easy_setopt(u->curl, CURLOPT_CONNECTTIMEOUT, stall);
    (void)curl_easy_setopt(u->curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    (void)curl_easy_setopt(u->curl, CURLOPT_LOW_SPEED_TIME, stall);
    (void)curl_easy_setopt(u->curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)FILE_BYTES_MAX);
    (void)curl_easy_setopt(u->curl, CURLOPT_NOSIGNAL, 1L);
    (void)curl_easy_setopt(u->curl, CURLOPT_WRITEFUNCTION, on_body);
    (void)curl_easy_setopt(u->curl, CURLOPT_HEADERFUNCTION, on_header);
    (void)curl_easy_setopt(u->curl, CURLOPT_NOPROGRESS, 0L);
    (void)curl_easy_setopt(u->curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    return SK_OK;
}

static void curl_close(struct update *u)
{
    if (!u->curl)
        return;
    curl_easy_cleanup(u->curl);
    u->curl = NULL;
    curl_global_cleanup();
}

/* Says in u->err why the transfer of `name` from `url` failed (libcurl's words). */
static void transfer_error(struct update *u, const struct fetch *x, CURLcode cc, const char *url)
{
    const char *why = u->curl_err[0] ? u->curl_err : curl_easy_strerror(cc);
    curl_off_t clen = -1;

    (void)curl_easy_getinfo(u->curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &clen);
    if (x->werr)
        put_err(u->err, sizeof(u->err), "%s: cannot write %s: %s", x->f->name,
                x->path[0] ? x->path : u->dir, strerror(x->werr));
    else if (x->too_big || cc == CURLE_FILESIZE_EXCEEDED)
        put_err(u->err, sizeof(u->err), "%s: larger than %lld MiB, the most a card file may be",
                x->f->name, FILE_BYTES_MAX >> 20);
    else if (cc == CURLE_ABORTED_BY_CALLBACK && stop_signal)
        put_err(u->err, sizeof(u->err), "%s: interrupted", x->f->name);
    else if (cc == CURLE_PARTIAL_FILE)
        put_err(u->err, sizeof(u->err),
                "%s: truncated: the connection closed after %lld of %lld bytes (%s)", x->f->name,
                x->got, (long long)clen, url);
    else if (cc == CURLE_OPERATION_TIMEDOUT)
        put_err(u->err, sizeof(u->err), "%s: timed out (--timeout %ld): %s (%s)", x->f->name,
                u->timeout_s, why, url);
    else
        put_err(u->err, sizeof(u->err), "%s: %s (%s)", x->f->name, why, url);
}

/* Decides what the answer to a finished transfer means for the file: downloaded, unchanged
 * (a 304 to our If-None-Match), absent (a 404 on a file that need not exist), or a failure. */
static enum sk_err take_answer(struct update *u, struct fetch *x, long code, int required,
                               const char *etag_sent, const char *url)
{
    struct cfile *f = x->f;
    curl_off_t clen = -1;

    (void)curl_easy_getinfo(u->curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &clen);
    if (code == 200) {
        /* libcurl reports a short body itself (CURLE_PARTIAL_FILE); checked here too, as a
         * file cut short can still be well-formed XML. */
        if (clen >= 0 && (long long)clen != x->got) {
            put_err(u->err, sizeof(u->err), "%s: truncated: %lld of %lld bytes (%s)", f->name,
                    x->got, (long long)clen, url);
            return SK_EIO;
        }
        f->state = ST_DOWNLOADED;
        f->bytes = x->got;
        set_etag(f, x->etag);
        return SK_OK;
    }
    if (code == 304 && etag_sent) {
        f->state = ST_UNCHANGED;
        set_etag(f, x->etag[0] ? x->etag : etag_sent);
        return SK_OK;
    }
    if ((code == 404 || code == 410) && !required) {
        f->state = ST_ABSENT;
        return SK_OK;
    }
    if (code == 404 || code == 410)
        put_err(u->err, sizeof(u->err),
                "%s: HTTP %ld: the server does not have this file, which a catalog needs (%s)",
                f->name, code, url);
    else
        put_err(u->err, sizeof(u->err), "%s: HTTP %ld (%s)", f->name, code, url);
    return SK_EIO;
}

/* Fetches `f` from the base URL: conditionally when the current catalog has the file and
 * its ETag is known. A 200's body goes to the staging folder. On failure u->err says why. */
static enum sk_err fetch_file(struct update *u, struct cfile *f, int required)
{
    struct fetch x;
    struct curl_slist *hdrs = NULL;
    const char *etag = has_file(u->cur, f->name) ? old_etag(u, f->name) : NULL;
    char url[URL_MAX + FILE_NAME_MAX], inm[ETAG_MAX + 32];
    long code = 0;
    CURLcode cc;
    enum sk_err rc = SK_EIO;

    memset(&x, 0, sizeof(x));
    x.u = u;
    x.f = f;
    x.fd = -1;
    snprintf(url, sizeof(url), "%s%s", u->base, f->name);
    if (etag) {
        snprintf(inm, sizeof(inm), "If-None-Match: %s", etag);
        hdrs = curl_slist_append(NULL, inm);
        if (!hdrs) {
            put_err(u->err, sizeof(u->err), "out of memory");
            return SK_ENOMEM;
        }
    }
    (void)curl_easy_setopt(u->curl, CURLOPT_URL, url);
    (void)curl_easy_setopt(u->curl, CURLOPT_HTTPHEADER, hdrs);
    (void)curl_easy_setopt(u->curl, CURLOPT_WRITEDATA, &x);
    (void)curl_easy_setopt(u->curl, CURLOPT_HEADERDATA, &x);
    u->curl_err[0] = '\0';
    cc = curl_easy_perform(u->curl);
    (void)curl_easy_getinfo(u->curl, CURLINFO_RESPONSE_CODE, &code);
    if (x.fd >= 0) {
        if (finish_file(x.fd) != 0 && !x.werr)
            x.werr = errno;
        x.fd = -1;
    } else if (cc == CURLE_OK && code == 200) {
        /* an empty body: no write came, but the file is there, empty */
        int fd = open_staged(u, f->name, x.path, sizeof(x.path));
        if (fd < 0 || finish_file(fd) != 0)
            x.werr = errno;
    }
    if (cc != CURLE_OK || x.werr) {
        transfer_error(u, &x, cc, url);
        rc = stop_signal ? SK_ECANCELED : SK_EIO;
        goto out;
    }
    rc = take_answer(u, &x, code, required, etag, url);
out:
    (void)curl_easy_setopt(u->curl, CURLOPT_HTTPHEADER, NULL);
    curl_slist_free_all(hdrs);
    return rc;
}

/* Fetches every file: the required ones, the sections from 1 up to the first 404, the
 * optional ones. Stops at the first failure. */
static enum sk_err fetch_all(struct update *u)
{
    enum sk_err rc;

    for (size_t i = 0; i < N_OF(required_files); i++) {
        struct cfile *f = add_file(u, required_files[i], KIND_REQUIRED);
        rc = fetch_file(u, f, 1);
        if (rc)
            return rc;
        print_file(f, u->dir);
    }
    for (int i = 1; i <= BATTLE_FOLDER_SECTIONS_MAX; i++) {
        char name[FILE_NAME_MAX];
        struct cfile *f;
        snprintf(name, sizeof(name), SECTION_FMT, i);
        f = add_file(u, name, KIND_SECTION);
        rc = fetch_file(u, f, i == 1);
        if (rc)
            return rc;
        if (f->state == ST_ABSENT) {
            u->n--; /* the sections end before it */
            break;
        }
        u->n_sections = i;
        print_file(f, u->dir);
    }
    for (size_t i = 0; i < N_OF(optional_files); i++) {
        struct cfile *f = add_file(u, optional_files[i], KIND_OPTIONAL);
        rc = fetch_file(u, f, 0);
        if (rc)
            return rc;
        print_file(f, u->dir);
    }
    return SK_OK;
}

/* --offline: the current catalog's files as they are. */
static void take_current(struct update *u)
{
    const char *const *lists[] = {required_files, optional_files};
    size_t sizes[] = {N_OF(required_files), N_OF(optional_files)};

    for (size_t l = 0; l < 2; l++) {
        for (size_t i = 0; i < sizes[l]; i++) {
            struct cfile *f = add_file(u, lists[l][i], l ? KIND_OPTIONAL : KIND_REQUIRED);
            const char *etag = old_etag(u, f->name);
            f->state = has_file(u->cur, f->name) ? ST_UNCHANGED : ST_ABSENT;
            if (etag && f->state == ST_UNCHANGED)
                set_etag(f, etag);
        }
    }
    for (int i = 1; i <= BATTLE_FOLDER_SECTIONS_MAX; i++) {
        char name[FILE_NAME_MAX];
        const char *etag;
        struct cfile *f;
        snprintf(name, sizeof(name), SECTION_FMT, i);
        if (!has_file(u->cur, name))
            break;
        f = add_file(u, name, KIND_SECTION);
        f->state = ST_UNCHANGED;
        etag = old_etag(u, name);
        if (etag)
            set_etag(f, etag);
        u->n_sections = i;
    }
}

/* The user files: the store's top-level copy when there (changed unless the current
 * catalog has the same bytes), else the current catalog's. */
static void take_user_files(struct update *u)
{
    for (size_t i = 0; i < N_OF(user_files); i++) {
        struct cfile *f = add_file(u, user_files[i], KIND_USER);
        char top[PATH_MAX], cur[PATH_MAX];
        int at_top = join(top, sizeof(top), u->dir, f->name) == 0 && is_file(top);
        int in_cur = has_file(u->cur, f->name) && join(cur, sizeof(cur), u->cur, f->name) == 0;

        if (at_top)
            f->state = in_cur && same_content(top, cur) ? ST_UNCHANGED : ST_CHANGED;
        else
            f->state = in_cur ? ST_UNCHANGED : ST_ABSENT;
        print_file(f, u->dir);
    }
}

/* 1 when the new set differs from the current catalog's files: new content, or a file the
 * current catalog has that the new set lacks (a section fewer, an optional file gone). */
static int set_changed(const struct update *u)
{
    for (size_t i = 0; i < u->n; i++) {
        const struct cfile *f = &u->files[i];
        if (f->state == ST_DOWNLOADED || f->state == ST_CHANGED)
            return 1;
        if (f->state == ST_ABSENT && has_file(u->cur, f->name))
            return 1;
    }
    for (int i = u->n_sections + 1; i <= BATTLE_FOLDER_SECTIONS_MAX; i++) {
        char name[FILE_NAME_MAX];
        snprintf(name, sizeof(name), SECTION_FMT, i);
        if (has_file(u->cur, name))
            return 1;
    }
    return !u->cur[0];
}

/* Completes the staging folder: the unchanged files from the current catalog, the changed
 * user files from the store's top level. 0, or -1 with a message in u->err. */
static int fill_staging(struct update *u)
{
    char why[1024];

    if (ensure_staging(u) != 0) {
        put_err(u->err, sizeof(u->err), "cannot make a staging folder in %s: %s", u->dir,
                strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < u->n; i++) {
        const struct cfile *f = &u->files[i];
        char src[PATH_MAX], dst[PATH_MAX];
        if (f->state != ST_UNCHANGED && f->state != ST_CHANGED)
            continue;
        if (join(src, sizeof(src), f->state == ST_UNCHANGED ? u->cur : u->dir, f->name) != 0 ||
            join(dst, sizeof(dst), u->staging, f->name) != 0) {
            put_err(u->err, sizeof(u->err), "%s: path too long", f->name);
            return -1;
        }
        /* A user file is copied: linked, the user's next edit would change the catalog. */
        if ((f->state == ST_UNCHANGED ? link_or_copy(src, dst, why, sizeof(why))
                                      : copy_file(src, dst, why, sizeof(why))) != 0) {
            put_err(u->err, sizeof(u->err), "%s: %s", f->name, why);
            return -1;
        }
    }
    return 0;
}

/* ===== update ===== */

/* Names the game's files may not have at a store's top level: a folder holding them is
 * the game's files themselves, which an update must not turn into a store. */
static const char *game_file_in(const char *dir)
{
    static const char *const names[] = {"cards_section_1.xml", "skills_set.xml", "missions.xml",
                                        "fusion_recipes_cj2.xml", "raids.xml"};
    for (size_t i = 0; i < N_OF(names); i++)
        if (has_file(dir, names[i]))
            return names[i];
    return NULL;
}

/* Takes the store's lock (a second update at once would race for `current`; fcntl locks
 * work on NFS too), then removes what a killed update left: staging folders, temporary
 * ETag lists. Returns the lock's descriptor, or -1 with a message in err. */
static int lock_store(const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX];
    struct flock fl;
    DIR *d;
    struct dirent *e;
    int fd;

    if (join(path, sizeof(path), dir, LOCK_FILE) != 0) {
        put_err(err, errlen, "%s: path too long", dir);
        return -1;
    }
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        put_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    memset(&fl, 0, sizeof(fl));
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &fl) != 0) {
        if (errno == EACCES || errno == EAGAIN)
            put_err(err, errlen, "%s: another `skirmish cards update` is running on this store",
                    dir);
        else
            put_err(err, errlen, "cannot lock %s: %s", path, strerror(errno));
        (void)close(fd);
        return -1;
    }
    d = opendir(dir);
    while (d && (e = readdir(d))) {
        int staging = strncmp(e->d_name, STAGING_PREFIX, strlen(STAGING_PREFIX)) == 0;
        int tmp = strncmp(e->d_name, ETAGS_TMP_PREFIX, strlen(ETAGS_TMP_PREFIX)) == 0;
        if ((!staging && !tmp) || join(path, sizeof(path), dir, e->d_name) != 0)
            continue;
        /* best effort: what cannot go now goes next time */
        if (staging)
            (void)battle_store_remove_flat(path);
        else
            (void)unlink(path);
    }
    if (d)
        (void)closedir(d); /* read only */
    return fd;
}

/* Finds the store's current catalog, if any, and its hash as the store names it. */
static void find_current(struct update *u)
{
    char why[512] = "";
    struct stat st;

    u->cur[0] = u->cur_hash[0] = '\0';
    if (!battle_store_is_store(u->dir))
        return;
    if (battle_store_current(u->dir, u->cur, sizeof(u->cur), why, sizeof(why)) != SK_OK ||
        stat(u->cur, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr,
                "skirmish cards update: warning: the store's current catalog cannot be read "
                "(%s): every file is downloaded again\n",
                why[0] ? why : strerror(errno));
        u->cur[0] = '\0';
        return;
    }
    if (battle_store_current_hash(u->dir, u->cur_hash, sizeof(u->cur_hash)) != SK_OK)
        u->cur_hash[0] = '\0';
}

/* Walks the two sorted name lists (a name given twice counts once): counts the units only
 * `after` has, printing the first `show` of them, and those only `before` has. */
static void diff_names(const struct battle_folder *before, const struct battle_folder *after,
                       size_t show, size_t *n_new, size_t *n_gone)
{
    size_t i = 0, j = 0;

    *n_new = *n_gone = 0;
    while (i < before->n_names || j < after->n_names) {
        int c;
        if (i < before->n_names && i > 0 && strcmp(before->names[i], before->names[i - 1]) == 0) {
            i++;
            continue;
        }
        if (j < after->n_names && j > 0 && strcmp(after->names[j], after->names[j - 1]) == 0) {
            j++;
            continue;
        }
        if (i == before->n_names)
            c = 1;
        else if (j == after->n_names)
            c = -1;
        else
            c = strcmp(before->names[i], after->names[j]);
        if (c < 0) {
            (*n_gone)++;
            i++;
        } else if (c > 0) {
            if (*n_new < show)
                printf("  %s\n", after->names[j]);
            (*n_new)++;
            j++;
        } else {
            i++;
            j++;
        }
    }
}

/* The units the new catalog adds (by name, at most NEW_NAMES_SHOWN) and how many it drops. */
static void print_new_names(const struct battle_folder *before, const struct battle_folder *after)
{
    size_t n_new, n_gone;

    diff_names(before, after, 0, &n_new, &n_gone);
    printf("new cards: %zu%s\n", n_new, n_new ? "" : " (none)");
    diff_names(before, after, NEW_NAMES_SHOWN, &n_new, &n_gone);
    if (n_new > NEW_NAMES_SHOWN)
        printf("  and %zu more\n", n_new - NEW_NAMES_SHOWN);
    if (n_gone)
        printf("cards no longer in the files: %zu\n", n_gone);
}

/* The line to use the store, with an absolute path: the API and the workers need not start
 * in this folder. */
static void print_use(const char *dir)
{
    char cwd[PATH_MAX];
    if (dir[0] != '/' && getcwd(cwd, sizeof(cwd)))
        printf("use it: SKIRMISH_CARDS_DIR=%s/%s\n", cwd, dir);
    else
        printf("use it: SKIRMISH_CARDS_DIR=%s\n", dir);
}

/* Removes "FOLDER/" from the message `msg`: the importer names a file by its path, and
 * the staging folder's name means nothing to the user (it is gone when they read it). */
static void drop_folder(char *msg, const char *folder)
{
    char prefix[PATH_MAX + 1];
    size_t n;
    char *at;

    if (join(prefix, sizeof(prefix), folder, "") != 0)
        return;
    n = strlen(prefix);
    while ((at = strstr(msg, prefix)))
        memmove(at, at + n, strlen(at + n) + 1);
}

/* Loads the staged set, installs it and reports. u->err on failure. */
static enum sk_err validate_install(struct update *u)
{
    struct battle_folder before, after;
    char why[2048] = "";
    enum sk_err rc;
    int have_before = 0;

    memset(&before, 0, sizeof(before));
    memset(&after, 0, sizeof(after));
    /* The importer's notes would name the staging folder, gone in a moment; `cards status`
     * prints them for the installed catalog. */
    sk_log_set_level(SK_LOG_ERROR);
    rc = battle_folder_read(u->staging, &after, why, sizeof(why));
    sk_log_set_level((enum sk_log_level)u->log_level);
    if (rc) {
        drop_folder(why, u->staging);
        put_err(u->err, sizeof(u->err), "the new files do not load: %s", why);
        goto out;
    }
    if (strcmp(after.hash, u->cur_hash) == 0) {
        /* The same bytes as the current catalog (a server that sends no ETags sends
         * everything again): nothing to install. */
        (void)battle_store_remove_flat(u->staging);
        u->staging[0] = '\0';
        printf("the files are the current catalog's: %s stays current\n", after.hash);
        if (!u->offline && write_etags(u, after.hash) != 0)
            fprintf(stderr, "skirmish cards update: warning: %s\n", u->err);
        print_use(u->dir);
        goto out;
    }
    rc = battle_store_install(u->dir, u->staging, after.hash, why, sizeof(why));
    if (rc) {
        put_err(u->err, sizeof(u->err), "cannot install the new catalog: %s", why);
        goto out;
    }
    u->staging[0] = '\0'; /* it is the catalog now */
    if (write_etags(u, after.hash) != 0)
        fprintf(stderr,
                "skirmish cards update: warning: %s (the next update downloads every file)\n",
                u->err);
    if (u->cur[0]) {
        sk_log_set_level(SK_LOG_ERROR);
        have_before = battle_folder_read(u->cur, &before, why, sizeof(why)) == SK_OK;
        sk_log_set_level((enum sk_log_level)u->log_level);
        if (!have_before)
            printf("the previous catalog does not load (%s)\n", why);
    }
    if (have_before) {
        printf("cards: %zu before, %zu after\n", before.n_cards, after.n_cards);
        print_new_names(&before, &after);
    } else {
        printf("cards: %zu (%zu units)\n", after.n_cards, after.n_names);
    }
    printf("missions and raids: %zu\n", after.n_enemies);
    printf("catalog: %s, now current (%s/%s)\n", after.hash, u->dir, BATTLE_STORE_CURRENT);
    printf("what the importer noted in the files: skirmish cards status --dir %s\n", u->dir);
    print_use(u->dir);
out:
    battle_folder_release(&before);
    battle_folder_release(&after);
    return rc;
}

/* The update proper, with the store locked. u->err on failure. */
static enum sk_err run_update(struct update *u)
{
    enum sk_err rc = SK_OK;

    find_current(u);
    read_etags(u);
    if (u->offline) {
        if (!u->cur[0]) {
            put_err(u->err, sizeof(u->err),
                    "%s has no current catalog to start from: run it once without --offline",
                    u->dir);
            return SK_ENOTFOUND;
        }
        printf("skirmish cards update --offline: %s\n", u->dir);
        take_current(u);
        for (size_t i = 0; i < u->n; i++)
            print_file(&u->files[i], u->dir);
    } else {
        printf("skirmish cards update: %s -> %s\n", u->base, u->dir);
        (void)fflush(stdout); /* progress only */
        rc = curl_open(u);
        if (rc) {
            put_err(u->err, sizeof(u->err), "cannot start libcurl");
            return rc;
        }
        rc = fetch_all(u);
        curl_close(u);
        if (rc)
            return rc;
    }
    take_user_files(u);
    if (!set_changed(u)) {
        printf("nothing changed: catalog %s stays current; nothing was written\n",
               u->cur_hash[0] ? u->cur_hash : "(unknown hash)");
        print_use(u->dir);
        return SK_OK;
    }
    if (fill_staging(u) != 0)
        return SK_EIO;
    return validate_install(u);
}

static int cmd_update(int argc, char **argv, const struct sk_config *cfg)
{
    struct cards_args a;
    struct update *u = NULL;
    struct sigaction sa, old_int, old_term;
    const char *game_file;
    int lock = -1, status = EXIT_FAIL, handlers = 0;
    enum sk_err rc;

    memset(&a, 0, sizeof(a));
    if (parse_args(argc, argv, "update", &a))
        return EXIT_USAGE;
    if (!a.dir)
        a.dir = cfg->cards_dir[0] ? cfg->cards_dir : NULL;
    if (!a.base_url)
        a.base_url = cfg->cards_url;
    if (!a.dir) {
        fprintf(stderr, "skirmish cards update: name the store: --dir DIR or SKIRMISH_CARDS_DIR "
                        "(for instance --dir var/cards)\n");
        return EXIT_USAGE;
    }
    if (!a.offline && strncmp(a.base_url, "http://", 7) != 0 &&
        strncmp(a.base_url, "https://", 8) != 0) {
        fprintf(stderr,
                "skirmish cards update: the base URL must start with https:// or "
                "http://, not '%s'\n",
                a.base_url);
        return EXIT_USAGE;
    }
    u = sk_calloc(1, sizeof(*u));
    if (!u) {
        fprintf(stderr, "skirmish cards update: out of memory\n");
        return EXIT_FAIL;
    }
    u->dir = a.dir;
    u->timeout_s = a.timeout_s;
    u->offline = a.offline;
    u->log_level = sk_log_level_parse(cfg->log_level);
    if (snprintf(u->base, sizeof(u->base) - FILE_NAME_MAX, "%s%s", a.base_url,
                 a.base_url[0] && a.base_url[strlen(a.base_url) - 1] == '/' ? "" : "/") >=
        (int)sizeof(u->base) - FILE_NAME_MAX) {
        fprintf(stderr, "skirmish cards update: the base URL is too long\n");
        status = EXIT_USAGE;
        goto out;
    }
    game_file = battle_store_is_store(a.dir) ? NULL : game_file_in(a.dir);
    if (game_file) {
        fprintf(stderr,
                "skirmish cards update: %s holds the game's files itself (%s): an update keeps "
                "a store of catalogs and does not change such a folder; name a new folder "
                "(--dir NEW), then use SKIRMISH_CARDS_DIR=NEW\n",
                a.dir, game_file);
        goto out;
    }
    if (make_dirs(a.dir) != 0) {
        fprintf(stderr, "skirmish cards update: cannot make %s: %s\n", a.dir, strerror(errno));
        goto out;
    }
    lock = lock_store(a.dir, u->err, sizeof(u->err));
    if (lock < 0) {
        fprintf(stderr, "skirmish cards update: %s\n", u->err);
        goto out;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    (void)sigaction(SIGINT, &sa, &old_int);
    (void)sigaction(SIGTERM, &sa, &old_term);
    handlers = 1;
    rc = run_update(u);
    if (rc) {
        fprintf(stderr, "skirmish cards update: %s; %s\n", u->err,
                u->cur[0] ? "the previous catalog stays current" : "no catalog was installed");
        status = rc == SK_ECANCELED ? EXIT_INTERRUPTED : EXIT_FAIL;
        goto out;
    }
    status = fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
out:
    if (u && u->staging[0] && battle_store_remove_flat(u->staging) != 0 && errno != ENOENT)
        fprintf(stderr, "skirmish cards update: warning: cannot remove %s: %s\n", u->staging,
                strerror(errno));
    if (handlers) {
        (void)sigaction(SIGINT, &old_int, NULL);
        (void)sigaction(SIGTERM, &old_term, NULL);
    }
    if (lock >= 0)
        (void)close(lock); /* releases the lock */
    sk_free(u);
    return status;
}

/* ===== status ===== */

static int cmd_status(int argc, char **argv, const struct sk_config *cfg)
{
    struct cards_args a;
    struct battle_folder f;
    char folder[PATH_MAX], why[2048] = "";
    int is_store;

    memset(&a, 0, sizeof(a));
    if (parse_args(argc, argv, "status", &a))
        return EXIT_USAGE;
    if (!a.dir)
        a.dir = cfg->cards_dir[0] ? cfg->cards_dir : NULL;
    if (!a.dir) {
        fprintf(stderr, "skirmish cards status: name the store: --dir DIR or "
                        "SKIRMISH_CARDS_DIR\n");
        return EXIT_USAGE;
    }
    is_store = battle_store_is_store(a.dir);
    if (!is_store && !game_file_in(a.dir)) {
        fprintf(stderr,
                "skirmish cards status: %s holds no catalog: skirmish cards update --dir %s\n",
                a.dir, a.dir);
        return EXIT_FAIL;
    }
    if (battle_store_current(a.dir, folder, sizeof(folder), why, sizeof(why)) != SK_OK ||
        battle_folder_read(a.dir, &f, why, sizeof(why)) != SK_OK) {
        fprintf(stderr, "skirmish cards status: %s\n", why[0] ? why : "path too long");
        return EXIT_FAIL;
    }
    printf("store: %s\n", is_store ? a.dir : "(none: the folder holds the game's files itself)");
    printf("folder: %s\n", folder);
    printf("catalog: %s\n", f.hash);
    printf("cards: %zu (%zu units)\n", f.n_cards, f.n_names);
    printf("missions and raids: %zu\n", f.n_enemies);
    battle_folder_release(&f);
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

int cli_cards_main(int argc, char **argv)
{
    struct sk_config cfg;
    char err[4096] = "";
    int status;

    if (argc < 2) {
        fprintf(stderr, "skirmish cards: update or status?\n");
        cli_cards_usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "update") != 0 && strcmp(argv[1], "status") != 0) {
        fprintf(stderr, "skirmish cards: no subcommand '%s' (update, status)\n", argv[1]);
        return EXIT_USAGE;
    }
    /* SKIRMISH_CARDS_URL and SKIRMISH_CARDS_DIR come from the one configuration table
     * (environment, or SKIRMISH_CONFIG_FILE), as the servers read them. */
    if (sk_config_load(&cfg, err, sizeof(err)) != SK_OK) {
        fprintf(stderr, "skirmish cards: the configuration is invalid:\n%s", err);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "update") == 0)
        status = cmd_update(argc - 1, argv + 1, &cfg);
    else
        status = cmd_status(argc - 1, argv + 1, &cfg);
    sk_config_release(&cfg);
    return status;
}
