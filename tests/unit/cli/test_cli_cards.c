/* SPDX-License-Identifier: MIT */
/* `skirmish cards update` as a user runs it: the built `skirmish` program against a
 * loopback HTTP server of this test (libmicrohttpd, a port the kernel picks) serving the
 * game's files of ../shared/data/tu (never copied into the repository; $SKIRMISH_TEST_TU_DIR
 * overrides) with ETags, which misbehaves on request. In order: a first update makes a
 * store whose catalog `skirmish run` plays; a new section on the server is downloaded alone
 * and its cards are named; an update with nothing new writes nothing; a 500, a truncated
 * body, a stalled body past --timeout, a 404 on a required file and malformed XML each fail
 * with the file named and leave the previous catalog current and no staging folder; offline
 * updates take the user files; a failed write installs nothing; a folder of the game's files
 * is not touched. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SK_SKIRMISH_BIN
#define SK_SKIRMISH_BIN "skirmish"
#endif

extern char **environ;

/* ===== The server ===== */

enum fail {
    FAIL_NONE,
    FAIL_500,       /* HTTP 500 */
    FAIL_404,       /* HTTP 404 */
    FAIL_TRUNCATE,  /* Content-Length of the whole file, half of it sent, connection closed */
    FAIL_SLOW,      /* a little of the body, then nothing for up to 8 s */
    FAIL_MALFORMED, /* 200 with XML that is not well-formed */
};

struct served {
    char name[64];
    char *data; /* owned */
    size_t len;
    char etag[40];
};

#define SERVED_MAX 64

static struct {
    struct served files[SERVED_MAX];
    size_t n;
    struct MHD_Daemon *daemon;
    unsigned short port;
    pthread_mutex_t mu; /* guards the fields below, which the test changes between runs */
    int max_section;    /* sections past it answer 404; 0 = all served */
    char fail_name[64];
    enum fail fail;
    long n_200, n_304, n_requests;
    volatile int stopping; /* a stalled body gives up when set */
} srv = {.mu = PTHREAD_MUTEX_INITIALIZER};

static const char malformed[] = "<?xml version=\"1.0\"?>\n<root>\n<unit><id>1</id>\n";

static uint64_t fnv1a(const char *p, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

struct partial {
    const struct served *f;
    size_t limit; /* bytes sent before the failure */
    int slow;
};

/* Sends the first `limit` bytes, then (slow) stalls, then closes the connection. */
static ssize_t partial_reader(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct partial *p = cls;
    size_t n;

    if (pos >= p->limit) {
        struct timespec tick = {0, 50000000};
        for (int i = 0; p->slow && i < 160 && !srv.stopping; i++)
            nanosleep(&tick, NULL);
        return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    n = p->limit - (size_t)pos < max ? p->limit - (size_t)pos : max;
    memcpy(buf, p->f->data + pos, n);
    return (ssize_t)n;
}

static void partial_free(void *cls)
{
    free(cls);
}

static const struct served *find_served(const char *name)
{
    for (size_t i = 0; i < srv.n; i++)
        if (strcmp(srv.files[i].name, name) == 0)
            return &srv.files[i];
    return NULL;
}

static enum MHD_Result answer(struct MHD_Connection *c, unsigned code, const char *body, size_t len,
                              const char *etag)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_PERSISTENT);
    enum MHD_Result ret;
    if (!r)
        return MHD_NO;
    if (etag)
        MHD_add_response_header(r, "ETag", etag);
    ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    const char *name = strrchr(url, '/') ? strrchr(url, '/') + 1 : url;
    const struct served *f = find_served(name);
    const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match");
    enum fail fail = FAIL_NONE;
    int section = 0, hidden = 0;

    pthread_mutex_lock(&srv.mu);
    srv.n_requests++;
    if (strcmp(name, srv.fail_name) == 0)
        fail = srv.fail;
    if (sscanf(name, "cards_section_%d.xml", &section) == 1 && srv.max_section > 0 &&
        section > srv.max_section)
        hidden = 1;
    pthread_mutex_unlock(&srv.mu);

    if (fail == FAIL_500)
        return answer(c, 500, "oops\n", 5, NULL);
    if (!f || hidden || fail == FAIL_404)
        return answer(c, 404, "not found\n", 10, NULL);
    if (fail == FAIL_MALFORMED)
        return answer(c, 200, malformed, strlen(malformed), "\"malformed\"");
    if (fail == FAIL_TRUNCATE || fail == FAIL_SLOW) {
        struct partial *p = calloc(1, sizeof(*p));
        struct MHD_Response *r;
        enum MHD_Result ret;
        if (!p)
            return MHD_NO;
        p->f = f;
        p->limit = fail == FAIL_SLOW ? 1000 : f->len / 2;
        p->slow = fail == FAIL_SLOW;
        r = MHD_create_response_from_callback(f->len, 16384, partial_reader, p, partial_free);
        if (!r)
            return MHD_NO;
        MHD_add_response_header(r, "ETag", "\"partial\"");
        ret = MHD_queue_response(c, 200, r);
        MHD_destroy_response(r);
        return ret;
    }
    pthread_mutex_lock(&srv.mu);
    if (inm && strcmp(inm, f->etag) == 0)
        srv.n_304++;
    else
        srv.n_200++;
    pthread_mutex_unlock(&srv.mu);
    if (inm && strcmp(inm, f->etag) == 0)
        return answer(c, 304, "", 0, f->etag);
    return answer(c, 200, f->data, f->len, f->etag);
}

