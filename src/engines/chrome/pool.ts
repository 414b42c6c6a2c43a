/**
 * The browser pool of the Chrome engine (issue 37): one Browser Rendering session held by the browser Durable Object
 * (durable-objects/browser.ts, Cloudflare's documented pattern for a long-lived connection to a browser) and shared by
 * every rendering in flight, each on a page of its own, side by side in the one browser — where the per-task engine
 * (engine.ts) connects a session per task, so concurrent tasks each held a browser.
 *
 * Isolation: a page is never shared by two renderings at once, and nothing a task leaves in a page reaches a later
 * one. The pool keeps warm slots ("spares", as many as renderings were recently in flight, at most MAX_SPARES): a
 * browser context of its own with one page, the SSRF guard installed (request interception, WebSocket/WebRTC/workers
 * removed: guard.ts), standing at a blank document of an origin no task has had yet (guard.ts documentOrigin). A task
 * fills the guard's state and writes its HTML into that document (render.ts), with no navigation. Afterwards the
 * slot is reused (up to MAX_USES renderings) only when the task was HTML that stayed on its origin — no frame
 * navigated to a URL of the web (GuardLog.left), no other page was opened, it ended without failure, timeout or
 * cancellation. The reset: the page navigates to the blank document of a new origin (the task's document and its
 * scripts end), its `window.name` is emptied, its navigation history erased (history.back() cannot bring an earlier
 * document out of the back-forward cache), the context's cookies cleared (third-party ones included) and its media
 * emulation undone. What the task stored under its origin (localStorage, sessionStorage, IndexedDB) stays in the
 * context, unreachable: no later task is served from that origin. test/e2e/web-pool.test.ts plants each of these
 * and probes for it from later renderings. Any other slot is closed with its context. Why (issue 37), measured with
 * Debian's Chromium driven directly at concurrency 4: a fresh context, guard and page per document reached ~0.6× the
 * bare floor of `npm run bench -- web` (a new page per document, setContent), a reused slot ~1×. New slots are made
 * after a rendering ends, not while it runs.
 *
 * Self-contained documents skip the reset: HTML that can run no script of its own (guard.ts mayRunScript) and made
 * no request leaves nothing in the page but its DOM, so its slot comes back as it is ("written", not blank) and the
 * next self-contained task is written over that document, at the same origin, with no navigation (`selfContained`).
 * A task that may run a script never gets a written page: it takes a blank spare, or a written one is reset for it
 * first. test/e2e/web-pool.test.ts reads the document's origin from each PDF (Chromium's header URL) to check both.
 * The navigation of the reset was ~2/3 of Chromium's CPU per one-page document; without it the engine alone renders
 * the bench's invoice at ~2× the bare floor.
 *
 * The session: launched with keep_alive, or reconnected (the last one this object held, then any that sessions()
 * lists as free); a browser that disconnects or fails under a page is dropped (closed) with its spares, and the task
 * tried once more on a fresh launch while time is left. After IDLE_MS without renderings the pool closes its spares
 * and disconnects: the session stays warm for keep_alive and is reconnected by the next rendering.
 */
import puppeteer, {
  type Browser,
  type BrowserContext,
  type BrowserWorker,
  type CDPSession,
  type Page,
} from "@cloudflare/puppeteer";
import { documentOrigin, installGuard, mayFetch, mayRunScript, type GuardState } from "./guard";
import type { WebRenderRequest } from "../kinds/web";
import { CHROME_ENGINE } from "./version";
import { PhaseClock } from "../profile";
import { Turns } from "./turns";
import { BROWSER_FAILURE, DEFAULT_VIEWPORT, fail, failureOf, renderOn, versionOf, type WebAnswer } from "./render";

/** How long a released session stays warm in Browser Rendering, ms (10 s – 10 min). */
const KEEP_ALIVE_MS = 60_000;
/** The pool lets its spares and its connection go after this long without a rendering, ms. */
export const IDLE_MS = 30_000;
/** At most this many warm contexts are kept ready. */
export const MAX_SPARES = 4;

/**
 * At most this many renderings run in the browser at once; later ones wait their turn in the object. The browser
 * object is where tasks meet (they run beside their jobs, runner/beside.ts, not through the queue's batches), so it
 * is where the load on the one browser is bounded: a burst of jobs queues here rather than opening a context each.
 */
