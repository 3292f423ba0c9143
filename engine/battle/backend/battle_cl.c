/* SPDX-License-Identifier: MIT */
/* The OpenCL backend of the battle engine (see battle_cl.h): discovery, selection, program
 * build with a per-device binary cache, launches and the host half of the counter
 * reduction. Every OpenCL status is checked and turned into an sk_err plus a message that
 * names the call; OpenCL types never leave this file. */
#include <CL/cl.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "battle_cl.h"
#include "battle_rules.h"
#include "battle_sim.h"
#include "kernels_src.h"
#include "rng.h"
#include "sk_hash.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_parse.h"
#include "sk_time.h"

#include "sk_banned.h"

#define STR_(x) #x
#define STR(x)  STR_(x)
/* Options every program is built with; part of the cache key. BATTLE_TURN_MAX sizes the
 * kernel's counters (see kernels/battle.cl). */
#define BUILD_OPTIONS "-cl-std=CL1.2 -DBATTLE_TURN_MAX=" STR(BATTLE_TURN_LIMIT_MAX)
/* The features of the program with the self-check's kernel alone (kernels/battle.cl). */
#define RNG_ONLY "-DBATTLE_RNG_ONLY=1"
/* The counter slots of one launch, as kernels/battle.cl lays them out. */
#define SLOT_WIN     0
#define SLOT_STALL   1
#define SLOT_LOSS    2
#define SLOT_BAD     3
#define SLOT_BOUNDED 4
#define SLOT_TURN0   5
#define SLOT_POINTS0 (SLOT_TURN0 + BATTLE_TURN_LIMIT_MAX + 1)
#define N_SLOTS      (SLOT_POINTS0 + BATTLE_SIM_POINTS_MAX + 1)
/* The most platforms and devices looked at; more than any real machine has. */
#define MAX_PLATFORMS 16
#define MAX_DEVICES   64
/* Bounds of the automatic launch size (games per launch). Each launch costs a start and a
 * blocking read of the counters, about a millisecond on PoCL: at least 65,536 games keep
 * that small on a CPU device with few compute units (100,000 games of reference matchup 1
 * on 2 cores: median 95 ms at 65,536 per launch, 101 ms at 16,384). */
#define PER_LAUNCH_MIN (1u << 16)
#define PER_LAUNCH_MAX (1u << 22)
/* The largest launch an explicit size may ask for: device counters are 32-bit. */
#define PER_LAUNCH_LIMIT (1u << 30)

/* One built program: the general one (every rule: battle_cl_build's, or opts.source) or one
 * specialised for plans (battle_rules_features). */
struct battle_cl_prog {
    char features[BATTLE_RULES_FEATURES_LEN]; /* its -D options; "" = the general program */
    cl_program prog;
    cl_kernel k_rng;
    cl_kernel k_count; /* NULL for opts.source */
    cl_kernel k_each;  /* NULL for opts.source */
    size_t work_group;
    uint64_t per_launch;
    uint64_t per_item;    /* games a work-item plays in a launch of per_launch games */
    uint64_t private_mem; /* CL_KERNEL_PRIVATE_MEM_SIZE of the counting kernel, bytes */
    uint64_t local_mem;   /* CL_KERNEL_LOCAL_MEM_SIZE of the counting kernel, bytes */
    int from_cache;
    double build_s; /* seconds its build, or its load from the binary cache, took */
    char cache_file[PATH_MAX];
    uint64_t used; /* the handle's tick at its latest run: the least recently used goes */
};

struct battle_cl {
    struct battle_cl_device dev;
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    /* How programs are built, from the opening's options (take_opts): fixed afterwards, so
     * battle_cl_compile may read them beside a run. */
    char dir[PATH_MAX]; /* the binary cache folder; "" = none */
    uint64_t want_wg;   /* work-group size asked; 0 = the backend's choice */
    uint64_t want_per;  /* games per launch asked; 0 = the backend's choice */
    uint64_t want_item; /* games per work-item asked; 0 = the backend's choice */
    int specialise;     /* plans play on programs of their own (battle_cl_key_of) */
    int custom;         /* the general program was built from opts.source: no battles */
    /* The programs built: the general one (never evicted) and the specialised ones. */
    struct battle_cl_prog *progs[BATTLE_CL_PROGRAMS_MAX];
    int n_progs;
    struct battle_cl_prog *last; /* the program of the latest run (battle_cl_describe) */
    uint64_t tick;
    cl_mem counts;   /* N_SLOTS words, zeroed before each launch */
    cl_mem plan_buf; /* the plan data last uploaded ... */
    void *plan_copy; /* ... and a host copy of it, to tell whether the next plan differs */
};

/* ===== Errors ===== */

static const char *cl_status_name(cl_int st)
{
    switch (st) {
    case CL_SUCCESS:
        return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND:
        return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE:
        return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE:
        return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
        return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES:
        return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY:
        return "CL_OUT_OF_HOST_MEMORY";
    case CL_BUILD_PROGRAM_FAILURE:
        return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE:
        return "CL_INVALID_VALUE";
    case CL_INVALID_PLATFORM:
        return "CL_INVALID_PLATFORM";
    case CL_INVALID_DEVICE:
        return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT:
        return "CL_INVALID_CONTEXT";
    case CL_INVALID_COMMAND_QUEUE:
        return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_MEM_OBJECT:
        return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_BINARY:
        return "CL_INVALID_BINARY";
    case CL_INVALID_BUILD_OPTIONS:
        return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_PROGRAM:
        return "CL_INVALID_PROGRAM";
    case CL_INVALID_PROGRAM_EXECUTABLE:
        return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_NAME:
        return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL:
        return "CL_INVALID_KERNEL";
    case CL_INVALID_ARG_INDEX:
        return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE:
        return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE:
        return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS:
        return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION:
        return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE:
        return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE:
        return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_OFFSET:
        return "CL_INVALID_GLOBAL_OFFSET";
    case CL_INVALID_BUFFER_SIZE:
        return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_GLOBAL_WORK_SIZE:
        return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_OPERATION:
        return "CL_INVALID_OPERATION";
    case -1001:
        return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
        return "unknown OpenCL status";
    }
}

/* Writes "call: NAME (code)" into err; returns SK_EIO for the caller to return. */
static enum sk_err cl_fail(char *err, size_t errlen, const char *call, cl_int st)
{
    if (errlen)
        snprintf(err, errlen, "%s: %s (%d)", call, cl_status_name(st), (int)st);
    return SK_EIO;
}

