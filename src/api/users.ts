/**
 * GET /v2/users/me (contract §1.5) and account webhooks (contract §1.6).
 */
import { accountStub } from "../env";
import { creditsUsed } from "../account/index-shards";
import { Hono } from "hono";
import { WEBHOOK_EVENTS, type WebhookEvent } from "../model/rpc";
import { isoTime } from "../model/types";
import { refuseUrl } from "../security/ssrf";
import { requireUser } from "./auth";
import { baseUrlOf, isUuid, q, type AppEnv } from "./context";
import { invalid, notFound } from "./errors";

export const users = new Hono<AppEnv>();
// Scoped to this part's paths: a "*" here ran again on every later route (jobs, tasks), which check the user themselves.
for (const path of ["/v2/users/*", "/v2/webhooks", "/v2/webhooks/*"]) users.use(path, requireUser);

/** Credits shown as remaining: this server does not sell credits, so a large allowance minus what was used. */
const CREDIT_ALLOWANCE = 1_000_000_000;

users.get("/v2/users/me", async (c) => {
  const u = c.get("user");
  const [me, used] = await Promise.all([accountStub(c.env, u.name).me(), creditsUsed(c.env, u.name)]);
  const base = baseUrlOf(c.req.url);
  return c.json({
    data: {
      id: u.num,
      username: u.name,
      email: `${u.name}@users.invalid`,
      created_at: isoTime(me.createdAt),
      credits: CREDIT_ALLOWANCE - used,
      paying: false,
      task_priority: null,
      tasks_per_minute: null,
      /** Signs calls to per-job `webhook_url`s (account webhooks carry their own secret). */
      webhook_signing_secret: me.signingSecret,
      links: { self: `${base}/v2/users/${u.num}` },
    },
  });
});

users.post("/v2/webhooks", async (c) => {
  const body = (await c.req.json().catch(() => ({}))) as { url?: unknown; events?: unknown };
  const errors: Record<string, string[]> = {};
  const why =
    typeof body.url === "string"
      ? refuseUrl(body.url, c.env.ALLOW_PRIVATE_IMPORTS === "true")
      : "The url field is required.";
  if (why) errors.url = [why];
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0 || !events.every((e) => WEBHOOK_EVENTS.includes(e)))
    errors.events = [`events must be a non-empty array of ${WEBHOOK_EVENTS.join(", ")}.`];
  if (Object.keys(errors).length) throw invalid(errors);
  const hook = await accountStub(c.env, c.get("user").name).createWebhook(
    body.url as string,
    events as WebhookEvent[],
    baseUrlOf(c.req.url),
    c.get("user").name,
  );
  return c.json({ data: hook }, 201);
});

users.get("/v2/users/me/webhooks", async (c) => {
  const hooks = await accountStub(c.env, c.get("user").name).listWebhooks(
    q(c.req.query("filter[url]")),
    baseUrlOf(c.req.url),
  );
  const url = new URL(c.req.url);
  return c.json({
    data: hooks,
    links: { first: url.toString(), last: null, prev: null, next: null },
    meta: {
      current_page: 1,
      from: hooks.length ? 1 : null,
      path: `${url.origin}${url.pathname}`,
      per_page: hooks.length,
      to: hooks.length || null,
    },
  });
});

users.delete("/v2/webhooks/:id", async (c) => {
  const id = c.req.param("id");
  if (!isUuid(id) || !(await accountStub(c.env, c.get("user").name).deleteWebhook(id, c.get("user").name)))
    throw notFound();
  return c.body(null, 204);
});
