/**
 * The Chrome engine (engine table row "chrome", kind web): pages rendered to PDF or images with
 * @cloudflare/puppeteer on the Worker's Browser Rendering binding (issue 14). Browsers are reused
 * across tasks: a task connects to a warm session that nobody holds (this isolate's idle ones, then
 * `sessions()`; `connect()` ~15 ms) or launches one (`keep_alive` 60 s; ~1.2 s locally), and gives it back with `disconnect()`
 * when the page is done — closing it instead after a failure of the browser itself. A session that
 * is closing ("Target closed") is skipped for a fresh launch.
 *
 * Each task renders in a browser context of its own, closed afterwards, so nothing a page stores
 * (cookies, localStorage, cache) survives into another task on the same browser. Every page gets
 * the SSRF guard (guard.ts) before it loads anything; a page URL the guard refuses
 * is IMPORT_FORBIDDEN. The task's remaining time bounds loading, waiting and printing: a page that
 * never finishes is TIMEOUT, and the page is closed and the browser released on every path.
 */
import puppeteer, { type Browser, type BrowserWorker } from "@cloudflare/puppeteer";
import { documentOrigin, installGuard, type GuardState } from "./guard";
import type { WebEngine, WebRenderRequest } from "../kinds/web";
import { CHROME_ENGINE } from "./version";
import { PhaseClock } from "../profile";
import { BROWSER_FAILURE, fail, failureOf, renderOn, versionOf, type WebAnswer } from "./render";

/** How long a released browser stays warm for the next task, ms (Browser Rendering: 10 s – 10 min). */
const KEEP_ALIVE_MS = 60_000;

/** The task around one rendering: its signal and remaining milliseconds; `reuse` false launches a browser per task (BROWSER_REUSE=false). */
export interface ChromeTask {
  signal?: AbortSignal;
  timeoutMs?: number;
  reuse?: boolean;
  /** WEB_PROFILE=1: log one `web-profile {…}` line per rendering with each phase's milliseconds (npm run bench -- web reads it). */
  profile?: boolean;
}

/**
 * Sessions this isolate holds now: sessions() may list one as free in the moment between another
 * task's connect() and the session's bookkeeping, and two tasks on one session step on each
 * other's pages ("Execution context was destroyed" under concurrency 4 in the bench).
 */
const held = new Set<string>();
/**
 * Sessions this isolate disconnected from and that nobody here holds, newest last: tried before
 * sessions(). Browser Rendering clears a session's connectionId on disconnect; the local binding
 * (miniflare) keeps it, so without this list every local task launched a browser (1.2 s) and left
 * it running for keep_alive.
 */
const idle: string[] = [];

/**
 * A browser for one task: a warm session nobody holds (this isolate's idle ones first, then any
 * sessions() lists as unconnected), else a new launch (`fresh`: always a launch).
 * @throws the launch's error when no browser can be had (the binding or Chromium is missing)
 */
async function acquire(binding: BrowserWorker, reuse: boolean, fresh = false): Promise<Browser> {
  if (!reuse) return puppeteer.launch(binding);
  const tryConnect = async (id: string): Promise<Browser | null> => {
    if (held.has(id)) return null;
    held.add(id);
    try {
      return await puppeteer.connect(binding, id);
    } catch {
      // closed (keep_alive ran out), closing ("Target closed") or taken by another isolate
      held.delete(id);
      return null;
    }
  };
  if (!fresh) {
    for (let id = idle.pop(); id !== undefined; id = idle.pop()) {
      const b = await tryConnect(id);
      if (b) return b;
    }
    try {
      for (const s of (await puppeteer.sessions(binding)).filter((s) => !s.connectionId)) {
        const b = await tryConnect(s.sessionId);
        if (b) return b;
      }
    } catch {
      // sessions() unavailable: launch
    }
  }
  const browser = await puppeteer.launch(binding, { keep_alive: KEEP_ALIVE_MS });
  held.add(browser.sessionId());
  return browser;
}

/** Gives a browser back: disconnects a healthy one (it stays warm for the next task), closes a broken one or a per-task launch. */
async function release(browser: Browser, close: boolean): Promise<void> {
  const id = (() => {
    try {
      return browser.sessionId();
    } catch {
      return "";
    }
  })();
  const done = await (close ? browser.close() : browser.disconnect()).then(
    () => true,
    () => false,
  );
  held.delete(id);
  if (!close && done && id) idle.push(id);
}

/** The Chrome engine over a Browser Rendering binding, for one task. */
export function createChromeEngine(binding: BrowserWorker, task: ChromeTask = {}): WebEngine {
  const deadline = Date.now() + Math.max(1000, task.timeoutMs ?? 120_000);
  const left = () => Math.max(1, deadline - Date.now());
  type Answer = WebAnswer;

  /** One rendering on one browser; `broken` says the browser failed (not the page). */
  async function attempt(req: WebRenderRequest, fresh: boolean): Promise<{ answer: Answer; broken: boolean }> {
    let broken = false;
    const clock = new PhaseClock();
    const mark = (name: string) => clock.mark(name);
    const answer = await (async (): Promise<Answer> => {
      let browser: Browser;
      try {
        browser = await acquire(binding, task.reuse !== false, fresh);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        return fail(
          "ENGINE_UNAVAILABLE",
          `No browser could be started for Browser Rendering (${message.slice(0, 200)}). Locally: apt-get install chromium, then npm run setup:browser.`,
        );
      }
      mark("acquire");
      const engineVersion = versionOf(await browser.version().catch(() => CHROME_ENGINE.version));
      mark("version");
      // each task in its own browser context: cookies, localStorage and cache of one task (one user)
      // never reach the next one on a reused browser (Gotenberg #919's localStorage counter)
      const context = await browser.createBrowserContext().catch(() => null);
      const page = context ? await context.newPage().catch(() => null) : null;
      if (!page) {
        await context?.close().catch(() => {});
        await release(browser, true);
        broken = true;
        return fail("ENGINE_UNAVAILABLE", "The browser could not open a page.", engineVersion, true);
      }
      mark("page");
      const onAbort = () => void page.close().catch(() => {});
      task.signal?.addEventListener("abort", onAbort, { once: true });
      try {
        const state: GuardState = {
          origin: documentOrigin(),
          allowLoopback: req.allowLoopback,
          local: new Map(),
          log: { refused: [] },
        };
        try {
          await installGuard(page, state);
        } catch (err) {
          broken = !task.signal?.aborted && BROWSER_FAILURE.test(err instanceof Error ? err.message : String(err));
          return failureOf(err, engineVersion, !!task.signal?.aborted);
        }
        mark("guard");
        const out = await renderOn(req, {
          page,
          state,
          engineVersion,
          left,
          atDocumentOrigin: false,
          mark,
          cancelled: () => !!task.signal?.aborted,
        });
        broken = out.broken;
        return out.answer;
      } finally {
        task.signal?.removeEventListener("abort", onAbort);
        // closing the context closes its page too (one round trip less than page.close() first)
        mark("render");
        await context!.close().catch(() => page.close().catch(() => {}));
        mark("close");
        // a healthy browser stays warm for the next task; a broken one is closed
        await release(browser, broken || task.reuse === false);
        mark("release");
      }
    })();
    if (task.profile) clock.log("web-profile");
    return { answer, broken };
  }

  return {
    async render(req) {
      const first = await attempt(req, false);
      // a browser that failed under the page is replaced once, on a fresh launch, while time is left
      if (!first.broken || task.signal?.aborted || left() < 5000) return first.answer;
      return (await attempt(req, true)).answer;
    },
  };
}