__attribute__((format(printf, 3, 4))) static void set_err(char *err, size_t errlen, const char *fmt,
                                                          ...)
{
    va_list ap;
    if (!errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ===== Discovery ===== */

/* The platform and device queries differ only in the object they take: d == NULL asks
 * platform p, anything else asks device d. */
static cl_int get_info(cl_platform_id p, cl_device_id d, cl_uint what, size_t len, void *buf,
                       size_t *got)
{
    if (d)
        return clGetDeviceInfo(d, what, len, buf, got);
    return clGetPlatformInfo(p, what, len, buf, got);
}

/* Copies a string property of platform p (d == NULL) or device d into buf (always
 * NUL-terminated, truncated to fit). */
static cl_int info_str(cl_platform_id p, cl_device_id d, cl_uint what, char *buf, size_t len)
{
    size_t got = 0;
    cl_int st = get_info(p, d, what, len - 1, buf, &got);
    if (st == CL_INVALID_VALUE) { /* longer than buf: fetch whole, keep the start */
        char *tmp = NULL;
        st = get_info(p, d, what, 0, NULL, &got);
        if (st != CL_SUCCESS)
            return st;
        tmp = sk_malloc(got + 1);
        if (!tmp)
            return CL_OUT_OF_HOST_MEMORY;
        st = get_info(p, d, what, got, tmp, NULL);
        tmp[got] = '\0';
        snprintf(buf, len, "%s", tmp);
        sk_free(tmp);
        return st;
    }
    buf[st == CL_SUCCESS && got < len ? got : 0] = '\0';
    return st;
}

/* Fills *dev from the OpenCL queries of (p, d). */
static enum sk_err describe_device(cl_platform_id p, cl_device_id d, int index,
                                   struct battle_cl_device *dev, char *err, size_t errlen)
{
    cl_device_type type = 0;
    cl_uint cu = 0;
    cl_ulong mem = 0;
    cl_int st;

    memset(dev, 0, sizeof(*dev));
    dev->index = index;
    st = info_str(p, NULL, CL_PLATFORM_NAME, dev->platform, sizeof(dev->platform));
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetPlatformInfo(CL_PLATFORM_NAME)", st);
    st = info_str(p, d, CL_DEVICE_NAME, dev->name, sizeof(dev->name));
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetDeviceInfo(CL_DEVICE_NAME)", st);
    st = info_str(p, d, CL_DEVICE_VERSION, dev->version, sizeof(dev->version));
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetDeviceInfo(CL_DEVICE_VERSION)", st);
    st = info_str(p, d, CL_DRIVER_VERSION, dev->driver, sizeof(dev->driver));
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetDeviceInfo(CL_DRIVER_VERSION)", st);
    st = clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetDeviceInfo(CL_DEVICE_TYPE)", st);
    st = clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cu), &cu, NULL);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetDeviceInfo(CL_DEVICE_MAX_COMPUTE_UNITS)", st);
    st = clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(mem), &mem, NULL);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetDeviceInfo(CL_DEVICE_GLOBAL_MEM_SIZE)", st);
    dev->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    dev->compute_units = cu;
    dev->global_mem = mem;
    return SK_OK;
}

/*
 * Enumerates every device: fills up to MAX_DEVICES entries of devs/plats/ids (each may be
 * NULL) and sets *n. No platform is *n = 0.
 */
static enum sk_err enumerate(struct battle_cl_device *devs, cl_platform_id *plats,
                             cl_device_id *ids, size_t *n, char *err, size_t errlen)
{
    cl_platform_id p[MAX_PLATFORMS];
    cl_uint np = 0;
    size_t total = 0;
    cl_int st = clGetPlatformIDs(MAX_PLATFORMS, p, &np);

    if (st == -1001 /* CL_PLATFORM_NOT_FOUND_KHR: the ICD loader found no driver */) {
        *n = 0;
        return SK_OK;
    }
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetPlatformIDs", st);
    if (np > MAX_PLATFORMS)
        np = MAX_PLATFORMS;
    for (cl_uint i = 0; i < np && total < MAX_DEVICES; i++) {
        cl_device_id d[MAX_DEVICES];
        cl_uint nd = 0;
        st = clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, MAX_DEVICES, d, &nd);
        if (st == CL_DEVICE_NOT_FOUND)
            continue;
        if (st != CL_SUCCESS)
            return cl_fail(err, errlen, "clGetDeviceIDs", st);
        if (nd > MAX_DEVICES)
            nd = MAX_DEVICES;
        for (cl_uint j = 0; j < nd && total < MAX_DEVICES; j++, total++) {
            if (devs) {
                enum sk_err e = describe_device(p[i], d[j], (int)total, &devs[total], err, errlen);
                if (e)
                    return e;
            }
            if (plats)
                plats[total] = p[i];
            if (ids)
                ids[total] = d[j];
        }
    }
    *n = total;
    return SK_OK;
}

enum sk_err battle_cl_devices(struct battle_cl_device **out, size_t *n, char *err, size_t errlen)
{
    struct battle_cl_device *devs = sk_calloc(MAX_DEVICES, sizeof(*devs));
    size_t count = 0;
    enum sk_err e;

    if (!devs)
        return SK_ENOMEM;
    e = enumerate(devs, NULL, NULL, &count, err, errlen);
    if (e) {
        sk_free(devs);
        return e;
    }
    if (count == 0) {
        sk_free(devs);
        devs = NULL;
    }
    *out = devs;
    *n = count;
    return SK_OK;
}

/* ===== Selection ===== */

int battle_cl_spec_is_cpu(const char *spec)
{
    return spec && strcasecmp(spec, "cpu") == 0;
}

/* Case-insensitive substring search. */
static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return n == 0;
}

enum sk_err battle_cl_pick(const struct battle_cl_device *devs, size_t n, const char *spec,
                           size_t *idx, char *err, size_t errlen)
{
    int digits = spec && *spec;

    if (battle_cl_spec_is_cpu(spec)) {
        set_err(err, errlen, "\"cpu\" selects the CPU backend, not an OpenCL device");
        return SK_EINVAL;
    }
    if (n == 0) {
        set_err(err, errlen, "no OpenCL device found");
        return SK_ENOTFOUND;
    }
    if (!spec || !*spec) {
        for (size_t i = 0; i < n; i++) {
            if (devs[i].is_gpu) {
                *idx = i;
                return SK_OK;
            }
        }
        /* An OpenCL CPU device (PoCL) played real-card jobs 1.5x slower than the CPU
         * backend in 16 of 18 pairs (bench/RESULTS.md): it is used only when named. */
        set_err(err, errlen, "no GPU among the %zu OpenCL device%s (name one to use it)", n,
                n == 1 ? "" : "s");
        return SK_ENOTFOUND;
    }
    for (const char *c = spec; *c; c++)
        digits &= isdigit((unsigned char)*c) != 0;
    if (digits) {
        char *end = NULL;
        unsigned long v;
        errno = 0;
        v = strtoul(spec, &end, 10);
        if (errno == 0 && v < n) {
            *idx = (size_t)v;
            return SK_OK;
        }
        set_err(err, errlen, "no OpenCL device with index %s (found %zu)", spec, n);
        return SK_ENOTFOUND;
    }
    for (size_t i = 0; i < n; i++) {
        if (contains_nocase(devs[i].name, spec) || contains_nocase(devs[i].platform, spec)) {
            *idx = i;
            return SK_OK;
        }
    }
    set_err(err, errlen, "no OpenCL device matches \"%s\"", spec);
    return SK_ENOTFOUND;
}