static void set_fail(const char *name, enum fail fail)
{
    pthread_mutex_lock(&srv.mu);
    snprintf(srv.fail_name, sizeof(srv.fail_name), "%s", name ? name : "");
    srv.fail = fail;
    pthread_mutex_unlock(&srv.mu);
}

static void counts(long *n200, long *n304, long *requests)
{
    pthread_mutex_lock(&srv.mu);
    *n200 = srv.n_200;
    *n304 = srv.n_304;
    *requests = srv.n_requests;
    srv.n_200 = srv.n_304 = srv.n_requests = 0;
    pthread_mutex_unlock(&srv.mu);
}

/* ===== Files ===== */

static char tu_dir[PATH_MAX];
static char root[PATH_MAX];  /* a temporary folder for this suite */
static char store[PATH_MAX]; /* root/store */
static char base_url[64];
static char cur_target[PATH_MAX]; /* `current` after the second update */
static struct stat cur_st;

static int read_file(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (!f)
        return -1;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return -1;
    }
    *out = malloc((size_t)n + 1);
    if (!*out || fread(*out, 1, (size_t)n, f) != (size_t)n) {
        free(*out);
        fclose(f);
        return -1;
    }
    (*out)[n] = '\0';
    *len = (size_t)n;
    fclose(f);
    return 0;
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static char *path_in(char *buf, size_t len, const char *dir, const char *name)
{
    if (snprintf(buf, len, "%s/%s", dir, name) >= (int)len)
        buf[0] = '\0'; /* too long: no such file */
    return buf;
}

/* `current`'s target, "" when it is no link. */
static const char *current_target(char *buf, size_t len)
{
    char link[PATH_MAX];
    ssize_t n = readlink(path_in(link, sizeof(link), store, "current"), buf, len - 1);
    buf[n > 0 ? n : 0] = '\0';
    return buf;
}

/* Entries of `dir` whose names start with `prefix` ("" = all but . and ..). */
static int count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
            strncmp(e->d_name, prefix, strlen(prefix)) == 0)
            n++;
    closedir(d);
    return n;
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[PATH_MAX];
    struct stat st;
    if (!d)
        return;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        path_in(p, sizeof(p), dir, e->d_name);
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

/* ===== Running the program ===== */

static char out[65536];        /* the last run's stdout and stderr */
static long child_fsize_limit; /* > 0: the largest file the program may write (RLIMIT_FSIZE) */

/* Runs skirmish with the NULL-terminated arguments after `env` ("NAME=value" added to the
 * environment, or NULL), in the source tree, without the SKIRMISH_* settings of the
 * caller's environment. Returns the exit status (-1 when it did not exit). */