export const MAX_RENDERINGS = 8;

/**
 * A rendering with no spare ready waits this long at most for a slot coming back from its reset (or being made) before
 * making a new one, ms. A reset is a navigation to a blank document and two CDP calls (~20–100 ms here).
 */
export const SLOT_WAIT_MS = 1500;

/** Renderings one slot may serve before its context is closed and replaced. */
export const MAX_USES = 50;

/**
 * A context with its guarded page, standing at the blank document of `state.origin`; `cdp`: the page's session for
 * the reset; `uses`: renderings it served.
 */
interface Slot {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  state: GuardState;
  uses: number;
  /**
   * The page stands at a blank document no task has written into (made, or reset). False: it holds the document of
   * the last task, a self-contained one (`selfContained`), which only another such task may be written over.
   */
  blank: boolean;
}

/**
 * Whether a rendering of `req` leaves nothing in its page that a later task could meet, or that could act after it —
 * so the next self-contained task may be written into the same document, with no navigation (issue 37): HTML (and
 * header/footer templates) that could run no script of its own (guard.ts mayRunScript) and fetch nothing, now or
 * later (guard.ts mayFetch) — no response sets a cookie or fills a cache under the document's origin, no request of
 * it reaches the guard once the next task's state is in force. What such a task leaves is its DOM, which the next
 * task's `document.open` replaces, and it cannot read anything the page holds. The pool also checks, after the
 * rendering, that the guard saw no request (GuardLog.requests). Measured with Debian's Chromium driven directly at
 * concurrency 4 (the engine alone of `npm run bench -- web`): the navigation of the reset was ~2/3 of Chromium's CPU
 * per one-page document (browser process 60 → 19 ms, renderer 55 → 19, GPU 15 → 5 without it).
 */
const selfContained = (req: WebRenderRequest): boolean => {
  if (!("html" in req.source)) return false;
  const text = req.source.html + (req.headerTemplate ?? "") + (req.footerTemplate ?? "");
  return !mayRunScript(text) && !mayFetch(text);
};

/**
 * The blank document a spare stands at. It empties the tab's `window.name` while it is parsed (the name outlives
 * navigations within a site; here no task's script runs), and names an icon of its own so that Chromium does not
 * ask for /favicon.ico after the load: that request, intercepted and answered 404, was 9 of a rendering's 66 CDP
 * messages, each relayed through the browser object.
 */
export const BLANK_DOCUMENT =
  '<!doctype html><link rel="icon" href="data:,"><title></title><script>window.name = ""</script>';

/** A spare's guard state until its task fills it: a new origin serving BLANK_DOCUMENT at "/". */
const blankState = (): GuardState => ({
  origin: documentOrigin(),
  allowLoopback: false,
  local: new Map([["/", { body: BLANK_DOCUMENT, contentType: "text/html; charset=utf-8" }]]),
  log: { refused: [] },
});

/** A rendering's bounds: ms left, and whether the task was cancelled. */
export interface PoolTask {
  timeoutMs: number;
  /** Aborted when the task is cancelled (its page is closed). */
  signal?: AbortSignal;
}

export class ChromePool {
  private browser: Promise<Browser> | null = null;
  private version: string = CHROME_ENGINE.version;
  private lastSession = "";
  private spares: Slot[] = [];
  /** Slots on their way to be spares: being made (refill) or being reset after a rendering. */
  private coming = 0;
  /**
   * Renderings with no spare ready, waiting for the next slot that comes (first come, first served), each called once:
   * with the slot, or with null (the slot it waited for failed, the browser was dropped, or SLOT_WAIT_MS passed), and
   * then it makes a slot of its own. Why (issue 37): at concurrency 4 a rendering often arrived while the slot of the
   * one before was still being reset; making a new slot then cost a context and a renderer process (~0.4 s of CPU), and
   * the slot in excess was closed afterwards: 8–11 renderer processes started per 40 documents, ~90 ms of CPU per document.
   */
  private waiters: ((slot: Slot | null) => void)[] = [];
  private active = 0;
  /** The most renderings in flight since the pool was last idle: how many spares to keep. */
  private peak = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Contexts being closed (awaited before a disconnect). */
  private closing = new Set<Promise<unknown>>();
  /** Renderings in the browser at once (MAX_RENDERINGS). */
  private turns = new Turns(MAX_RENDERINGS);