/* ===== Program-binary cache ===== */

/* The cache folder per the contract of battle_cl_opts.cache_dir; "" when there is none. */
static void cache_dir_of(const char *opt, char *buf, size_t len)
{
    const char *env = getenv(BATTLE_CL_ENV_CACHE);
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");

    buf[0] = '\0';
    if (opt)
        snprintf(buf, len, "%s", opt);
    else if (env && *env)
        snprintf(buf, len, "%s", env);
    else if (xdg && *xdg)
        snprintf(buf, len, "%s/skirmish", xdg);
    else if (home && *home)
        snprintf(buf, len, "%s/.cache/skirmish", home);
}

/* mkdir -p; EEXIST is fine. Returns 0 on success. */
static int make_dirs(const char *path)
{
    char tmp[PATH_MAX];
    size_t len = strlen(path);

    if (len == 0 || len >= sizeof(tmp))
        return -1;
    memcpy(tmp, path, len + 1);
    for (char *c = tmp + 1; *c; c++) {
        if (*c == '/') {
            *c = '\0';
            if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
                return -1;
            *c = '/';
        }
    }
    if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* Reads a whole file; on success *data is new (sk_free) and 0 is returned. */
static int read_file(const char *path, unsigned char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long size;
    int rc = -1;

    if (!f)
        return -1;
    if (fseek(f, 0, SEEK_END) != 0)
        goto out;
    size = ftell(f);
    if (size <= 0 || fseek(f, 0, SEEK_SET) != 0)
        goto out;
    buf = sk_malloc((size_t)size);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size)
        goto out;
    *data = buf;
    *len = (size_t)size;
    buf = NULL;
    rc = 0;
out:
    sk_free(buf);
    (void)fclose(f); /* read only: nothing is lost if closing fails */
    return rc;
}

/* Writes data to path atomically (temporary file, then rename). Returns 0 on success. */
static int write_file(const char *path, const unsigned char *data, size_t len)
{
    char tmp[PATH_MAX];
    int fd;
    size_t done = 0;

    if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
        return -1;
    fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    if (close(fd) != 0 || done != len || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* ===== Build ===== */

/* Copies "clBuildProgram: STATUS (n): <log>" into err. */
static enum sk_err build_fail(const struct battle_cl *cl, cl_program prog, cl_int st, char *err,
                              size_t errlen)
{
    size_t log_len = 0;
    char *log = NULL;
    cl_int lst = clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len);

    if (lst == CL_SUCCESS && log_len > 0)
        log = sk_malloc(log_len + 1);
    if (log) {
        lst = clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, log_len, log, NULL);
        log[lst == CL_SUCCESS ? log_len : 0] = '\0';
    }
    set_err(err, errlen, "clBuildProgram: %s (%d) on \"%s\": %s", cl_status_name(st), (int)st,
            cl->dev.name, log && *log ? log : "(no build log)");
    sk_free(log);
    return SK_EIO;
}

/* Builds from the cache entry `path` with `options`; 0 and *out on success, -1 when
 * unusable. */
static int build_from_cache(const struct battle_cl *cl, const char *path, const char *options,
                            cl_program *out)
{
    unsigned char *bin = NULL;
    size_t len = 0;
    cl_int st, bst = CL_SUCCESS;
    cl_program prog = NULL;
    const unsigned char *bins[1];

    if (read_file(path, &bin, &len) != 0)
        return -1;
    bins[0] = bin;
    prog = clCreateProgramWithBinary(cl->ctx, 1, &cl->device, &len, bins, &bst, &st);
    sk_free(bin);
    if (st != CL_SUCCESS || bst != CL_SUCCESS) {
        if (prog)
            clReleaseProgram(prog);
        return -1;
    }
    st = clBuildProgram(prog, 1, &cl->device, options, NULL, NULL);
    if (st != CL_SUCCESS) {
        clReleaseProgram(prog);
        return -1;
    }
    *out = prog;
    return 0;
}

/* Stores the binary of `prog` at `path`; failures only mean no cache next time. */
static int save_to_cache(const struct battle_cl *cl, cl_program prog, const char *path)
{
    size_t size = 0;
    unsigned char *bin = NULL;
    unsigned char *bins[1];
    int rc = -1;
    cl_int st = clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL);

    if (st != CL_SUCCESS || size == 0 || make_dirs(cl->dir) != 0)
        return -1;
    bin = sk_malloc(size);
    if (!bin)
        return -1;
    bins[0] = bin;
    st = clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof(bins), bins, NULL);
    if (st == CL_SUCCESS)
        rc = write_file(path, bin, size);
    sk_free(bin);
    return rc;
}

/* The binary cache entry of `src` built with `options` for cl's device, into path ("" when
 * the handle has no cache folder). The device key includes the platform version and
 * driver: a driver update must not load binaries built by the previous one. */
static enum sk_err cache_path(const struct battle_cl *cl, const char *src, size_t len,
                              const char *options, char *path, size_t pathlen, char *err,
                              size_t errlen)
{
    uint64_t hsrc = SK_FNV1A_INIT, hdev = SK_FNV1A_INIT;
    char ver[256];
    cl_int st;

    path[0] = '\0';
    if (!cl->dir[0])
        return SK_OK;
    st = info_str(cl->platform, NULL, CL_PLATFORM_VERSION, ver, sizeof(ver));
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetPlatformInfo(CL_PLATFORM_VERSION)", st);
    hdev = sk_fnv1a(hdev, cl->dev.platform, strlen(cl->dev.platform) + 1);
    hdev = sk_fnv1a(hdev, ver, strlen(ver) + 1);
    hdev = sk_fnv1a(hdev, cl->dev.name, strlen(cl->dev.name) + 1);
    hdev = sk_fnv1a(hdev, cl->dev.version, strlen(cl->dev.version) + 1);
    hdev = sk_fnv1a(hdev, cl->dev.driver, strlen(cl->dev.driver) + 1);
    hsrc = sk_fnv1a(hsrc, options, strlen(options) + 1);
    hsrc = sk_fnv1a(hsrc, src, len);
    if (snprintf(path, pathlen, "%s/%016llx-%016llx.bin", cl->dir, (unsigned long long)hdev,
                 (unsigned long long)hsrc) >= (int)pathlen)
        path[0] = '\0';
    return SK_OK;
}

/* What the program of these features is, for the log lines. */
static const char *prog_kind(const char *features)
{
    if (!features[0])
        return "general";
    return strcmp(features, RNG_ONLY) == 0 ? "self-check" : "specialised";
}

/* Builds `src` with `options` for cl's device into *out, through the binary cache; with
 * `cached_only`, SK_ENOTFOUND when the cache has no usable entry (nothing is compiled). Reads
 * only what the handle fixed at its opening: may run beside a run on the handle. */
