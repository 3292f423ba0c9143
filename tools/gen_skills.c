/* SPDX-License-Identifier: MIT */
/* gen_skills: rewrites what the skill table writes into the repository (skills_doc.h): the
 * skill lists of the OpenAPI document and the skill table of docs/jobs.md. `make gen-skills`
 * runs it, then regenerates the TypeScript client from the document.
 *
 *   gen_skills OPENAPI JOBS_MD          rewrites the two files where they differ, each
 *                                       through a temporary file renamed over it
 *   gen_skills --check OPENAPI JOBS_MD  changes nothing; exit status 1 when either differs
 *
 * Exit status: 0 done (or up to date), 1 a file differs (--check) or could not be read or
 * written, 2 usage, or a file the generator cannot rewrite (not JSON, a list marked wrongly,
 * no table markers). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "sk_buf.h"
#include "sk_mem.h"
#include "skills_doc.h"

#include "sk_banned.h"

/* Reads `path` whole into a new string (sk_free) of *len bytes; NULL after a message. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    struct sk_buf b;
    char chunk[65536];
    size_t n;

    if (!f) {
        fprintf(stderr, "gen_skills: cannot read '%s': %s\n", path, strerror(errno));
        return NULL;
    }
    sk_buf_init(&b, 64u << 20); /* the files are about 200 KB */
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        sk_buf_add(&b, chunk, n);
    if (ferror(f) && !b.err)
        b.err = SK_EIO;
    (void)fclose(f); /* read only */
    if (b.err) {
        fprintf(stderr, "gen_skills: cannot read '%s': %s\n", path, sk_err_str(b.err));
        sk_buf_release(&b);
        return NULL;
    }
    *len = b.len;
    return sk_buf_take(&b);
}

/* Writes `len` bytes of `text` to `path` through `path`.tmp renamed over it, so a failed
 * write leaves the old file whole. Returns 0, or 1 after a message. */
static int write_file(const char *path, const char *text, size_t len)
{
    char tmp[4096];
    FILE *f;
    int bad;

    if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
        fprintf(stderr, "gen_skills: path '%s' is too long\n", path);
        return 1;
    }
    f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "gen_skills: cannot write '%s': %s\n", tmp, strerror(errno));
        return 1;
    }
    bad = fwrite(text, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "gen_skills: cannot write '%s': %s\n", path, strerror(errno));
        (void)remove(tmp); /* best effort: the message above is what matters */
        return 1;
    }
    return 0;
}

/* What the OpenAPI document `text` should be, appended to `out`. Returns 0, or 2 after a
 * message (1 when out of memory). */
static int make_openapi(const char *path, const char *text, size_t len, struct sk_buf *out)
{
    json_error_t jerr;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    char err[1200] = "";
    int marked = 0, changed = 0, status = 1;
    enum sk_err rc;

    if (!doc) {
        fprintf(stderr, "%s:%d:%d: %s\n", path, jerr.line, jerr.column, jerr.text);
        return 2;
    }
    rc = skills_doc_update(doc, &marked, &changed, err, sizeof(err));
    if (rc == SK_EINVAL) {
        fprintf(stderr, "%s: %s\n", path, err);
        status = 2;
    } else if (rc || skills_doc_dump(doc, out)) {
        fprintf(stderr, "gen_skills: out of memory\n");
    } else {
        status = 0;
    }
    json_decref(doc);
    return status;
}

/* What the Markdown file `text` should be, appended to `out`; as make_openapi. */
static int make_markdown(const char *path, const char *text, struct sk_buf *out)
{
    enum sk_err rc = skills_doc_markdown(text, out);

    if (rc == SK_EINVAL) {
        fprintf(stderr, "%s: no lines \"%s\" and \"%s\" around the skill table\n", path,
                SKILLS_DOC_TABLE_BEGIN, SKILLS_DOC_TABLE_END);
        return 2;
    }
    if (rc) {
        fprintf(stderr, "gen_skills: out of memory\n");
        return 1;
    }
    return 0;
}

/* Regenerates file `path` (the OpenAPI document when `json`, else Markdown). Returns 0
 * when it is (now) what the table makes, 1 when it differs under --check, or an error's
 * exit status. */
static int regen(const char *path, int json, int check)
{
    size_t len = 0;
    char *text = read_file(path, &len);
    struct sk_buf out;
    int status;

    if (!text)
        return 1;
    sk_buf_init(&out, 0);
    status = json ? make_openapi(path, text, len, &out) : make_markdown(path, text, &out);
    if (status)
        goto out;
    if (out.len == len && memcmp(out.p, text, len) == 0) {
        printf("%s: follows the skill table\n", path);
        goto out;
    }
    if (check) {
        fprintf(stderr, "%s: differs from what the skill table makes: run `%s`\n", path,
                SKILLS_DOC_REGEN);
        status = 1;
        goto out;
    }
    status = write_file(path, out.p, out.len);
    if (!status)
        printf("%s: rewritten from the skill table\n", path);
out:
    sk_buf_release(&out);
    sk_free(text);
    return status;
}

int main(int argc, char **argv)
{
    int check = argc > 1 && strcmp(argv[1], "--check") == 0;
    int a, b;

    if (argc != 3 + check || argv[1 + check][0] == '-' || argv[2 + check][0] == '-') {
        fprintf(stderr, "usage: gen_skills [--check] openapi/openapi.json docs/jobs.md\n");
        return 2;
    }
    sk_mem_init_json();
    a = regen(argv[1 + check], 1, check);
    b = regen(argv[2 + check], 0, check);
    return a > b ? a : b;
}