  private binding: BrowserWorker;
  private profile: boolean;
  private open?: () => Promise<Browser>;

  /**
   * @param binding Browser Rendering (`BROWSER`)
   * @param profile log each rendering's phases (WEB_PROFILE=1)
   * @param open how the shared browser is had instead of the binding's sessions (`npm run bench -- web` drives the
   *   pool against a Chromium of its own, to measure the engine without the local binding's relay)
   */
  constructor(binding: BrowserWorker, profile = false, open?: () => Promise<Browser>) {
    this.binding = binding;
    this.profile = profile;
    this.open = open;
  }

  /** Renderings running in the browser and waiting for a turn (the browser object's load, issue 48). */
  get load(): { running: number; queued: number } {
    return { running: this.turns.inFlight, queued: this.turns.queued };
  }

  /** Renders `req`: once, and once more on a fresh browser when the browser failed under it while time is left. */
  async render(req: WebRenderRequest, task: PoolTask): Promise<WebAnswer> {
    const budget = Math.max(1000, task.timeoutMs);
    const deadline = Date.now() + budget;
    const left = () => Math.max(1, deadline - Date.now());
    clearTimeout(this.idleTimer);
    const turn = await this.turns.take(deadline, task.signal);
    if (turn !== "go")
      return turn === "cancelled"
        ? fail("CANCELLED", "The task was cancelled.", this.version)
        : fail(
            "TIMEOUT",
            `The browser was rendering ${MAX_RENDERINGS} pages for other tasks until this task's time ran out.`,
            this.version,
          );
    this.active++;
    this.peak = Math.max(this.peak, this.active);
    try {
      const first = await this.attempt(req, left, budget, task.signal);
      if (!first.broken || task.signal?.aborted || left() < 5000) return first.answer;
      return (await this.attempt(req, left, budget, task.signal)).answer;
    } finally {
      this.active--;
      this.turns.release();
      this.refill();
      if (this.active === 0) this.idleTimer = setTimeout(() => void this.idle(), IDLE_MS);
    }
  }