static enum sk_err build_program(const struct battle_cl *cl, const char *src, size_t len,
                                 const char *options, int cached_only, struct battle_cl_prog *out,
                                 char *err, size_t errlen)
{
    cl_program prog = NULL;
    cl_int st;
    char path[PATH_MAX], qpath[PATH_MAX + 8], qdev[300], qfeat[BATTLE_RULES_FEATURES_LEN + 8];
    const char *kind = prog_kind(out->features);
    enum sk_err e;

    e = cache_path(cl, src, len, options, path, sizeof(path), err, errlen);
    if (e)
        return e;
    if (*path && build_from_cache(cl, path, options, &prog) == 0) {
        out->prog = prog;
        out->from_cache = 1;
        snprintf(out->cache_file, sizeof(out->cache_file), "%s", path);
        return SK_OK;
    }
    if (cached_only)
        return SK_ENOTFOUND;
    /* Said before and after, because the first build on a GPU driver is slow (NVIDIA's of
     * the general program took six minutes on an H200: bench/RESULTS.md) and the cache
     * folder is what an operator keeps to skip it next time. */
    sk_log_info("event=opencl_build device=%s program=%s features=%s cache=%s",
                sk_log_quote(qdev, sizeof(qdev), cl->dev.name), kind,
                sk_log_quote(qfeat, sizeof(qfeat), out->features),
                sk_log_quote(qpath, sizeof(qpath), *path ? path : "none"));
    prog = clCreateProgramWithSource(cl->ctx, 1, &src, &len, &st);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clCreateProgramWithSource", st);
    st = clBuildProgram(prog, 1, &cl->device, options, NULL, NULL);
    if (st != CL_SUCCESS) {
        e = build_fail(cl, prog, st, err, errlen);
        clReleaseProgram(prog);
        return e;
    }
    out->prog = prog;
    if (*path && save_to_cache(cl, prog, path) == 0)
        snprintf(out->cache_file, sizeof(out->cache_file), "%s", path);
    return SK_OK;
}

/* ===== Programs ===== */

static const struct kernels_src *embedded(const char *name)
{
    for (const struct kernels_src *s = kernels_src_all(); s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

static enum sk_err make_kernel(cl_program prog, const char *name, cl_kernel *out, char *err,
                               size_t errlen)
{
    cl_int st;
    cl_kernel k = clCreateKernel(prog, name, &st);
    if (st != CL_SUCCESS) {
        set_err(err, errlen, "clCreateKernel(\"%s\"): %s (%d)", name, cl_status_name(st), (int)st);
        return SK_EIO;
    }
    *out = k;
    return SK_OK;
}

/* A size from environment variable `name` into *out, which keeps its value when the variable
 * is unset, empty or "0" (the backend's choice); `max` bounds it. */
static enum sk_err env_size(const char *name, uint64_t max, uint64_t *out, char *err, size_t errlen)
{
    const char *v = getenv(name);
    uint64_t n;
    if (!v || !*v || strcmp(v, "0") == 0)
        return SK_OK;
    if (sk_parse_u64(v, 1, max, &n) != SK_OK) {
        set_err(err, errlen, "%s must be 0 (the backend's choice) or 1..%llu, not '%s'", name,
                (unsigned long long)max, v);
        return SK_EINVAL;
    }
    *out = n;
    return SK_OK;
}

/* Work-group size, games per launch and games per work-item of program `p` for its kernel
 * `k`, from what the handle was asked (opts, else the environment), else the device. */
static enum sk_err choose_sizes(const struct battle_cl *cl, struct battle_cl_prog *p, cl_kernel k,
                                char *err, size_t errlen)
{
    size_t kmax = 0, mult = 0, wg;
    uint64_t per, item;
    cl_int st;

    st = clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kmax), &kmax,
                                  NULL);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)", st);
    st = clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                  sizeof(mult), &mult, NULL);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetKernelWorkGroupInfo(PREFERRED_WORK_GROUP_SIZE_MULTIPLE)",
                       st);
    if (cl->want_wg) {
        if (cl->want_wg > kmax) {
            set_err(err, errlen, "work-group size %llu exceeds the kernel's limit %zu on \"%s\"",
                    (unsigned long long)cl->want_wg, kmax, cl->dev.name);
            return SK_EINVAL;
        }
        wg = (size_t)cl->want_wg;
    } else {
        /* 64 keeps a GPU wavefront or warp full and gives PoCL enough work-items per group
         * to vectorise, while the per-group counters stay cheap to merge. */
        wg = kmax < 64 ? kmax : 64;
        if (mult > 1 && wg > mult)
            wg -= wg % mult;
    }
    if (wg == 0)
        wg = 1;
    item = cl->want_item ? cl->want_item : cl->dev.is_gpu ? BATTLE_CL_PER_ITEM_DEFAULT : 1;
    if (cl->want_per) {
        per = cl->want_per;
    } else {
        /* 32 groups a compute unit (2,048 work-items at 64 a group: what an NVIDIA SM holds
         * at most, and 80% of an AMD CU's 2,560) so that every unit is full whatever the
         * kernel's registers allow, each work-item playing `item` games; small enough that
         * one launch returns within a fraction of a second for progress and cancellation. */
        per = (uint64_t)cl->dev.compute_units * wg * 32 * item;
        if (per < PER_LAUNCH_MIN)
            per = PER_LAUNCH_MIN;
        if (per > PER_LAUNCH_MAX)
            per = PER_LAUNCH_MAX;
    }
    if (per > PER_LAUNCH_LIMIT) /* the device counters are 32-bit */
        per = PER_LAUNCH_LIMIT;
    per = (per + wg - 1) / wg * wg;
    p->work_group = wg;
    p->per_launch = per;
    p->per_item = item;
    return SK_OK;
}

/* The private and local memory the driver gives one work-item of kernel `k` (issue 49:
 * occupancy, not arithmetic, sets a GPU's speed, and a game's private state spills past
 * the registers), for battle_cl_describe and so the result and cl_bench. */
static enum sk_err kernel_memory(const struct battle_cl *cl, struct battle_cl_prog *p, cl_kernel k,
                                 char *err, size_t errlen)
{
    cl_ulong priv = 0, local = 0;
    cl_int st;

    st = clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(priv), &priv,
                                  NULL);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetKernelWorkGroupInfo(CL_KERNEL_PRIVATE_MEM_SIZE)", st);
    st = clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(local), &local,
                                  NULL);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clGetKernelWorkGroupInfo(CL_KERNEL_LOCAL_MEM_SIZE)", st);
    p->private_mem = priv;
    p->local_mem = local;
    return SK_OK;
}

void battle_cl_prog_free(struct battle_cl_prog *p)
{
    if (!p)
        return;
    if (p->k_rng)
        clReleaseKernel(p->k_rng);
    if (p->k_count)
        clReleaseKernel(p->k_count);
    if (p->k_each)
        clReleaseKernel(p->k_each);
    if (p->prog)
        clReleaseProgram(p->prog);
    sk_free(p);
}

