/**
 * The page's SSRF guard (issue 14): every request the page makes — its own URL, each redirect hop
 * and every subresource — passes the same check as import/url (security/ssrf.ts refuseUrl) through
 * request interception; data: and blob: subresources are local to the page. What interception
 * cannot see is switched off before any script runs: WebSocket, WebRTC and (shared) workers, whose
 * connections bypass it, service workers, and other windows (whose pages would have no guard).
 */
import type { HTTPRequest, Page } from "@cloudflare/puppeteer";
import { refuseUrl } from "../../security/ssrf";

/**
 * Removes what request interception does not see (runs in every document of the page, before its scripts): the APIs
 * whose connections bypass it — WebSocket, WebRTC, (shared) workers — and every way a document opens another window,
 * whose page would have no guard: window.open and document.open's three-argument form return null, and links, areas
 * and forms aimed at another window (a `target` other than _self/_parent/_top, or `<base target>`) neither navigate nor
 * submit. The overrides cannot be redefined by the page's own scripts.
 */
function disableUninterceptable(): void {
  const lock = (o: object, name: string, value: unknown) => {
    try {
      Object.defineProperty(o, name, { value, configurable: false, writable: false });
    } catch {
      // already locked
    }
  };
  for (const name of ["WebSocket", "RTCPeerConnection", "webkitRTCPeerConnection", "Worker", "SharedWorker"])
    lock(globalThis, name, undefined);
  // issue 45: speculation rules make Chromium prefetch and prerender from its browser process, where request
  // interception never sees the requests (measured: loopback reached from inline and script-inserted rules). A rule set
  // is acted upon in a task after its <script type=speculationrules> is inserted; this observer removes every such
  // element first (a removed script's rules are dropped), parsed or inserted by a script, in every frame.
  type Node0 = { nodeName?: string; getAttribute?(n: string): string | null; remove?(): void };
  type Parent = Node0 & { querySelectorAll?(s: string): ArrayLike<Node0> };
  const isRules = (n: Node0) =>
    n.nodeName === "SCRIPT" && /^\s*speculationrules\s*$/i.test(n.getAttribute?.("type") ?? "");
  const strip = (n: Parent) => {
    if (isRules(n)) return void n.remove?.();
    const inner = n.querySelectorAll?.("script[type]") ?? [];
    for (let i = 0; i < inner.length; i++) if (isRules(inner[i]!)) inner[i]!.remove?.();
  };
  const w = globalThis as unknown as {
    MutationObserver?: new (cb: (rs: { addedNodes: ArrayLike<Parent> }[]) => void) => {
      observe(t: unknown, o: object): void;
    };
    document?: Parent;
    HTMLScriptElement?: { supports?(t: string): boolean };
  };
  if (w.MutationObserver && w.document) {
    new w.MutationObserver((records) => {
      for (const r of records) for (let i = 0; i < r.addedNodes.length; i++) strip(r.addedNodes[i]!);
    }).observe(w.document, { childList: true, subtree: true });
    strip(w.document);
  }
  // feature detection answers no, so a page that asks never writes rules
  const scriptClass = w.HTMLScriptElement;
  if (scriptClass?.supports) {
    const supports = scriptClass.supports.bind(scriptClass);
    lock(scriptClass, "supports", (t: string) => !/^\s*speculationrules\s*$/i.test(String(t)) && supports(t));
  }
  lock(globalThis, "open", () => null);
  const doc = (globalThis as unknown as { Document?: { prototype: { open: (...a: unknown[]) => unknown } } }).Document;
  if (doc) {
    const open = doc.prototype.open;
    lock(doc.prototype, "open", function (this: unknown, ...args: unknown[]) {
      return args.length > 2 ? null : open.apply(this, args);
    });
  }
  // prototypes, not listeners: document.open (the pool writes each task's HTML with it) erases a window's listeners
  type El = {
    target?: string;
    formTarget?: string;
    tagName?: string;
    type?: string;
    form?: El | null;
    ownerDocument?: { querySelector(s: string): El | null };
  };
  const aimed = (target: string | undefined, el: El) => {
    const t = (target || el.ownerDocument?.querySelector("base[target]")?.target || "").toLowerCase();
    return t !== "" && t !== "_self" && t !== "_parent" && t !== "_top";
  };
  /** Whether activating `el` would open another window: a link or area, a submit button or its form, aimed elsewhere. */
  const opens = (el: El | null | undefined) => {
    if (!el) return false;
    const tag = (el.tagName || "").toUpperCase();
    if (tag === "A" || tag === "AREA") return aimed(el.target, el);
    if (tag === "FORM") return aimed(el.target, el);
    if ((tag === "BUTTON" || tag === "INPUT") && (el.type === "submit" || el.type === "image") && el.form)
      return aimed(el.formTarget || el.form.target, el);
    return false;
  };
  const g = globalThis as unknown as {
    HTMLElement?: { prototype: { click(): void } };
    HTMLFormElement?: { prototype: { submit(): void; requestSubmit(s?: El): void } };
    EventTarget?: { prototype: { dispatchEvent(e: { type: string }): boolean } };
  };
  const element = g.HTMLElement?.prototype;
  if (element) {
    const click = element.click;
    lock(element, "click", function (this: El) {
      if (!opens(this)) click.call(this);
    });
  }
  const form = g.HTMLFormElement?.prototype;
  if (form) {
    const submit = form.submit;
    const requestSubmit = form.requestSubmit;
    lock(form, "submit", function (this: El) {
      if (!opens(this)) submit.call(this);
    });
    lock(form, "requestSubmit", function (this: El, submitter?: El) {
      if (!opens(submitter ?? this) && !opens(this)) requestSubmit.call(this, submitter);
    });
  }
  const target = g.EventTarget?.prototype;
  if (target) {
    const dispatch = target.dispatchEvent;
    lock(target, "dispatchEvent", function (this: El, e: { type: string }) {
      return e.type === "click" && opens(this) ? false : dispatch.call(this, e);
    });
  }
}

