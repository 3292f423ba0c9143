/* SPDX-License-Identifier: MIT */
/* Battle job decoding cost: how long job_decode (envelope, battle params, catalog lookups,
 * state checks) takes per document for each file in examples/, i.e. the validation work
 * the API does per POST before anything is queued. Prints a table; asserts nothing.
 * Usage: codec_bench [ITERATIONS [EXAMPLES_DIR]] (defaults 20000 and ./examples, i.e. run
 * from the repository root). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "job.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Decodes `doc` n times; returns seconds, or a negative value if a decode fails. */
static double time_decodes(const json_t *doc, long n)
{
    double t0 = now_s();
    for (long i = 0; i < n; i++) {
        struct sk_verr_list errs;
        struct job *job = NULL;
        enum sk_err rc;
        sk_verr_list_init(&errs);
        rc = job_decode(doc, &job, &errs);
        job_free(job);
        sk_verr_list_release(&errs);
        if (rc)
            return -1;
    }
    return now_s() - t0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 2 ? argv[2] : "examples";
    struct dirent **list = NULL;
    uint64_t iters = 20000;
    int n;

    sk_mem_init_json();
    if (argc > 1 && sk_parse_u64(argv[1], 1, 100000000, &iters)) {
        fprintf(stderr, "usage: codec_bench [ITERATIONS [EXAMPLES_DIR]]\n");
        return 2;
    }
    n = scandir(dir, &list, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "codec_bench: cannot read %s\n", dir);
        return 1;
    }
    printf("| document | bytes | decodes | us/decode | decodes/s |\n|---|---:|---:|---:|---:|\n");
    for (int i = 0; i < n; i++) {
        const char *name = list[i]->d_name;
        size_t len = strlen(name);
        char path[4096];
        json_error_t jerr;
        json_t *doc = NULL;
        char *text = NULL;
        double s;

        if (len > 5 && strcmp(name + len - 5, ".json") == 0) {
            snprintf(path, sizeof(path), "%s/%s", dir, name);
            doc = json_load_file(path, 0, &jerr);
        }
        if (doc) {
            text = json_dumps(doc, JSON_COMPACT);
            time_decodes(doc, (long)(iters / 10 + 1)); /* warm up: catalog, caches */
            s = time_decodes(doc, (long)iters);
            if (s < 0)
                printf("| %s | | | decode failed | |\n", name);
            else
                printf("| %s | %zu | %llu | %.2f | %.0f |\n", name, text ? strlen(text) : 0,
                       (unsigned long long)iters, s * 1e6 / (double)iters, (double)iters / s);
            sk_free(text);
            json_decref(doc);
        }
        free(list[i]);
    }
    free(list);
    return 0;
}