static int skirmish(const char *env, ...)
{
    char *argv[32], *envp[512], outpath[PATH_MAX];
    size_t n = 0, ne = 0;
    va_list ap;
    int fd, status;
    pid_t pid;
    FILE *f;
    struct timespec t0, t1;

    argv[n++] = (char *)SK_SKIRMISH_BIN;
    va_start(ap, env);
    for (char *a = va_arg(ap, char *); a && n < 31; a = va_arg(ap, char *))
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    for (char **e = environ; *e && ne < 510; e++)
        if (strncmp(*e, "SKIRMISH_", 9) != 0)
            envp[ne++] = *e;
    if (env)
        envp[ne++] = (char *)env;
    envp[ne] = NULL;
    path_in(outpath, sizeof(outpath), root, "out.txt");
    fd = open(outpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid = fork();
    if (pid == 0) {
        if (chdir(SK_SOURCE_DIR) != 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(127);
        if (child_fsize_limit > 0) {
            /* a write past it fails with EFBIG, as on a full disk (SIGXFSZ ignored, so
             * that the write returns instead of killing the program) */
            struct rlimit rl = {(rlim_t)child_fsize_limit, (rlim_t)child_fsize_limit};
            signal(SIGXFSZ, SIG_IGN);
            if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
                _exit(127);
        }
        execve(argv[0], argv, envp);
        _exit(127);
    }
    close(fd);
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    out[0] = '\0';
    f = fopen(outpath, "r");
    if (f) {
        size_t got = fread(out, 1, sizeof(out) - 1, f);
        out[got] = '\0';
        fclose(f);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (getenv("SK_TEST_VERBOSE")) /* to read what a user would, and how long it took */
        fprintf(stderr, "\n$ skirmish %s %s ... (%.2f s)\n%s", argv[1], n > 2 ? argv[2] : "",
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The output holds `text`; else it is printed, to see why. */
static int says(const char *text)
{
    if (strstr(out, text))
        return 1;
    fprintf(stderr, "\noutput lacks \"%s\":\n%s\n", text, out);
    return 0;
}

/* A line of the per-file report: "  NAME  STATE". */
static int file_says(const char *name, const char *state)
{
    char want[128];
    const char *line = strstr(out, name);
    while (line && line > out && line[-1] != ' ')
        line = strstr(line + 1, name);
    snprintf(want, sizeof(want), "%s", state);
    if (line) {
        const char *end = strchr(line, '\n');
        const char *at = strstr(line, want);
        if (at && (!end || at < end))
            return 1;
    }
    fprintf(stderr, "\nno line \"%s ... %s\" in:\n%s\n", name, state, out);
    return 0;
}

/* ===== Suite ===== */

static int setup(void)
{
    const char *env = getenv("SKIRMISH_TEST_TU_DIR");
    struct sockaddr_in addr;
    const union MHD_DaemonInfo *info;
    DIR *d;
    struct dirent *e;

    snprintf(tu_dir, sizeof(tu_dir), "%s", env && *env ? env : SK_SOURCE_DIR "/../shared/data/tu");
    d = opendir(tu_dir);
    if (!d) {
        fprintf(stderr, "test_cli_cards: no game files in %s: %s\n", tu_dir, strerror(errno));
        return 1;
    }
    while ((e = readdir(d)) && srv.n < SERVED_MAX) {
        struct served *f = &srv.files[srv.n];
        char p[PATH_MAX];
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 4, ".xml") != 0)
            continue; /* the user files are the user's: the server has none */
        if (snprintf(f->name, sizeof(f->name), "%s", e->d_name) >= (int)sizeof(f->name))
            continue; /* no file of the game's has such a name */
        if (read_file(path_in(p, sizeof(p), tu_dir, e->d_name), &f->data, &f->len) != 0) {
            closedir(d);
            return 1;
        }
        snprintf(f->etag, sizeof(f->etag), "\"%016llx\"",
                 (unsigned long long)fnv1a(f->data, f->len));
        srv.n++;
    }
    closedir(d);
    snprintf(root, sizeof(root), "/tmp/skirmish-cards.XXXXXX");
    if (!mkdtemp(root))
        return 1;
    path_in(store, sizeof(store), root, "store");
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0; /* the kernel's choice, read back below */
    srv.daemon =
        MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0, NULL,
                         NULL, on_request, NULL, MHD_OPTION_SOCK_ADDR, &addr, MHD_OPTION_END);
    if (!srv.daemon)
        return 1;
    info = MHD_get_daemon_info(srv.daemon, MHD_DAEMON_INFO_BIND_PORT);
    if (!info || !info->port)
        return 1;
    srv.port = info->port;
    snprintf(base_url, sizeof(base_url), "http://127.0.0.1:%u/assets", (unsigned)srv.port);
    return 0;
}

static int teardown(void)
{
    srv.stopping = 1;
    if (srv.daemon)
        MHD_stop_daemon(srv.daemon);
    for (size_t i = 0; i < srv.n; i++)
        free(srv.files[i].data);
    if (root[0])
        remove_tree(root);
    return 0;
}

/* The first update into a new folder: every file downloaded, a store made, the user file
 * at its top level taken into the catalog. The server stops at 20 sections for now. */
static void test_first_update(void)
{
    char p[PATH_MAX], q[PATH_MAX], *bges = NULL;
    size_t len;
    long n200, n304, req;
    struct stat st, top;

    CU_ASSERT_EQUAL_FATAL(mkdir(store, 0755), 0);
    CU_ASSERT_EQUAL_FATAL(read_file(path_in(p, sizeof(p), tu_dir, "bges.txt"), &bges, &len), 0);
    CU_ASSERT_EQUAL(write_file(path_in(p, sizeof(p), store, "bges.txt"), bges), 0);
    free(bges);
    srv.max_section = 20;
    counts(&n200, &n304, &req);
    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "update", "--base-url", base_url, "--dir", store, NULL),
                    0);
    CU_ASSERT(file_says("cards_section_1.xml", "downloaded"));
    CU_ASSERT(file_says("cards_section_20.xml", "downloaded"));
    CU_ASSERT(file_says("raids.xml", "downloaded"));
    CU_ASSERT(file_says("bges.txt", "taken from"));
    CU_ASSERT(file_says("customdecks.txt", "absent"));
    CU_ASSERT_PTR_NULL(strstr(out, "cards_section_21.xml"));
    CU_ASSERT(says("cards: 51894 ("));
    CU_ASSERT_PTR_NULL(strstr(out, "new cards")); /* all are: no list */
    CU_ASSERT(says("catalog: fnv1a64:"));
    CU_ASSERT(says("use it: SKIRMISH_CARDS_DIR="));
    counts(&n200, &n304, &req);
    CU_ASSERT_EQUAL(n304, 0);
    CU_ASSERT_EQUAL(n200, 25); /* 3 required, 20 sections, raids, levels */
    CU_ASSERT_STRING_NOT_EQUAL(current_target(p, sizeof(p)), "");
    CU_ASSERT(strncmp(p, "catalogs/", 9) == 0);
    path_in(q, sizeof(q), store, p);
    CU_ASSERT_EQUAL(stat(path_in(p, sizeof(p), q, "bges.txt"), &st), 0);
    CU_ASSERT_EQUAL(stat(path_in(p, sizeof(p), q, "cards_section_20.xml"), &st), 0);
    /* the catalog's copy of a user file is a copy: editing the user's changes no catalog */
    CU_ASSERT_EQUAL(stat(path_in(p, sizeof(p), q, "bges.txt"), &st), 0);
    CU_ASSERT_EQUAL(stat(path_in(q, sizeof(q), store, "bges.txt"), &top), 0);
    CU_ASSERT_NOT_EQUAL(st.st_ino, top.st_ino);
    CU_ASSERT_NOT_EQUAL(stat(path_in(p, sizeof(p), q, "cards_section_21.xml"), &st), 0);
    CU_ASSERT_EQUAL(stat(path_in(p, sizeof(p), store, "etags.tsv"), &st), 0);
    CU_ASSERT_EQUAL(count_entries(store, ".staging-"), 0);
}