/** What the guard blocked. `main` is set when the page's own document (or a redirect of it) was refused. */
export interface GuardLog {
  refused: string[];
  main?: string;
  /**
   * A frame navigated to a document other than the task's own (a URL, a redirect, an iframe on the web): the page
   * holds state of a site the next task could reach again, so the pool does not reuse it (pool.ts).
   */
  left?: boolean;
  /**
   * Requests the page made that the guard saw (every URL but data:, blob: and about:blank), its own origin's included,
   * but for Chromium's own /favicon.ico at the document origin.
   */
  requests?: number;
}

/**
 * Whether HTML written into a page could run a script of its own, judged from its text — conservatively: a yes for
 * anything that might, a no only when none of these appears (ASCII case ignored, as the HTML tokenizer does):
 * - a `<script` tag (HTML or SVG);
 * - an event handler attribute (`on` + letters + `=`, anywhere in the text; attribute names are never
 *   character-referenced, so `onerror=` can only be written as such);
 * - an element that holds a document of its own, whose scripts could reach this one: `<iframe` (srcdoc too), `<frame`,
 *   `<frameset`, `<object`, `<embed`, `<applet`, `<portal`, `<fencedframe`;
 * - a `javascript:` URL written out, and `http-equiv` (a meta refresh navigates with no script).
 * What is left cannot run a script in Chromium without a user's click (a link to a character-referenced
 * `javascript:` URL), and nobody clicks in a rendering. The browser pool (pool.ts) lets the next such document
 * be written into the page of the last one, without a navigation, only when both are self-contained in this sense.
 * Text that merely mentions these ("onion=…", a `<script` inside a comment) is a yes: a needless navigation, never a
 * missed script. Source: HTML Living Standard §13.2.5 (tokenization: tag and attribute names), §8.1.8 (event handler
 * content attributes).
 */
export function mayRunScript(html: string): boolean {
  return SCRIPT_VECTORS.test(html);
}

/**
 * Whether HTML could make the page fetch anything — at load, or later (a lazy image, a background only print media
 * shows, requested while page.pdf runs) — judged from its text, conservatively: a yes for `url(`, `image-set(` and
 * `@import` in CSS unless the URL is `data:` or a `#fragment`; `src`, `poster`, `background` attributes (any name
 * ending so, `data-src` included) unless their value is a `data:` URL; every `srcset`; and the elements that fetch by
 * `href`: `<link`, SVG's `<image`, `<use`, `<feImage`. A link (`<a href>`) fetches nothing without a click. The browser
 * pool (pool.ts) writes a task over the last one's document only when that one could not fetch: a request it made
 * late would otherwise reach the guard while the next task's state is in force. Source: HTML Living Standard (the
 * attributes that fetch: img, source, video, audio, track, input type=image, body/table background), CSS Values 4
 * (url(), image-set()), CSS Cascade (@import), SVG 2 (image, use, feImage href).
 */
export function mayFetch(html: string): boolean {
  return FETCH_VECTORS.some((v) => v.test(html));
}

