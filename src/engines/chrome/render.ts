/**
 * One rendering on a guarded page (issue 14; shared by the per-task engine, engine.ts, and the browser pool,
 * pool.ts, issue 37): the task's viewport and media type, the page loaded — a URL by navigation; HTML served by the
 * guard at the page's document origin (guard.ts documentOrigin, one per task), written into the page (`setContent`)
 * when the page already stands there, else by navigation to it —, the waits, then `page.pdf` or a screenshot. Failures are data (TIMEOUT, IMPORT_FORBIDDEN, CONVERSION_FAILED; a failure
 * of the browser itself is `broken`).
 */
import { TimeoutError, type Page, type PDFOptions } from "@cloudflare/puppeteer";
import { PDFDocument } from "@cantoo/pdf-lib";
import type { TaskErrorCode } from "../errors";
import type { GuardState, LocalFiles } from "./guard";
import type { WebEngine, WebRenderRequest } from "../kinds/web";
import { CHROME_ENGINE } from "./version";

/** What the web engine answers for one rendering. */
export type WebAnswer = Awaited<ReturnType<WebEngine["render"]>>;

/** A failure as data. */
export const fail = (
  code: TaskErrorCode,
  message: string,
  engineVersion: string = CHROME_ENGINE.version,
  retryable = false,
): WebAnswer => ({ ok: false as const, error: { code, message, retryable }, engineVersion });

/** Failures of the browser itself, not of the page: the task is tried once more on a fresh browser. */
export const BROWSER_FAILURE =
  /Target closed|Session closed|Protocol error|Connection closed|Execution context was destroyed|detached Frame|frame was detached/i;

/** The viewport a page is rendered in unless the task sets screen_width/screen_height, px. */
export const DEFAULT_VIEWPORT = { width: 1280, height: 800, deviceScaleFactor: 1 };

/** "HeadlessChrome/156.0.7489.0" → "156.0.7489.0". */
export const versionOf = (v: string) => /([\d.]+)\s*$/.exec(v)?.[1] ?? v;

/** The origin of a URL ("" when it does not parse; the guard refuses it anyway). */
const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
};

/** Chrome's PDF options from CloudConvert's (cm, mm, booleans). */
export function pdfOptions(req: WebRenderRequest, timeout: number): PDFOptions {
  const o = req.options;
  const mm = (v: number | undefined, fallback: number) => `${v ?? fallback}mm`;
  const hf = o.display_header_footer === true;
  return {
    ...(o.page_width || o.page_height
      ? { width: `${o.page_width ?? 21}cm`, height: `${o.page_height ?? 29.7}cm` }
      : { format: (o.page_format ?? "a4") as PDFOptions["format"] }),
    landscape: o.page_orientation === "landscape",
    margin: {
      top: mm(o.margin_top, hf ? 20 : 10),
      bottom: mm(o.margin_bottom, hf ? 20 : 10),
      left: mm(o.margin_left, 10),
      right: mm(o.margin_right, 10),
    },
    printBackground: o.print_background ?? true,
    displayHeaderFooter: hf,
    ...(hf
      ? { headerTemplate: req.headerTemplate ?? "<span></span>", footerTemplate: req.footerTemplate ?? "<span></span>" }
      : {}),
    scale: o.zoom ?? 1,
    timeout,
  };
}

/** Fills `state` (the page's guard, guard.ts) with the task's files, loopback rule and headers; returns the document's path. */
export function stateFor(req: WebRenderRequest, state: GuardState): string {
  const local: LocalFiles = new Map();
  const docPath = "html" in req.source ? `/${encodeURIComponent(req.source.name ?? "index.html")}` : "";
  if ("html" in req.source) local.set(docPath, { body: req.source.html, contentType: "text/html; charset=utf-8" });
  state.local = local;
  state.allowLoopback = req.allowLoopback;
  state.headers =
    "url" in req.source && req.options.headers && Object.keys(req.options.headers).length
      ? { origin: originOf(req.source.url), values: req.options.headers }
      : undefined;
  state.log = { refused: [] };
  return docPath;
}

/** How the page is loaded and what bounds it. */
export interface RenderOn {
  page: Page;
  /** The page's guard state (already installed on `page`). */
  state: GuardState;
  engineVersion: string;
  /** ms left of the task. */
  left: () => number;
  /**
   * The page stands at a blank document of `state.origin` already (a warm page of the pool): HTML is written into it
   * (document.open keeps the origin), no navigation.
   */
  atDocumentOrigin: boolean;
  /** Profile marks (WEB_PROFILE=1). */
  mark: (phase: string) => void;
  /** The task was cancelled (its answer is CANCELLED). */
  cancelled: () => boolean;
}