/* A new section on the server: only it is downloaded (the rest are 304s), its cards are
 * named, and the new catalog is current. */
static void test_new_section(void)
{
    char before[PATH_MAX], p[PATH_MAX];
    long n200, n304, req;

    current_target(before, sizeof(before));
    srv.max_section = 0;
    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "update", "--base-url", base_url, "--dir", store, NULL),
                    0);
    counts(&n200, &n304, &req);
    CU_ASSERT_EQUAL(n200, 1);
    CU_ASSERT_EQUAL(n304, 25);
    CU_ASSERT(file_says("cards_section_21.xml", "downloaded"));
    CU_ASSERT(file_says("cards_section_1.xml", "unchanged"));
    CU_ASSERT(file_says("bges.txt", "unchanged"));
    CU_ASSERT(says(" before, 54523 after"));
    CU_ASSERT(says("new cards: "));
    CU_ASSERT(says("more\n"));
    current_target(cur_target, sizeof(cur_target));
    CU_ASSERT_STRING_NOT_EQUAL(cur_target, before);
    CU_ASSERT_EQUAL(count_entries(path_in(p, sizeof(p), store, "catalogs"), ""), 2);
    CU_ASSERT_EQUAL(lstat(path_in(p, sizeof(p), store, "current"), &cur_st), 0);
}

