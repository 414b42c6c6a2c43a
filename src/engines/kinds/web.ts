/**
 * The web kind (kinds/index.ts): a page — a URL, or HTML given as text — rendered by a browser to
 * PDF or an image (capture-website, and convert of html/md). Implemented by the Chrome engine over
 * Cloudflare Browser Rendering (chrome/engine.ts). Options are CloudConvert's (contract §6 "html→pdf
 * (chrome) / capture-website"): lengths in cm (page_width/height) and mm (margins), times in ms.
 */
import type { EngineResult } from "../errors";

/** Paper sizes page_format takes (Chrome's print formats). */
export const PAGE_FORMATS = ["letter", "legal", "tabloid", "ledger", "a0", "a1", "a2", "a3", "a4", "a5", "a6"] as const;
/** When a page counts as loaded (puppeteer's lifecycle events). */
export const WAIT_UNTIL = ["load", "domcontentloaded", "networkidle0", "networkidle2"] as const;

/** The rendering options of one request. */
export interface WebOptions {
  /** Scale of the rendering, 0.1–2 (PDF: Chrome's print scale; images: the device scale factor). */
  zoom?: number;
  /** cm. */
  page_width?: number;
  page_height?: number;
  page_format?: (typeof PAGE_FORMATS)[number];
  page_orientation?: "portrait" | "landscape";
  /** mm. */
  margin_top?: number;
  margin_bottom?: number;
  margin_left?: number;
  margin_right?: number;
  print_background?: boolean;
  display_header_footer?: boolean;
  wait_until?: (typeof WAIT_UNTIL)[number];
  /** A CSS selector waited for after loading. */
  wait_for_element?: string;
  /** ms waited after loading (and after the element). */
  wait_time?: number;
  css_media_type?: "print" | "screen";
  /** Extra HTTP request headers sent to the page's own origin (not to third parties it loads from). */
  headers?: Record<string, string>;
  /** The viewport, px (default 1280 × 800). */
  screen_width?: number;
  screen_height?: number;
  /** Images: the whole page, not just the viewport (default true). */
  full_page?: boolean;
  /** jpg/webp quality 1–100. */
  quality?: number;
}

/** One rendering. */
export interface WebRenderRequest {
  /**
   * The page: an http(s) URL, or HTML text served as `name` from a local origin of its own
   * (chrome/guard.ts documentOrigin, one per task: localStorage works, relative links resolve there and find nothing).
   */
  source: { url: string } | { html: string; name?: string };
  output: "pdf" | "png" | "jpg" | "webp";
  options: WebOptions;
  /** HTML of the header and footer templates (classes date, title, url, pageNumber, totalPages). */
  headerTemplate?: string;
  footerTemplate?: string;
  /** ALLOW_PRIVATE_IMPORTS: the page may reach loopback (development only). */
  allowLoopback: boolean;
}

/** The web engine. Failures are data: IMPORT_FORBIDDEN (a refused page URL), TIMEOUT, CONVERSION_FAILED, ENGINE_UNAVAILABLE. */
export interface WebEngine {
  /** The rendering; `pages` for a PDF; `refused` lists subresources the SSRF guard blocked. */
  render(req: WebRenderRequest): Promise<EngineResult<{ data: Uint8Array; pages: number | null; refused: string[] }>>;
}
