/**
 * The v2 API as one Hono app: resources mounted in order (specific routes before the standalone
 * POST /v2/{operation} catch-all), one error mapping, JSON 404s.
 */
import { Hono } from "hono";
import { PatternRouter } from "hono/router/pattern-router";
import CONSOLE_PAGE from "../console/index.html";
import type { AppEnv } from "./context";
import { notFound, onError } from "./errors";
import { files } from "./files";
import { jobs } from "./jobs";
import { live } from "./live";
import { openapi } from "./openapi";
import { signedUrlBases, signedUrls } from "./signed-urls";
import { operations } from "./operations";
import { tasks } from "./tasks";
import { uploads } from "./uploads";
import { users } from "./users";
import { meterOn, readMeter } from "../meter/meter";

/**
 * PatternRouter: one regular expression per route, tried in order (~40 routes). Hono's default
 * SmartRouter cannot use its RegExpRouter here (`/v2/:operation{.+}` beside `/v2/jobs/:id` has no single
 * trie), so it falls back to TrieRouter, whose per-request search costs more CPU (README "What one job
 * costs").
 */
export const app = new Hono<AppEnv>({ router: new PatternRouter() });

/** The cost meter's counts (issue 20, meter/meter.ts), only where METER is "on"; `?reset=1` starts a new period. */
app.get("/__meter", (c) => (meterOn(c.env) ? c.json(readMeter(c.req.query("reset") === "1")) : c.notFound()));

/**
 * The console page for browsers (src/console/index.html, a text module; its script and styles are static assets at
 * /console/, scripts/build-console.mjs); JSON facts about the API for everything else. Its CSP allows no inline script
 * or style: the page has neither (test/unit/console-page.test.ts).
 */
app.get("/", (c) => {
  if (/text\/html/.test(c.req.header("accept") ?? "")) {
    return c.html(CONSOLE_PAGE, 200, {
      "content-security-policy":
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self' blob:; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:",
      "x-frame-options": "DENY",
    });
  }
  const origin = new URL(c.req.url).origin;
  return c.json({
    name: "edge-convert",
    api: "CloudConvert v2 compatible",
    docs: `${origin}/v2/operations`,
    openapi: `${origin}/openapi.json`,
    console: `${origin}/`,
  });
});
app.route("/", live);
app.route("/", openapi);
app.route("/", signedUrls);
app.route("/", signedUrlBases);
app.route("/", operations);
app.route("/", uploads);
app.route("/", files);
app.route("/", users);
app.route("/", jobs);
app.route("/", tasks);
app.notFound(() => {
  throw notFound();
});
app.onError(onError);