  /** One rendering on a slot of the shared browser; `broken` says the browser failed (not the page). */
  private async attempt(
    req: WebRenderRequest,
    left: () => number,
    budget: number,
    signal?: AbortSignal,
  ): Promise<{ answer: WebAnswer; broken: boolean }> {
    const clock = new PhaseClock();
    const mark = (name: string) => clock.mark(name);
    let slot: Slot;
    let how = "page";
    const alone = selfContained(req);
    try {
      // a spare ready, else the next slot to come back from its reset or to be made (rather than a new one beside it)
      let spare = this.take(alone);
      if (!spare && this.coming > this.waiters.length) {
        spare = await this.next();
        how = spare ? "page (waited)" : "page (new)";
      } else if (!spare) how = "page (new)";
      // a task that may run scripts never meets another task's document: a written page is reset for it first
      if (spare && !spare.blank && !alone) {
        how = "page (reset first)";
        const written = spare;
        spare = (await this.ready(written, () => this.wipe(written, false))) ? written : null;
      }
      slot = spare ?? (await this.newSlot());
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.drop();
      return {
        answer: fail(
          "ENGINE_UNAVAILABLE",
          `No browser page could be had from Browser Rendering (${message.slice(0, 200)}). Locally: apt-get install chromium, then npm run setup:browser.`,
          this.version,
        ),
        // a browser that failed under a new page is worth one fresh launch; a launch that failed is not
        broken: BROWSER_FAILURE.test(message),
      };
    }
    mark(how);
    let reusable = false;
    // a hung page (a script that never yields, a load that never ends) ends at the task's time; a cancelled task's page is closed
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(1, left() + 250));
      signal?.addEventListener("abort", () => resolve(), { once: true });
    });
    try {
      const out = await Promise.race([
        renderOn(req, {
          page: slot.page,
          state: slot.state,
          engineVersion: this.version,
          left,
          atDocumentOrigin: true,
          mark,
          cancelled: () => !!signal?.aborted,
        }),
        stop.then(() => null),
      ]);
      if (out === null || signal?.aborted) {
        return {
          answer: signal?.aborted
            ? fail("CANCELLED", "The task was cancelled.", this.version)
            : failureOf(new Error(`timed out after ${budget} ms`), this.version, false),
          broken: false,
        };
      }
      if (out.broken) this.drop();
      reusable =
        out.answer.ok && "html" in req.source && !slot.state.log.left && slot.uses + 1 < MAX_USES && !out.broken;
      return out;
    } finally {
      clearTimeout(timer);
      mark("render");
      slot.uses++;
      // not awaited: the reset or the context's teardown is Chromium's work, off this task's path
      const media = !!req.options.css_media_type;
      // a self-contained task's page keeps its document (the next such task is written over it); any other is reset
      if (reusable && this.browser && alone && !slot.state.log.requests)
        void this.giveBack(slot, async () => {
          if (media) await slot.page.emulateMediaType();
          slot.blank = false;
        });
      else if (reusable && this.browser) void this.giveBack(slot, () => this.wipe(slot, media));
      else void this.close(slot);
      mark("close");
      if (this.profile) clock.log("web-profile");
    }
  }

  /** The shared browser: connected or launched once, shared by every rendering until it fails or the pool idles. */
  private shared(): Promise<Browser> {
    if (this.browser) return this.browser;
    const p = (this.open ? this.open() : this.connect()).then(async (b) => {
      this.lastSession = b.sessionId();
      b.on("disconnected", () => {
        if (this.browser === p) this.forget();
      });
      this.version = versionOf(await b.version().catch(() => this.version));
      return b;
    });
    this.browser = p;
    p.catch(() => {
      if (this.browser === p) this.forget();
    });
    return p;
  }

  /** Reconnects to this object's last session, else to one sessions() lists as free, else launches one. */
  private async connect(): Promise<Browser> {
    const ids = this.lastSession ? [this.lastSession] : [];
    try {
      for (const s of await puppeteer.sessions(this.binding)) if (!s.connectionId) ids.push(s.sessionId);
    } catch {
      // sessions() unavailable: launch
    }
    for (const id of new Set(ids)) {
      try {
        return await puppeteer.connect(this.binding, id);
      } catch {
        // closed (keep_alive ran out), closing or taken by another client
      }
    }
    return puppeteer.launch(this.binding, { keep_alive: KEEP_ALIVE_MS });
  }

  /** A new context with its guarded page at the blank document of a new origin. */
  private async newSlot(): Promise<Slot> {
    const browser = await this.shared();
    const context = await browser.createBrowserContext();
    if (this.profile) console.log("web-pool new slot");
    try {
      const page = await context.newPage();
      const state = blankState();
      await page.setViewport(DEFAULT_VIEWPORT);
      await installGuard(page, state);
      await page.goto(`${state.origin}/`, { waitUntil: "load", timeout: 30_000 });
      return { context, page, cdp: await page.createCDPSession(), state, uses: 0, blank: true };
    } catch (err) {
      await context.close().catch(() => {});
      throw err;
    }
  }

  /**
   * The reset of the header comment: the page navigates to the blank document of a new origin, its history is erased,
   * the context's cookies cleared and media emulation undone. @throws what a step throws
   */
  private async wipe(slot: Slot, mediaEmulated: boolean): Promise<void> {
    Object.assign(slot.state, blankState());
    // the blank document empties window.name (BLANK_DOCUMENT)
    await slot.page.goto(`${slot.state.origin}/`, { waitUntil: "load", timeout: 5000 });
    await slot.cdp.send("Page.resetNavigationHistory");
    await slot.cdp.send("Network.clearBrowserCookies");
    if (mediaEmulated) await slot.page.emulateMediaType();
    slot.blank = true;
  }

  /**
   * Readies a used slot with `prepare` (the reset, `wipe`, or for a self-contained task's page only its media emulation
   * undone) and checks it: whether it is usable. A slot whose preparation fails, that has another page in its
   * context, or whose browser was dropped meanwhile is closed.
   */
  private async ready(slot: Slot, prepare: () => Promise<void>): Promise<boolean> {
    const browser = this.browser;
    try {
      await prepare();
      await this.checkAlone(slot, browser);
      return true;
    } catch (err) {
      if (this.profile) console.log(`web-pool slot closed: ${err instanceof Error ? err.message : String(err)}`);
      void this.close(slot);
      return false;
    }
  }

  /** Gives a used slot back as a spare once `ready` (it counts as coming meanwhile; waiters get it first). */
  private async giveBack(slot: Slot, prepare: () => Promise<void>): Promise<void> {
    this.coming++;
    const ok = await this.ready(slot, prepare);
    this.coming--;
    if (ok) this.offer(slot);
    else this.noShow();
  }

  /** @throws when another page is open in the slot's context, or `browser` is no longer the pool's */
  private async checkAlone(slot: Slot, browser: Promise<Browser> | null): Promise<void> {
    const pages = await slot.context.pages();
    if (pages.length !== 1) throw new Error(`${pages.length} pages in the context`);
    if (!browser || this.browser !== browser) throw new Error("the browser was dropped");
  }

  /**
   * A spare for a task: a self-contained one (`alone`) takes a written page first (leaving blank ones to tasks that
   * need them), any other task a blank page first. Null when there is no spare.
   */
  private take(alone: boolean): Slot | null {
    for (let i = this.spares.length - 1; i >= 0; i--)
      if (this.spares[i]!.blank !== alone) return this.spares.splice(i, 1)[0]!;
    return this.spares.pop() ?? null;
  }

  /** Closes a slot's context (its page with it), off the caller's path; a disconnect awaits it. */
  private close(slot: Slot): Promise<unknown> {
    const p = slot.context.close().catch(() => slot.page.close().catch(() => {}));
    this.closing.add(p);
    void p.finally(() => this.closing.delete(p));
    return p;
  }

  /** A slot ready for a rendering: to the first waiter, else kept as a spare (closed when the pool has MAX_SPARES). */
  private offer(slot: Slot): void {
    const waiter = this.waiters.shift();
    if (waiter) return waiter(slot);
    if (this.spares.length < MAX_SPARES) return void this.spares.push(slot);
    if (this.profile) console.log("web-pool slot closed: spares enough");
    void this.close(slot);
  }

  /** A slot on its way failed: a waiter that no slot still coming can serve is told to make its own. */
  private noShow(): void {
    if (this.waiters.length > this.coming) this.waiters.shift()!(null);
  }

  /** The next slot to come (see `waiters`), or null after SLOT_WAIT_MS or when none comes. */
  private next(): Promise<Slot | null> {
    return new Promise((resolve) => {
      const take = (slot: Slot | null) => {
        clearTimeout(timer);
        resolve(slot);
      };
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(take);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(null);
      }, SLOT_WAIT_MS);
      this.waiters.push(take);
    });
  }

  /**
   * Makes spares so that the slots there are — in use, being reset, spare or being made — reach the recent peak of
   * renderings in flight (at most MAX_SPARES): a slot in use comes back as a spare after its reset.
   */
  private refill(): void {
    while (this.browser && this.active + this.coming + this.spares.length < Math.min(MAX_SPARES, this.peak)) {
      const browser = this.browser;
      this.coming++;
      void this.newSlot().then(
        (slot) => {
          this.coming--;
          // the browser was dropped meanwhile: the slot is of a dead browser
          if (this.browser !== browser) {
            void this.close(slot);
            this.noShow();
          } else this.offer(slot);
        },
        () => {
          this.coming--;
          this.noShow();
        },
      );
    }
  }

  /** Forgets the browser and its spares (it disconnected or failed). */
  private forget(): void {
    this.browser = null;
    this.spares = [];
    // waiters make slots of their own on the next browser; the slots still coming are closed when they come
    for (const waiter of this.waiters.splice(0)) waiter(null);
  }

  /** Drops a browser that failed: closed (not given back), its spares with it. */
  private drop(): void {
    const b = this.browser;
    this.forget();
    void b?.then(
      (x) => x.close().catch(() => {}),
      () => {},
    );
  }

  /** No rendering for IDLE_MS: closes the spares and disconnects (the session stays warm for keep_alive). */
  private async idle(): Promise<void> {
    if (this.active > 0 || !this.browser) return;
    const b = this.browser;
    const spares = this.spares;
    this.forget();
    this.peak = 0;
    // a context whose page hangs may never finish closing: the disconnect waits 5 s for them at most
    await Promise.race([
      Promise.all([...spares.map((s) => s.context.close().catch(() => {})), ...this.closing]),
      new Promise((r) => setTimeout(r, 5000)),
    ]);
    await b.then(
      (x) => x.disconnect().catch(() => {}),
      () => {},
    );
  }
}