/* The store is what SKIRMISH_CARDS_DIR names for a run, and `cards status` reads it. */
static void test_run_uses_store(void)
{
    char env[PATH_MAX + 32], hex[64];

    snprintf(env, sizeof(env), "SKIRMISH_CARDS_DIR=%s", store);
    CU_ASSERT_EQUAL(skirmish(env, "run", "--games", "100", "--device", "cpu", "--summary",
                             "examples/tu/battle_real_decks.json", NULL),
                    0);
    CU_ASSERT(says("win "));
    CU_ASSERT_EQUAL(skirmish(env, "cards", "status", NULL), 0);
    snprintf(hex, sizeof(hex), "catalog: fnv1a64:%s", strrchr(cur_target, '/') + 1);
    CU_ASSERT(says(hex));
    CU_ASSERT(says("cards: 54523"));
}

/* Nothing new on the server: every file a 304, nothing written (not `current`, not the
 * ETags, not even the store's folder). */
static void test_unchanged(void)
{
    char p[PATH_MAX];
    struct stat cur, dir, etags, dir_after, etags_after, cur_after;
    long n200, n304, req;

    CU_ASSERT_EQUAL(lstat(path_in(p, sizeof(p), store, "current"), &cur), 0);
    CU_ASSERT_EQUAL(stat(store, &dir), 0);
    CU_ASSERT_EQUAL(stat(path_in(p, sizeof(p), store, "etags.tsv"), &etags), 0);
    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "update", "--base-url", base_url, "--dir", store, NULL),
                    0);
    counts(&n200, &n304, &req);
    CU_ASSERT_EQUAL(n200, 0);
    CU_ASSERT_EQUAL(n304, 26);
    CU_ASSERT(says("nothing changed"));
    CU_ASSERT_PTR_NULL(strstr(out, "downloaded"));
    CU_ASSERT_EQUAL(lstat(path_in(p, sizeof(p), store, "current"), &cur_after), 0);
    CU_ASSERT_EQUAL(stat(store, &dir_after), 0);
    CU_ASSERT_EQUAL(stat(path_in(p, sizeof(p), store, "etags.tsv"), &etags_after), 0);
    CU_ASSERT_EQUAL(cur.st_ino, cur_after.st_ino);
    CU_ASSERT_EQUAL(cur.st_mtim.tv_sec, cur_after.st_mtim.tv_sec);
    CU_ASSERT_EQUAL(cur.st_mtim.tv_nsec, cur_after.st_mtim.tv_nsec);
    CU_ASSERT_EQUAL(dir.st_mtim.tv_nsec, dir_after.st_mtim.tv_nsec);
    CU_ASSERT_EQUAL(etags.st_ino, etags_after.st_ino);
    CU_ASSERT_EQUAL(etags.st_mtim.tv_nsec, etags_after.st_mtim.tv_nsec);
}