/* Builds a program: `source` (NULL = the embedded "battle" source) with the features'
 * constants, its kernels (rng_words always, the battle kernels for the embedded source),
 * its sizes and memory figures. See battle_cl_compile for `cached_only`. */
static enum sk_err prog_new(const struct battle_cl *cl, const char *source, const char *features,
                            int cached_only, struct battle_cl_prog **out, char *err, size_t errlen)
{
    struct battle_cl_prog *p = NULL;
    const char *src;
    size_t src_len;
    char options[sizeof(BUILD_OPTIONS) + BATTLE_RULES_FEATURES_LEN + 1];
    double t0 = sk_time_mono_s();
    char qdev[300];
    int battle; /* the battle kernels too: not a test source, not the self-check's */
    enum sk_err e;

    if (source) {
        src = source;
        src_len = strlen(src);
    } else {
        const struct kernels_src *k = embedded("battle");
        if (!k) {
            set_err(err, errlen, "kernel source \"battle\" is not embedded in this build");
            return SK_EINTERNAL;
        }
        src = k->text;
        src_len = k->len;
    }
    p = sk_calloc(1, sizeof(*p));
    if (!p)
        return SK_ENOMEM;
    snprintf(p->features, sizeof(p->features), "%s", features);
    snprintf(options, sizeof(options), "%s%s%s", BUILD_OPTIONS, *features ? " " : "", features);
    e = build_program(cl, src, src_len, options, cached_only, p, err, errlen);
    if (e)
        goto out;
    e = make_kernel(p->prog, "rng_words", &p->k_rng, err, errlen);
    battle = !source && strcmp(features, RNG_ONLY) != 0;
    if (!e && battle)
        e = make_kernel(p->prog, "battle_count", &p->k_count, err, errlen);
    if (!e && battle)
        e = make_kernel(p->prog, "battle_each", &p->k_each, err, errlen);
    if (!e)
        e = choose_sizes(cl, p, p->k_count ? p->k_count : p->k_rng, err, errlen);
    if (!e)
        e = kernel_memory(cl, p, p->k_count ? p->k_count : p->k_rng, err, errlen);
    if (e)
        goto out;
    p->build_s = sk_time_mono_s() - t0;
    if (!p->from_cache)
        sk_log_info("event=opencl_built device=%s program=%s seconds=%.1f cached=%s "
                    "private_mem=%llu",
                    sk_log_quote(qdev, sizeof(qdev), cl->dev.name), prog_kind(features), p->build_s,
                    p->cache_file[0] ? "yes" : "no", (unsigned long long)p->private_mem);
    *out = p;
    p = NULL;
out:
    battle_cl_prog_free(p);
    return e;
}

/* The handle's program with these features, or NULL. */
static struct battle_cl_prog *find_prog(const struct battle_cl *cl, const char *features)
{
    for (int i = 0; i < cl->n_progs; i++)
        if (strcmp(cl->progs[i]->features, features) == 0)
            return cl->progs[i];
    return NULL;
}

/* The general program and the latest run's are kept: room for more than them. */
_Static_assert(BATTLE_CL_PROGRAMS_MAX >= 3, "programs a handle keeps");

void battle_cl_adopt(struct battle_cl *cl, struct battle_cl_prog *p)
{
    int victim = -1;

    if (find_prog(cl, p->features)) { /* built twice: keep the one in use */
        battle_cl_prog_free(p);
        return;
    }
    if (cl->n_progs == BATTLE_CL_PROGRAMS_MAX) {
        /* The least recently used specialised program goes; the general one and the
         * latest run's stay (battle_cl_describe reads the latter). */
        for (int i = 0; i < cl->n_progs; i++) {
            const struct battle_cl_prog *q = cl->progs[i];
            if (!q->features[0] || q == cl->last)
                continue;
            if (victim < 0 || q->used < cl->progs[victim]->used)
                victim = i;
        }
        /* BATTLE_CL_PROGRAMS_MAX is well above the two kept, so one is found; were it not,
         * the first specialised program would go (the handle forgets its latest run). */
        for (int i = 0; victim < 0 && i < cl->n_progs; i++)
            if (cl->progs[i]->features[0])
                victim = i;
        if (cl->progs[victim] == cl->last)
            cl->last = NULL;
        battle_cl_prog_free(cl->progs[victim]);
        cl->progs[victim] = cl->progs[--cl->n_progs];
    }
    cl->progs[cl->n_progs++] = p;
}

void battle_cl_key_of(const struct battle_cl *cl, const struct battle_plan *plan,
                      struct battle_cl_key *key)
{
    key->features[0] = '\0';
    if (cl->specialise && !battle_plan_lazy(plan))
        battle_rules_features(battle_plan_data(plan), key->features, sizeof(key->features));
}

int battle_cl_loaded(struct battle_cl *cl, const struct battle_cl_key *key, int from_cache)
{
    struct battle_cl_prog *p = NULL;
    char err[64];

    if (find_prog(cl, key->features))
        return 1;
    if (!from_cache || prog_new(cl, NULL, key->features, 1, &p, err, sizeof(err)) != SK_OK)
        return 0;
    battle_cl_adopt(cl, p);
    return 1;
}

enum sk_err battle_cl_compile(const struct battle_cl *cl, const struct battle_cl_key *key,
                              struct battle_cl_prog **out, char *err, size_t errlen)
{
    return prog_new(cl, NULL, key->features, 0, out, err, errlen);
}

/* The program the games of `plan` play on (the handle's choice: its own, or the general
 * one), built now if the handle has none yet; *out is borrowed from the handle. */
static enum sk_err prog_for(struct battle_cl *cl, const struct battle_plan *plan,
                            struct battle_cl_prog **out, char *err, size_t errlen)
{
    struct battle_cl_key key;
    struct battle_cl_prog *p;
    enum sk_err e;

    if (cl->custom) {
        set_err(err, errlen, "this program has no battle kernel");
        return SK_EINVAL;
    }
    battle_cl_key_of(cl, plan, &key);
    p = find_prog(cl, key.features);
    if (!p) {
        e = battle_cl_compile(cl, &key, &p, err, errlen);
        if (e)
            return e;
        battle_cl_adopt(cl, p);
    }
    if (!p->k_count) {
        set_err(err, errlen, "this program has no battle kernel");
        return SK_EINVAL;
    }
    p->used = ++cl->tick;
    cl->last = p;
    *out = p;
    return SK_OK;
}

enum sk_err battle_cl_prepare(struct battle_cl *cl, const struct battle_plan *plan, char *err,
                              size_t errlen)
{
    struct battle_cl_prog *p = NULL;
    return prog_for(cl, plan, &p, err, errlen);
}

/* ===== Open and close ===== */