/**
 * Renders `req` on `on.page`. `broken` says the browser failed under the page (not the page itself). The page is
 * neither closed nor released here.
 */
export async function renderOn(req: WebRenderRequest, on: RenderOn): Promise<{ answer: WebAnswer; broken: boolean }> {
  const { page, state, engineVersion, left, mark } = on;
  try {
    const docPath = stateFor(req, state);
    const log = state.log;
    const o = req.options;
    const viewport = {
      width: o.screen_width ?? DEFAULT_VIEWPORT.width,
      height: o.screen_height ?? DEFAULT_VIEWPORT.height,
      deviceScaleFactor: req.output === "pdf" ? 1 : (o.zoom ?? 1),
    };
    // a warm page has the default viewport already: setting it again costs a relayout (~25 ms)
    const now = page.viewport();
    if (
      !now ||
      now.width !== viewport.width ||
      now.height !== viewport.height ||
      (now.deviceScaleFactor ?? 1) !== viewport.deviceScaleFactor
    )
      await page.setViewport(viewport);
    if (o.css_media_type) await page.emulateMediaType(o.css_media_type);
    mark("viewport");
    const waitUntil = o.wait_until ?? "load";
    try {
      if ("html" in req.source && on.atDocumentOrigin) {
        // the document's own path, then its HTML written into the page (every request it makes still passes the guard)
        await page.evaluate(
          (p: string) =>
            (
              globalThis as unknown as { history: { replaceState(s: null, t: string, u: string): void } }
            ).history.replaceState(null, "", p),
          docPath,
        );
        await page.setContent(req.source.html, { waitUntil, timeout: left() });
      } else {
        await page.goto("url" in req.source ? req.source.url : `${state.origin}${docPath}`, {
          waitUntil,
          timeout: left(),
        });
      }
    } catch (err) {
      if (log.main) return { answer: fail("IMPORT_FORBIDDEN", `${log.main}`, engineVersion), broken: false };
      throw err;
    }
    mark("goto");
    if (log.main) return { answer: fail("IMPORT_FORBIDDEN", log.main, engineVersion), broken: false };
    if (o.wait_for_element) await page.waitForSelector(o.wait_for_element, { timeout: left() });
    if (o.wait_time) await new Promise((r) => setTimeout(r, Math.min(o.wait_time!, left())));
    let data: Uint8Array;
    let pages: number | null = null;
    if (req.output === "pdf") {
      data = await page.pdf(pdfOptions(req, left()));
      mark("print");
      pages = await PDFDocument.load(data, { updateMetadata: false })
        .then((d) => d.getPageCount())
        .catch(() => null);
      mark("count");
    } else {
      const type = req.output === "jpg" ? "jpeg" : req.output;
      data = await page.screenshot({
        type,
        fullPage: o.full_page ?? true,
        ...(type !== "png" && o.quality ? { quality: o.quality } : {}),
        captureBeyondViewport: true,
      });
      mark("print");
    }
    return {
      answer: { ok: true as const, engineVersion, data: new Uint8Array(data), pages, refused: log.refused },
      broken: false,
    };
  } catch (err) {
    return { answer: failureOf(err, engineVersion, on.cancelled()), broken: isBrowserFailure(err, on.cancelled()) };
  }
}

/** A browser failure (not the page's, not a cancellation's). */
const isBrowserFailure = (err: unknown, cancelled: boolean) =>
  !cancelled && !isTimeout(err) && BROWSER_FAILURE.test(err instanceof Error ? err.message : String(err));

const isTimeout = (err: unknown) =>
  err instanceof TimeoutError || /timeout|timed out/i.test(err instanceof Error ? err.message : String(err));

/** A thrown error of a rendering as a task failure. */
export function failureOf(err: unknown, engineVersion: string, cancelled: boolean): WebAnswer {
  const message = err instanceof Error ? err.message : String(err);
  if (cancelled) return fail("CANCELLED", "The task was cancelled.", engineVersion);
  if (isTimeout(err))
    return fail("TIMEOUT", `The page did not finish within the task's time (${message.slice(0, 200)}).`, engineVersion);
  if (BROWSER_FAILURE.test(message))
    return fail(
      "CONVERSION_FAILED",
      `The browser failed while rendering: ${message.slice(0, 300)}`,
      engineVersion,
      true,
    );
  return fail("CONVERSION_FAILED", `The page could not be rendered: ${message.slice(0, 300)}`, engineVersion);
}
