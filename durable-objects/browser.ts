/**
 * BrowserDO (issue 37): the Durable Object that holds the Chrome engine's browser session and renders pages in it for
 * every task (Cloudflare's documented pattern for reusing a Browser Rendering session: a Worker's request cannot use
 * a WebSocket another request opened, a Durable Object keeps one for all of its calls). The runner reaches it through
 * the web engine seam (runtime/workerd/engines.ts): `render` answers a rendering as data, large bytes as streams
 * (engines/wire.ts); `cancel` closes a rendering's page when its task is cancelled. The pool (engines/chrome/pool.ts)
 * shares one browser among the renderings in flight, each in a context of its own.
 *
 * Its ceiling (issue 48): MAX_RENDERINGS run in the browser and MAX_QUEUED wait for a turn; a rendering beyond that is
 * refused at once ({@link BrowserBusy}) and its caller tries another of the BROWSER_SHARDS objects
 * (runtime/workerd/browser.ts).
 *
 * Nothing is stored: a restarted object reconnects to its warm session or launches one; a rendering lost with the
 * object is the runner's failed RPC, which the task's retry covers like any engine failure.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../src/env";
import { ChromePool } from "../src/engines/chrome/pool";
import type { WebRenderRequest } from "../src/engines/kinds/web";
import { fail } from "../src/engines/chrome/render";
import { toWire } from "../src/engines/wire";
import type { BrowserBusy } from "../src/runtime/workerd/browser";

/** Renderings that may wait for a turn in one object (beyond MAX_RENDERINGS running) before it refuses more. */
export const MAX_QUEUED = 8;

export class BrowserDO extends DurableObject<Env> {
  private pool: ChromePool | null;
  /** Renderings in flight by the caller's id, to cancel. */
  private running = new Map<string, AbortController>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.pool = env.BROWSER ? new ChromePool(env.BROWSER, env.WEB_PROFILE === "1") : null;
  }

  /**
   * Renders `req` within `timeoutMs` (the task's remaining time). `id` names the rendering for `cancel`. Answers the
   * web engine's result (kinds/web.ts) through toWire: its bytes as a stream from 1 MiB; {@link BrowserBusy} when the
   * object is over its ceiling.
   */
  async render(req: WebRenderRequest, timeoutMs: number, id: string): Promise<unknown> {
    if (!this.pool) return fail("ENGINE_UNAVAILABLE", "Browser Rendering is not bound (BROWSER).");
    const load = this.pool.load;
    if (load.queued >= MAX_QUEUED) return { busy: load } satisfies BrowserBusy;
    const controller = new AbortController();
    this.running.set(id, controller);
    const t0 = performance.now();
    try {
      return toWire(await this.pool.render(req, { timeoutMs, signal: controller.signal }));
    } finally {
      this.running.delete(id);
      if (this.env.WEB_PROFILE === "1") console.log(`web-do ${JSON.stringify({ do: performance.now() - t0 })}`);
    }
  }

  /** The task of rendering `id` was cancelled: its page is closed and the rendering answers CANCELLED. */
  async cancel(id: string): Promise<void> {
    this.running.get(id)?.abort();
  }
}