/* Enumerates the devices and copies the one `spec` selects (SKIRMISH_DEVICE syntax) into
 * cl->dev, cl->platform and cl->device. */
static enum sk_err select_device(struct battle_cl *cl, const char *spec, char *err, size_t errlen)
{
    struct battle_cl_device *devs = NULL;
    cl_platform_id *plats = NULL;
    cl_device_id *ids = NULL;
    size_t n = 0, idx = 0;
    enum sk_err e;

    devs = sk_calloc(MAX_DEVICES, sizeof(*devs));
    /* NOLINTNEXTLINE(bugprone-sizeof-expression): OpenCL handles are pointers by design */
    plats = sk_calloc(MAX_DEVICES, sizeof(*plats));
    /* NOLINTNEXTLINE(bugprone-sizeof-expression): OpenCL handles are pointers by design */
    ids = sk_calloc(MAX_DEVICES, sizeof(*ids));
    if (!devs || !plats || !ids) {
        e = SK_ENOMEM;
        goto out;
    }
    e = enumerate(devs, plats, ids, &n, err, errlen);
    if (e)
        goto out;
    e = battle_cl_pick(devs, n, spec, &idx, err, errlen);
    if (e)
        goto out;
    cl->dev = devs[idx];
    cl->platform = plats[idx];
    cl->device = ids[idx];
out:
    sk_free(devs);
    sk_free(plats);
    sk_free(ids);
    return e;
}

/* How the handle builds its programs, from `opts`, else the environment: the cache folder,
 * the sizes asked, whether plans get programs of their own. */
static enum sk_err take_opts(struct battle_cl *cl, const struct battle_cl_opts *opts, char *err,
                             size_t errlen)
{
    const char *spec = getenv(BATTLE_CL_ENV_SPECIALISE);
    enum sk_err e;

    cache_dir_of(opts->cache_dir, cl->dir, sizeof(cl->dir));
    cl->want_wg = opts->work_group;
    cl->want_per = opts->per_launch;
    if (!cl->want_wg && (e = env_size(BATTLE_CL_ENV_WORK_GROUP, 1024, &cl->want_wg, err, errlen)))
        return e;
    if (!cl->want_per &&
        (e = env_size(BATTLE_CL_ENV_PER_LAUNCH, PER_LAUNCH_LIMIT, &cl->want_per, err, errlen)))
        return e;
    cl->want_item = opts->per_item;
    if (cl->want_item > BATTLE_CL_PER_ITEM_MAX) {
        set_err(err, errlen, "games per work-item must be 1..%d, not %llu", BATTLE_CL_PER_ITEM_MAX,
                (unsigned long long)cl->want_item);
        return SK_EINVAL;
    }
    if (!cl->want_item &&
        (e = env_size(BATTLE_CL_ENV_PER_ITEM, BATTLE_CL_PER_ITEM_MAX, &cl->want_item, err, errlen)))
        return e;
    if (opts->general) {
        cl->specialise = 0;
    } else if (!spec || !*spec || strcmp(spec, "1") == 0) {
        cl->specialise = 1;
    } else if (strcmp(spec, "0") == 0) {
        cl->specialise = 0;
    } else {
        set_err(err, errlen,
                "%s must be 1 (a program per plan) or 0 (the general program), not '%s'",
                BATTLE_CL_ENV_SPECIALISE, spec);
        return SK_EINVAL;
    }
    return SK_OK;
}

enum sk_err battle_cl_open(const struct battle_cl_opts *opts, struct battle_cl **out, char *err,
                           size_t errlen)
{
    static const struct battle_cl_opts defaults;
    struct battle_cl *cl = NULL;
    cl_int st;
    enum sk_err e;

    if (!opts)
        opts = &defaults;
    cl = sk_calloc(1, sizeof(*cl));
    if (!cl)
        return SK_ENOMEM;
    e = select_device(cl, opts->device ? opts->device : getenv(BATTLE_CL_ENV_DEVICE), err, errlen);
    if (!e)
        e = take_opts(cl, opts, err, errlen);
    if (e)
        goto out;

    {
        cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)cl->platform,
                                         0};
        cl->ctx = clCreateContext(props, 1, &cl->device, NULL, NULL, &st);
        if (st != CL_SUCCESS) {
            e = cl_fail(err, errlen, "clCreateContext", st);
            goto out;
        }
    }
    cl->queue = clCreateCommandQueue(cl->ctx, cl->device, 0, &st);
    if (st != CL_SUCCESS) {
        e = cl_fail(err, errlen, "clCreateCommandQueue", st);
        goto out;
    }
    cl->counts = clCreateBuffer(cl->ctx, CL_MEM_READ_WRITE, N_SLOTS * sizeof(cl_uint), NULL, &st);
    if (st != CL_SUCCESS) {
        e = cl_fail(err, errlen, "clCreateBuffer(counts)", st);
        goto out;
    }

    *out = cl;
    cl = NULL;
out:
    battle_cl_free(cl);
    return e;
}

enum sk_err battle_cl_build(struct battle_cl *cl, const struct battle_cl_opts *opts, char *err,
                            size_t errlen)
{
    static const struct battle_cl_opts defaults;
    struct battle_cl_prog *p = NULL, *old;
    enum sk_err e;

    if (!opts)
        opts = &defaults;
    e = take_opts(cl, opts, err, errlen);
    if (e)
        return e;
    e = prog_new(cl, opts->source, "", 0, &p, err, errlen);
    if (e)
        return e;
    cl->custom = opts->source != NULL;
    /* A second build (another source, other sizes) replaces the general program. */
    old = find_prog(cl, "");
    if (old) {
        if (cl->last == old)
            cl->last = NULL;
        for (int i = 0; i < cl->n_progs; i++)
            if (cl->progs[i] == old)
                cl->progs[i] = cl->progs[--cl->n_progs];
        battle_cl_prog_free(old);
    }
    battle_cl_adopt(cl, p);
    return SK_OK;
}

enum sk_err battle_cl_new(const struct battle_cl_opts *opts, struct battle_cl **out, char *err,
                          size_t errlen)
{
    struct battle_cl *cl = NULL;
    enum sk_err e;

    e = battle_cl_open(opts, &cl, err, errlen);
    if (e)
        return e;
    e = battle_cl_build(cl, opts, err, errlen);
    if (e) {
        battle_cl_free(cl);
        return e;
    }
    *out = cl;
    return SK_OK;
}

void battle_cl_free(struct battle_cl *cl)
{
    if (!cl)
        return;
    for (int i = 0; i < cl->n_progs; i++)
        battle_cl_prog_free(cl->progs[i]);
    if (cl->counts)
        clReleaseMemObject(cl->counts);
    if (cl->plan_buf)
        clReleaseMemObject(cl->plan_buf);
    sk_free(cl->plan_copy);
    if (cl->queue)
        clReleaseCommandQueue(cl->queue);
    if (cl->ctx)
        clReleaseContext(cl->ctx);
    sk_free(cl);
}