const FETCH_VECTORS = [
  /(?:url|image-set)\s*\(\s*(?!["']?\s*(?:data:|#))/i,
  /@import/i,
  /(?:src|poster|background)\s*=\s*(?!["']?\s*data:)/i,
  /srcset/i,
  /<\s*(?:link|image|use|feimage)\b/i,
];

const SCRIPT_VECTORS =
  /<\s*\/?\s*(?:script|iframe|frame|object|embed|applet|portal|fencedframe)|on[a-z]+\s*=|javascript\s*:|http-equiv/i;

/**
 * A fresh origin to serve one task's HTML from: `https://d<32 hex>.document.invalid`. The document gets a real (secure)
 * origin, so localStorage and relative links behave as on a web server, yet nothing on it reaches the network —
 * `.invalid` never resolves (RFC 2606) and every request to it is answered by the guard. One per task, so a page
 * reused by a later task (pool.ts) cannot reach what an earlier one stored under its origin (localStorage,
 * sessionStorage, IndexedDB). All share one site (document.invalid): a page moving from one to the next stays in its
 * renderer process — a new site per task cost a process per document, ~40 % of the throughput at concurrency 4.
 */
export function documentOrigin(): string {
  const hex = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `https://d${hex}.document.invalid`;
}

/** Files served at the task's document origin by path ("/index.html" → its bytes and type). */
export type LocalFiles = Map<string, { body: string | Uint8Array; contentType: string }>;

/**
 * What the guard of one page answers with: the document origin and the files served there, whether loopback is allowed, the
 * task's `headers` (sent to `headers.origin` only) and the log it fills. Read at every request, so a page guarded
 * before its task is known (a warm page of the browser pool, pool.ts) is given its task's state before it loads it.
 */
export interface GuardState {
  /** The origin `local` is served at (documentOrigin()): requests to it never leave the guard. */
  origin: string;
  allowLoopback: boolean;
  local: LocalFiles;
  headers?: { origin: string; values: Record<string, string> };
  log: GuardLog;
}

/**
 * Installs the guard on `page` with `state` (read at every request). Every request is intercepted from here on: none
 * reaches the network unless refuseUrl lets it; WebSocket, WebRTC and workers are removed from this document and
 * every later one in every frame.
 */
export async function installGuard(page: Page, state: GuardState): Promise<void> {
  await page.setBypassServiceWorker(true);
  // issue 45: no prerender (a prerendered page loads and runs outside this page's interception); CDP, so it holds on
  // Browser Rendering, where no Chromium flag can be set. Prefetch has no such switch: the page script below removes
  // the speculation rules that would ask for one.
  await disallowPrerendering(page);
  // on every document the page loads, and on the one it has now (setContent writes into it)
  await page.evaluateOnNewDocument(disableUninterceptable);
  await page.evaluate(disableUninterceptable);
  // a window opened anyway (a way the page script above does not know) is closed as soon as it appears
  page.browserContext().on("targetcreated", (t) => {
    if (t.type() === "page" && t !== page.target())
      void t.page().then(
        (p) => p?.close().catch(() => {}),
        () => {},
      );
  });
  await page.setRequestInterception(true);
  page.on("request", (r: HTTPRequest) => {
    if (r.isInterceptResolutionHandled()) return;
    const url = r.url();
    if (/^(data|blob):/i.test(url) || url === "about:blank") return void r.continue();
    // Chromium's own request for the icon of a document written into the page (answered 404 below) is not the task's
    if (url !== `${state.origin}/favicon.ico`) state.log.requests = (state.log.requests ?? 0) + 1;
    if (r.isNavigationRequest() && !url.startsWith(`${state.origin}/`)) state.log.left = true;
    if (url.startsWith(`${state.origin}/`)) {
      const file = state.local.get(new URL(url).pathname);
      return void (file
        ? r.respond({ status: 200, contentType: file.contentType, body: file.body as string })
        : r.respond({ status: 404, contentType: "text/plain", body: "not found" }));
    }
    const why = refuseUrl(url, state.allowLoopback);
    if (!why) {
      const own = state.headers && new URL(url).origin === state.headers.origin;
      return void r.continue(own ? { headers: { ...r.headers(), ...state.headers!.values } } : undefined);
    }
    state.log.refused.push(`${url.slice(0, 200)}: ${why}`);
    if (r.isNavigationRequest() && r.frame() === page.mainFrame())
      state.log.main ??= why.replace(/^url /, "the page URL ");
    void r.abort("blockedbyclient");
  });
}

/**
 * Turns prerendering off for `page` (CDP Page.setPrerenderingAllowed, Chromium 115+); a browser without the command
 * leaves it as it is (the speculation rules that would ask for a prerender are removed by the page script anyway).
 */
async function disallowPrerendering(page: Page): Promise<void> {
  const cdp = await page.createCDPSession();
  try {
    await cdp.send("Page.setPrerenderingAllowed" as never, { isAllowed: false } as never);
  } catch {
    // an older browser: the rules are still removed before they act
  }
}
