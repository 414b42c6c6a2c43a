/**
 * The page's SSRF guard (issue 14): every request the page makes — its own URL, each redirect hop
 * and every subresource — passes the same check as import/url (security/ssrf.ts refuseUrl) through
 * request interception; data: and blob: subresources are local to the page. What interception
 * cannot see is switched off before any script runs: WebSocket, WebRTC and (shared) workers, whose
 * connections bypass it, and service workers.
 */
import type { HTTPRequest, Page } from "@cloudflare/puppeteer";
import { refuseUrl } from "../../security/ssrf";

/** Removes the APIs whose connections request interception does not see (runs in the page). */
function disableUninterceptable(): void {
  for (const name of ["WebSocket", "RTCPeerConnection", "webkitRTCPeerConnection", "Worker", "SharedWorker"]) {
    try {
      Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false });
    } catch {
      // already locked
    }
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
}

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
  // on every document the page loads, and on the one it has now (setContent writes into it)
  await page.evaluateOnNewDocument(disableUninterceptable);
  await page.evaluate(disableUninterceptable);
  await page.setRequestInterception(true);
  page.on("request", (r: HTTPRequest) => {
    if (r.isInterceptResolutionHandled()) return;
    const url = r.url();
    if (/^(data|blob):/i.test(url) || url === "about:blank") return void r.continue();
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