/* One injected failure: exit 1, the file and the reason named, the catalog of the second
 * update still current and untouched, no staging folder left. */
static void expect_failure(const char *name, enum fail fail, const char *why, const char *timeout)
{
    char p[PATH_MAX], target[PATH_MAX];
    struct stat st;
    long n200, n304, req;
    struct timespec t0, t1;

    set_fail(name, fail);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "update", "--base-url", base_url, "--dir", store,
                             "--timeout", timeout, NULL),
                    1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    set_fail(NULL, FAIL_NONE);
    counts(&n200, &n304, &req);
    CU_ASSERT(says(name));
    CU_ASSERT(says(why));
    CU_ASSERT(says("the previous catalog stays current"));
    CU_ASSERT_STRING_EQUAL(current_target(target, sizeof(target)), cur_target);
    CU_ASSERT_EQUAL(lstat(path_in(p, sizeof(p), store, "current"), &st), 0);
    CU_ASSERT_EQUAL(st.st_ino, cur_st.st_ino);
    CU_ASSERT_EQUAL(st.st_mtim.tv_nsec, cur_st.st_mtim.tv_nsec);
    CU_ASSERT_EQUAL(count_entries(store, ".staging-"), 0);
    CU_ASSERT_EQUAL(count_entries(path_in(p, sizeof(p), store, "catalogs"), ""), 2);
    /* a stalled file ends at --timeout, not at the server's 8 s */
    if (fail == FAIL_SLOW)
        CU_ASSERT((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9 < 6.0);
}

static void test_failures(void)
{
    expect_failure("cards_section_5.xml", FAIL_500, "HTTP 500", "10");
    expect_failure("missions.xml", FAIL_TRUNCATE, "truncated", "10");
    /* the first file fetched: no other transfer runs under the 1 s limit */
    expect_failure("fusion_recipes_cj2.xml", FAIL_SLOW, "timed out (--timeout 1)", "1");
    expect_failure("fusion_recipes_cj2.xml", FAIL_404, "HTTP 404", "10");
    expect_failure("cards_section_1.xml", FAIL_404, "HTTP 404", "10");
    expect_failure("cards_section_3.xml", FAIL_MALFORMED,
                   "the new files do not load: cards_section_3.xml:3: ", "10");
}

/* --offline: an edited bges.txt at the store's top level makes a new catalog without the
 * network, the other files shared with the previous one; the next online update then finds
 * nothing new. An edited customdecks.txt (named decks, which jobs read) makes another. */
static void test_offline(void)
{
    char p[PATH_MAX], q[PATH_MAX], target[PATH_MAX], *bges = NULL;
    size_t len;
    long n200, n304, req;
    struct stat a, b;

    CU_ASSERT_EQUAL_FATAL(read_file(path_in(p, sizeof(p), store, "bges.txt"), &bges, &len), 0);
    bges = realloc(bges, len + 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bges);
    memcpy(bges + len, "// edited by test_cli_cards\n", 29);
    CU_ASSERT_EQUAL(write_file(p, bges), 0);
    free(bges);
    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "update", "--offline", "--dir", store, NULL), 0);
    counts(&n200, &n304, &req);
    CU_ASSERT_EQUAL(req, 0);
    CU_ASSERT(file_says("bges.txt", "taken from"));
    CU_ASSERT(file_says("cards_section_21.xml", "unchanged"));
    CU_ASSERT(says("new cards: 0"));
    current_target(target, sizeof(target));
    CU_ASSERT_STRING_NOT_EQUAL(target, cur_target);
    path_in(q, sizeof(q), store, target);
    CU_ASSERT_EQUAL(read_file(path_in(p, sizeof(p), q, "bges.txt"), &bges, &len), 0);
    CU_ASSERT_PTR_NOT_NULL(bges ? strstr(bges, "edited by test_cli_cards") : NULL);
    free(bges);
    /* unchanged files are shared, not copied */
    CU_ASSERT_EQUAL(stat(path_in(p, sizeof(p), q, "cards_section_1.xml"), &a), 0);
    path_in(q, sizeof(q), store, cur_target);
    CU_ASSERT_EQUAL(stat(path_in(p, sizeof(p), q, "cards_section_1.xml"), &b), 0);
    CU_ASSERT_EQUAL(a.st_ino, b.st_ino);

    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "update", "--base-url", base_url, "--dir", store, NULL),
                    0);
    counts(&n200, &n304, &req);
    CU_ASSERT_EQUAL(n200, 0);
    CU_ASSERT(says("nothing changed"));

    CU_ASSERT_EQUAL(write_file(path_in(p, sizeof(p), store, "customdecks.txt"), "Mine: Grunt\n"),
                    0);
    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "update", "--offline", "--dir", store, NULL), 0);
    CU_ASSERT(file_says("customdecks.txt", "taken from"));
    CU_ASSERT_STRING_NOT_EQUAL(current_target(p, sizeof(p)), target);
    CU_ASSERT_EQUAL(count_entries(store, ".staging-"), 0);
}

