/* SPDX-License-Identifier: MIT */
/* Keys, scopes, tenants and rate limits of requests (see api_auth.h). */
#include "api_auth.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api_authfail.h"
#include "db_jobs.h"
#include "queue_limit.h"
#include "sk_log.h"
#include "sk_time.h"

#include "sk_banned.h"

int api_auth_loopback(const char *addr)
{
    struct in_addr a;
    if (!addr || inet_pton(AF_INET, addr, &a) != 1)
        return 0;
    return (ntohl(a.s_addr) >> 24) == 127;
}

int api_auth_required(const struct sk_config *cfg)
{
    if (strcmp(cfg->auth, "on") == 0)
        return 1;
    if (strcmp(cfg->auth, "off") == 0)
        return 0;
    return !api_auth_loopback(cfg->http_addr);
}

/* The key of an "Authorization: Bearer <key>" value (RFC 6750: the scheme is
 * case-insensitive), or NULL. */
static const char *bearer(const char *h)
{
    if (!h || strncasecmp(h, "Bearer ", 7) != 0)
        return NULL;
    h += 7;
    while (*h == ' ')
        h++;
    return *h ? h : NULL;
}

static void unauthorized(struct api_response *resp, int given)
{
    api_http_problem(resp, 401, "unauthorized", "Unauthorized",
                     given ? "the API key is not valid (unknown, revoked or malformed)"
                           : "this route needs an API key: send 'Authorization: Bearer <key>'",
                     NULL);
    resp->www_authenticate =
        given ? "Bearer realm=\"skirmish\", error=\"invalid_token\"" : "Bearer realm=\"skirmish\"";
}

void api_auth_revoked(struct api_response *resp)
{
    api_http_problem(resp, 401, "unauthorized", "Unauthorized",
                     "the API key was revoked while this request was open", NULL);
    resp->www_authenticate = "Bearer realm=\"skirmish\", error=\"invalid_token\"";
}

/* Takes a token from the key's bucket and sets the RateLimit headers; returns -1 with a 429
 * in `resp` when the bucket is empty. Redis down lets the request through: the limit
 * protects the service, and without Redis no job can be queued anyway. */
static int rate_limit(const struct api_ctx *ctx, const struct api_request *req,
                      const struct api_principal *who, struct api_response *resp)
{
    const struct sk_config *cfg = ctx->cfg;
    struct queue_limit lim = {0};
    struct api_slot *slot;
    enum sk_err err;
    long window_s;

    if (cfg->rate_per_s <= 0 || !ctx->pool)
        return 0;
    slot = api_pool_get(ctx->pool);
    err = queue_limit_take(slot->queue, who->key_id, cfg->rate_per_s, cfg->rate_burst, &lim);
    api_pool_put(ctx->pool, slot);
    if (err) {
        sk_log_warn("event=rate_limit_unavailable req_id=%s key=%s err=%s", req->req_id,
                    who->key_id, sk_err_str(err));
        return 0;
    }
    window_s = (cfg->rate_burst + cfg->rate_per_s - 1) / cfg->rate_per_s;
    snprintf(resp->ratelimit_policy, sizeof(resp->ratelimit_policy), "\"key\";q=%ld;w=%ld",
             cfg->rate_burst, window_s);
    snprintf(resp->ratelimit, sizeof(resp->ratelimit), "\"key\";r=%lld;t=%lld", lim.remaining,
             (lim.reset_ms + 999) / 1000);
    if (lim.allowed)
        return 0;
    {
        char detail[128];
        int retry = (int)((lim.retry_ms + 999) / 1000);
        snprintf(detail, sizeof(detail),
                 "this key made more than %ld requests at once or %ld a second; retry in %d s",
                 cfg->rate_burst, cfg->rate_per_s, retry);
        api_http_problem(resp, 429, "rate-limited", "Too Many Requests", detail,
                         json_pack("{s:i}", "retry_after", retry));
        resp->retry_after = retry > 0 ? retry : 1;
    }
    sk_log_info("event=rate_limited req_id=%s key=%s tenant=%s", req->req_id, who->key_id,
                who->tenant);
    return -1;
}

int api_auth_check(const struct api_ctx *ctx, const struct api_request *req,
                   enum api_auth_scope scope, const char *route, const char *id,
                   struct api_principal *who, struct api_response *resp)
{
    struct db_key_auth a;
    const char *key;
    const char *job = NULL;
    struct api_slot *slot;
    long long now;
    long retry = 1;
    enum sk_err err;

    memset(who, 0, sizeof(*who));
    snprintf(who->tenant, sizeof(who->tenant), "%s", DB_JOBS_TENANT);
    who->admin = 1;
    if (scope == API_AUTH_PUBLIC || !ctx->auth)
        return 0;
    who->admin = 0;
    key = bearer(req->authorization);
    if (!key || !ctx->pool) {
        unauthorized(resp, req->authorization != NULL);
        return -1;
    }
    /* An address that sent too many refused keys is answered without a lookup. */
    now = req->now_ms ? req->now_ms : sk_time_mono_ms();
    if (!api_authfail_allowed(ctx->authfail, req->client_addr, now, &retry)) {
        char detail[160];
        snprintf(detail, sizeof(detail),
                 "this address sent more than %ld refused API keys at once or %ld a second; "
                 "retry in %ld s",
                 ctx->cfg->auth_fail_burst, ctx->cfg->auth_fail_per_s, retry);
        api_http_problem(resp, 429, "rate-limited", "Too Many Requests", detail,
                         json_pack("{s:i}", "retry_after", (int)retry));
        resp->retry_after = (int)retry;
        sk_log_info("event=auth_throttled req_id=%s", req->req_id);
        return -1;
    }
    /* a job route reads the job's tenant in the same statement as the key */
    if (id && route && strncmp(route, "/v1/jobs/{id}", 13) == 0 && db_jobs_is_id(id))
        job = id;
    slot = api_pool_get(ctx->pool);
    err = db_keys_auth(slot->db, key, job, &a);
    api_pool_put(ctx->pool, slot);
    if (err == SK_ENOTFOUND) {
        api_authfail_count(ctx->authfail, req->client_addr, now);
        sk_log_info("event=auth_refused req_id=%s", req->req_id);
        unauthorized(resp, 1);
        return -1;
    }
    if (err) {
        api_http_problem(resp, 503, "unavailable", "Service Unavailable",
                         "the key store is unreachable; retry shortly", NULL);
        resp->retry_after = 1;
        sk_log_error("event=store_error req_id=%s op=auth err=%s", req->req_id, sk_err_str(err));
        return -1;
    }
    snprintf(who->tenant, sizeof(who->tenant), "%s", a.tenant);
    snprintf(who->key_id, sizeof(who->key_id), "%s", a.key_id);
    who->admin = a.admin;
    /* a long poll's later passes are the same request: one token for the whole wait */
    if (!req->wait_deadline_ms && rate_limit(ctx, req, who, resp))
        return -1;
    if (scope == API_AUTH_ADMIN && !who->admin) {
        api_http_problem(resp, 403, "forbidden", "Forbidden", "this route needs an admin key",
                         NULL);
        return -1;
    }
    /* Another tenant's job answers exactly as a job that does not exist: a tenant cannot
     * even learn that an id is taken. A job deleted since another API process cached it
     * is a 404 too. */
    if (job && (!a.job_found || (!who->admin && strcmp(a.job_tenant, who->tenant) != 0))) {
        char detail[128];
        snprintf(detail, sizeof(detail), "no job with id '%.64s'", id);
        api_http_problem(resp, 404, "job-not-found", "Not Found", detail, NULL);
        return -1;
    }
    return 0;
}