void battle_cl_describe(const struct battle_cl *cl, struct battle_cl_info *info)
{
    const struct battle_cl_prog *p = cl->last ? cl->last : find_prog(cl, "");

    memset(info, 0, sizeof(*info));
    info->platform = cl->dev.platform;
    info->device = cl->dev.name;
    info->device_index = cl->dev.index;
    info->cache_file = "";
    info->features = "";
    info->programs = cl->n_progs;
    if (!p)
        return;
    info->work_group = p->work_group;
    info->per_launch = p->per_launch;
    info->per_item = p->per_item;
    info->from_cache = p->from_cache;
    info->cache_file = p->cache_file;
    info->private_mem = p->private_mem;
    info->local_mem = p->local_mem;
    info->features = p->features;
    info->specialised = p->features[0] != '\0';
    info->build_s = p->build_s;
}

/* ===== Random-stream self-check ===== */

enum sk_err battle_cl_rng_words(struct battle_cl *cl, uint64_t seed, uint64_t first, uint32_t n,
                                uint32_t words, uint32_t *out, char *err, size_t errlen)
{
    size_t bytes = (size_t)n * words * sizeof(cl_uint);
    cl_mem buf = NULL;
    cl_ulong s = seed, f = first;
    cl_uint w = words, cnt = n;
    size_t global;
    cl_int st;
    enum sk_err e = SK_OK;
    struct battle_cl_prog *k;
    cl_kernel kr;

    if (n == 0 || words == 0)
        return SK_OK;
    /* Every program has rng_words: the general one's, else a program of it alone (built in
     * a second), built now if the handle has neither. */
    k = find_prog(cl, "");
    if (!k)
        k = find_prog(cl, RNG_ONLY);
    if (!k) {
        e = prog_new(cl, NULL, RNG_ONLY, 0, &k, err, errlen);
        if (e)
            return e;
        battle_cl_adopt(cl, k);
    }
    kr = k->k_rng;
    buf = clCreateBuffer(cl->ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &st);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clCreateBuffer", st);
    st = clSetKernelArg(kr, 0, sizeof(s), &s);
    if (st == CL_SUCCESS)
        st = clSetKernelArg(kr, 1, sizeof(f), &f);
    if (st == CL_SUCCESS)
        st = clSetKernelArg(kr, 2, sizeof(w), &w);
    if (st == CL_SUCCESS)
        st = clSetKernelArg(kr, 3, sizeof(cnt), &cnt);
    if (st == CL_SUCCESS)
        /* NOLINTNEXTLINE(bugprone-sizeof-expression): OpenCL handles are pointers by design */
        st = clSetKernelArg(kr, 4, sizeof(buf), &buf);
    if (st != CL_SUCCESS) {
        e = cl_fail(err, errlen, "clSetKernelArg(rng_words)", st);
        goto out;
    }
    global = n;
    st = clEnqueueNDRangeKernel(cl->queue, kr, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (st != CL_SUCCESS) {
        e = cl_fail(err, errlen, "clEnqueueNDRangeKernel(rng_words)", st);
        goto out;
    }
    st = clEnqueueReadBuffer(cl->queue, buf, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
    if (st != CL_SUCCESS)
        e = cl_fail(err, errlen, "clEnqueueReadBuffer(rng_words)", st);
out:
    clReleaseMemObject(buf);
    return e;
}

/* ===== Battles ===== */

/* Uploads the plan's flat data unless the device already holds the same bytes. */
static enum sk_err upload_plan(struct battle_cl *cl, const struct battle_plan *plan, char *err,
                               size_t errlen)
{
    size_t size = battle_plan_data_size();
    const void *data = battle_plan_data(plan);
    cl_int st;

    /* Its variants are made as games need them, by the host (battle_mods_lazy). */
    if (battle_plan_lazy(plan)) {
        set_err(err, errlen,
                "the job's Enhance and Evolve variants are made during play, on the CPU "
                "backend only");
        return SK_EINVAL;
    }
    if (cl->plan_buf && memcmp(cl->plan_copy, data, size) == 0)
        return SK_OK;
    if (!cl->plan_copy) {
        cl->plan_copy = sk_malloc(size);
        if (!cl->plan_copy)
            return SK_ENOMEM;
    }
    if (!cl->plan_buf) {
        cl->plan_buf = clCreateBuffer(cl->ctx, CL_MEM_READ_ONLY, size, NULL, &st);
        if (st != CL_SUCCESS) {
            cl->plan_buf = NULL;
            return cl_fail(err, errlen, "clCreateBuffer(plan)", st);
        }
    }
    st = clEnqueueWriteBuffer(cl->queue, cl->plan_buf, CL_TRUE, 0, size, data, 0, NULL, NULL);
    if (st != CL_SUCCESS) {
        /* The device copy is now unknown: make the next call upload again. */
        memset(cl->plan_copy, 0, size);
        clReleaseMemObject(cl->plan_buf);
        cl->plan_buf = NULL;
        return cl_fail(err, errlen, "clEnqueueWriteBuffer(plan)", st);
    }
    memcpy(cl->plan_copy, data, size);
    return SK_OK;
}

/* Sets the four common arguments (plan, seed, first, n) of a battle kernel. */
static cl_int set_battle_args(struct battle_cl *cl, cl_kernel k, uint64_t seed, uint64_t first,
                              uint32_t n)
{
    cl_ulong s = seed, f = first;
    cl_uint cnt = n;
    cl_int st;

    /* NOLINTNEXTLINE(bugprone-sizeof-expression): OpenCL handles are pointers by design */
    st = clSetKernelArg(k, 0, sizeof(cl->plan_buf), &cl->plan_buf);
    if (st == CL_SUCCESS)
        st = clSetKernelArg(k, 1, sizeof(s), &s);
    if (st == CL_SUCCESS)
        st = clSetKernelArg(k, 2, sizeof(f), &f);
    if (st == CL_SUCCESS)
        st = clSetKernelArg(k, 3, sizeof(cnt), &cnt);
    return st;
}

/* The global size of a launch of n games on program p: n work-items, at most those of a
 * whole launch (per_launch / per_item), so that a short launch still spreads over the
 * device and a long one gives each work-item per_item games; whole groups. */
static size_t launch_items(const struct battle_cl_prog *p, uint64_t n)
{
    uint64_t most = (p->per_launch + p->per_item - 1) / p->per_item;
    uint64_t items = n < most ? n : most;
    return (size_t)((items + p->work_group - 1) / p->work_group * p->work_group);
}

/* One launch of battle_count over games [first, first + n); adds into *acc. */
static enum sk_err count_launch(struct battle_cl *cl, const struct battle_cl_prog *p, uint64_t seed,
                                uint64_t first, uint32_t n, struct battle_counts *acc, char *err,
                                size_t errlen)
{
    cl_uint slots[N_SLOTS];
    const cl_uint zero = 0;
    size_t local = p->work_group;
    size_t global = launch_items(p, n);
    uint64_t games;
    cl_int st = set_battle_args(cl, p->k_count, seed, first, n);

    if (st == CL_SUCCESS)
        /* NOLINTNEXTLINE(bugprone-sizeof-expression): OpenCL handles are pointers by design */
        st = clSetKernelArg(p->k_count, 4, sizeof(cl->counts), &cl->counts);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clSetKernelArg(battle_count)", st);
    st = clEnqueueFillBuffer(cl->queue, cl->counts, &zero, sizeof(zero), 0, sizeof(slots), 0, NULL,
                             NULL);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clEnqueueFillBuffer(counts)", st);
    st = clEnqueueNDRangeKernel(cl->queue, p->k_count, 1, NULL, &global, &local, 0, NULL, NULL);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clEnqueueNDRangeKernel(battle_count)", st);
    st =
        clEnqueueReadBuffer(cl->queue, cl->counts, CL_TRUE, 0, sizeof(slots), slots, 0, NULL, NULL);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clEnqueueReadBuffer(counts)", st);
    games = (uint64_t)slots[SLOT_WIN] + slots[SLOT_STALL] + slots[SLOT_LOSS];
    if (slots[SLOT_BAD] != 0 || games != n) {
        set_err(err, errlen,
                "battle_count on \"%s\": %u of %u games ended out of range, %llu counted",
                cl->dev.name, (unsigned)slots[SLOT_BAD], (unsigned)n, (unsigned long long)games);
        return SK_EINTERNAL;
    }
    acc->games += n;
    acc->wins += slots[SLOT_WIN];
    acc->stalls += slots[SLOT_STALL];
    acc->losses += slots[SLOT_LOSS];
    acc->bounded += slots[SLOT_BOUNDED];
    for (int t = 0; t <= BATTLE_TURN_LIMIT_MAX; t++) {
        acc->turns[t] += slots[SLOT_TURN0 + t];
        acc->turns_sum += (uint64_t)t * slots[SLOT_TURN0 + t];
    }
    for (uint64_t v = 0; v <= BATTLE_SIM_POINTS_MAX; v++) {
        acc->points_sum += v * slots[SLOT_POINTS0 + v];
        acc->points_sq += v * v * slots[SLOT_POINTS0 + v];
    }
    return SK_OK;
}

enum sk_err battle_cl_run(struct battle_cl *cl, const struct battle_plan *plan, uint64_t first,
                          uint64_t n, struct battle_counts *acc, char *err, size_t errlen)
{
    uint64_t played = 0;
    return battle_cl_run_until(cl, plan, first, n, 0, acc, &played, err, errlen);
}

enum sk_err battle_cl_run_until(struct battle_cl *cl, const struct battle_plan *plan,
                                uint64_t first, uint64_t n, int64_t deadline_ms,
                                struct battle_counts *acc, uint64_t *played, char *err,
                                size_t errlen)
{
    struct battle_counts *sum = NULL;
    struct battle_cl_prog *p = NULL;
    uint64_t seed = battle_plan_seed(plan);
    uint64_t done = 0;
    enum sk_err e;

    e = upload_plan(cl, plan, err, errlen);
    if (!e)
        e = prog_for(cl, plan, &p, err, errlen);
    if (e)
        return e;
    sum = sk_calloc(1, sizeof(*sum));
    if (!sum)
        return SK_ENOMEM;
    /* a launch is not interrupted: the deadline is looked at between launches */
    while (!e && done < n && !(done > 0 && sk_time_due(deadline_ms))) {
        uint64_t chunk = n - done < p->per_launch ? n - done : p->per_launch;
        e = count_launch(cl, p, seed, first + done, (uint32_t)chunk, sum, err, errlen);
        done += chunk;
    }
    if (!e) {
        battle_counts_add(acc, sum);
        *played = done;
    }
    sk_free(sum);
    return e;
}

enum sk_err battle_cl_play_each(struct battle_cl *cl, const struct battle_plan *plan,
                                uint64_t first, uint32_t n, struct battle_game_result *out,
                                char *err, size_t errlen)
{
    size_t bytes = (size_t)n * sizeof(*out);
    size_t local, global;
    struct battle_cl_prog *p = NULL;
    cl_mem buf = NULL;
    cl_int st;
    enum sk_err e;

    e = upload_plan(cl, plan, err, errlen);
    if (!e)
        e = prog_for(cl, plan, &p, err, errlen);
    if (e || n == 0)
        return e;
    local = p->work_group;
    global = launch_items(p, n);
    buf = clCreateBuffer(cl->ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &st);
    if (st != CL_SUCCESS)
        return cl_fail(err, errlen, "clCreateBuffer(outcomes)", st);
    st = set_battle_args(cl, p->k_each, battle_plan_seed(plan), first, n);
    if (st == CL_SUCCESS)
        /* NOLINTNEXTLINE(bugprone-sizeof-expression): OpenCL handles are pointers by design */
        st = clSetKernelArg(p->k_each, 4, sizeof(buf), &buf);
    if (st != CL_SUCCESS) {
        e = cl_fail(err, errlen, "clSetKernelArg(battle_each)", st);
        goto out;
    }
    st = clEnqueueNDRangeKernel(cl->queue, p->k_each, 1, NULL, &global, &local, 0, NULL, NULL);
    if (st != CL_SUCCESS) {
        e = cl_fail(err, errlen, "clEnqueueNDRangeKernel(battle_each)", st);
        goto out;
    }
    st = clEnqueueReadBuffer(cl->queue, buf, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
    if (st != CL_SUCCESS)
        e = cl_fail(err, errlen, "clEnqueueReadBuffer(outcomes)", st);
out:
    clReleaseMemObject(buf);
    return e;
}

int battle_cl_check(int index, char *why, size_t whylen)
{
    enum { GAMES = 256, WORDS = 8 };
    uint32_t got[GAMES * WORDS]; /* 8 KiB */
    char spec[16];
    struct battle_cl_opts o = {.device = spec};
    struct battle_cl *cl = NULL;
    enum sk_err rc;
    int bad = 0;

    snprintf(spec, sizeof(spec), "%d", index);
    /* Opened only: rng_words builds the self-check's program alone. */
    rc = battle_cl_open(&o, &cl, why, whylen);
    if (rc == SK_OK)
        rc = battle_cl_rng_words(cl, 0x5eedULL, 0xfffffff0ULL, GAMES, WORDS, got, why, whylen);
    battle_cl_free(cl);
    if (rc)
        return -1;
    for (int i = 0; i < GAMES && !bad; i++) {
        struct rng r;
        rng_init(&r, 0x5eedULL, 0xfffffff0ULL + (uint64_t)i);
        for (int w = 0; w < WORDS; w++)
            bad |= got[i * WORDS + w] != rng_next(&r);
    }
    if (bad)
        snprintf(why, whylen, "random streams differ from the host");
    return bad ? -1 : 0;
}