/* A write that fails (here a file-size limit, as a full disk would) fails the first update
 * of a new store: the file named, no catalog installed, no staging folder left. */
static void test_write_error(void)
{
    char dir[PATH_MAX];

    path_in(dir, sizeof(dir), root, "small-disk");
    child_fsize_limit = 100000; /* fusion_recipes_cj2.xml, fetched first, is 572884 bytes */
    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "update", "--base-url", base_url, "--dir", dir, NULL),
                    1);
    child_fsize_limit = 0;
    CU_ASSERT(says("fusion_recipes_cj2.xml: cannot write "));
    CU_ASSERT(says("File too large"));
    CU_ASSERT(says("no catalog was installed"));
    CU_ASSERT_EQUAL(count_entries(dir, ".staging-"), 0);
    CU_ASSERT_EQUAL(count_entries(dir, "current"), 0);
}

/* A folder of the game's files is refused and left as it is; usage errors are 2. */
static void test_refusals(void)
{
    char flat[PATH_MAX], p[PATH_MAX], env[PATH_MAX + 32], *text = NULL;
    size_t len;

    path_in(flat, sizeof(flat), root, "flat");
    CU_ASSERT_EQUAL_FATAL(mkdir(flat, 0755), 0);
    CU_ASSERT_EQUAL(write_file(path_in(p, sizeof(p), flat, "cards_section_1.xml"), "<root/>\n"), 0);
    snprintf(env, sizeof(env), "SKIRMISH_CARDS_DIR=%s", flat);
    CU_ASSERT_EQUAL(skirmish(env, "cards", "update", "--base-url", base_url, NULL), 1);
    CU_ASSERT(says("holds the game's files itself"));
    CU_ASSERT_EQUAL(read_file(p, &text, &len), 0);
    CU_ASSERT_STRING_EQUAL(text ? text : "", "<root/>\n");
    free(text);
    CU_ASSERT_EQUAL(count_entries(flat, ""), 1);

    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "update", "--base-url", base_url, NULL), 2);
    CU_ASSERT(says("--dir DIR or SKIRMISH_CARDS_DIR"));
    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "update", "--dir", store, "--timeout", "0", NULL), 2);
    CU_ASSERT_EQUAL(
        skirmish(NULL, "cards", "update", "--dir", store, "--base-url", "ftp://x/", NULL), 2);
    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "frobnicate", NULL), 2);
    CU_ASSERT_EQUAL(skirmish(NULL, "cards", "--help", NULL), 0);
    CU_ASSERT(says("--offline"));
    CU_ASSERT_EQUAL(skirmish(NULL, "help", "cards", NULL), 0);
    CU_ASSERT(says("--base-url URL"));
}

static CU_TestInfo cards_tests[] = {
    {"first update", test_first_update},
    {"a new section", test_new_section},
    {"run uses the store", test_run_uses_store},
    {"nothing new writes nothing", test_unchanged},
    {"failures keep the catalog", test_failures},
    {"offline", test_offline},
    {"a write error", test_write_error},
    {"refusals", test_refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_cli_cards_suites[] = {
    {"cli_cards", setup, teardown, NULL, NULL, cards_tests},
    CU_SUITE_INFO_NULL,
};
