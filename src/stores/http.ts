/**
 * What the HTTP stores share (issue 35): the SSRF guard on every URL they reach, bodies of known
 * length streamed out of R2, and the development-only base-URL overrides of the stores whose hosts
 * CloudConvert fixes (Azure, Google Cloud Storage).
 */
import { TaskError } from "../engines/errors";
import { refuseUrl } from "../security/ssrf";
import type { RuntimeSettings } from "../settings";
import { PartReader } from "../storage/parts";
import { storeError } from "./errors";
import type { StoreDownload, StoreObject, StoreUpload } from "./types";

/**
 * Throws IMPORT_FORBIDDEN when `url` may not be reached (import/url's guard: loopback only with
 * ALLOW_PRIVATE_IMPORTS=true; private, link-local and metadata addresses never). `field` names the
 * parameter or source of the URL in the message (e.g. "endpoint", "the Keystone catalog").
 */
export function guardUrl(url: string, settings: RuntimeSettings, field: string): void {
  const why = refuseUrl(url, settings.allowPrivateImports);
  if (why) throw new TaskError("IMPORT_FORBIDDEN", `${field}: ${why.replace(/^url /, "")}`);
}

/** A 422 message when `value` is not an http(s) URL the guard could ever accept (creation-time check). */
export function urlProblem(field: string, value: string | undefined): string[] {
  if (value === undefined) return [];
  const why = refuseUrl(value, true);
  return why ? [`${field}: ${why.replace(/^url /, "")}`] : [];
}

/**
 * A request body of exactly `length` bytes from `stream`. In workerd a FixedLengthStream makes
 * fetch send Content-Length rather than chunked encoding (which S3, Azure and GCS refuse for a simple
 * upload) while still streaming; elsewhere (Node unit tests, the browser build) the bytes are read.
 */
export async function sizedBody(body: { stream: ReadableStream<Uint8Array>; length: number }): Promise<BodyInit> {
  const Fixed = (globalThis as { FixedLengthStream?: new (n: number) => TransformStream<Uint8Array, Uint8Array> })
    .FixedLengthStream;
  if (Fixed) {
    const fixed = new Fixed(body.length);
    body.stream.pipeTo(fixed.writable).catch(() => {});
    return fixed.readable as BodyInit;
  }
  return await new Response(body.stream).arrayBuffer();
}

/**
 * The parts of an upload, in order: each `next(offset, n)` answers the next `n` bytes as a stream.
 * With `body.range` (an R2 file) every part is a ranged read, which moves from R2 to the store
 * without passing through JavaScript, and `body.stream` is cancelled; otherwise the parts are cut
 * from `body.stream` (storage/parts.ts). `cancel` stops reading after a failure.
 */
export function partSource(body: StoreUpload): {
  next(offset: number, n: number): Promise<ReadableStream<Uint8Array>>;
  cancel(reason?: unknown): Promise<void>;
} {
  if (body.range) {
    const range = body.range;
    void body.stream.cancel().catch(() => {});
    return { next: (offset, n) => range(offset, n), cancel: async () => {} };
  }
  const src = new PartReader(body.stream);
  return { next: async (_offset, n) => src.part(n), cancel: (reason) => src.cancel(reason) };
}

/** The store's base URL override from the environment, honoured only where private imports are allowed (tests). */
export function devOverride(settings: RuntimeSettings, store: "azureBlob" | "gcs"): string | undefined {
  return settings.allowPrivateImports ? settings.storeEndpoints?.[store] : undefined;
}

/** The text of an error answer, at most 2,000 characters (the store's own words for the task message). */
export async function errorText(res: Response): Promise<string> {
  try {
    return (await res.text()).slice(0, 2000);
  } catch {
    return "";
  }
}

/** Reads `<Tag>value</Tag>` out of an XML error body (S3, Azure), with the five XML entities decoded. */
export function xmlValue(xml: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
  return m ? decodeXml(m[1]) : undefined;
}

/** Every `<Tag>…</Tag>` block of an XML document, in order (list answers). */
export function xmlBlocks(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1]);
}

/** Decodes the XML entities and numeric character references. */
export function decodeXml(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Encodes a store path for a URL path: every segment percent-encoded, the slashes kept. */
export function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/**
 * Every object of a paged list answer, in order: `page(token)` fetches one page ("" for the first) and answers its
 * objects and the next page's token ("" or undefined at the end). Folder markers (paths ending in "/") and empty
 * paths are left out; pages stop once more than `max` objects are listed (the caller reports the cut).
 */
export async function listPages(
  max: number,
  page: (token: string) => Promise<{ objects: StoreObject[]; next?: string }>,
): Promise<StoreObject[]> {
  const out: StoreObject[] = [];
  let token = "";
  do {
    const { objects, next } = await page(token);
    for (const o of objects) if (o.path && !o.path.endsWith("/")) out.push(o);
    token = next ?? "";
  } while (token && out.length <= max);
  return out;
}

/**
 * A download answer as the store's {@link StoreDownload}: its body, its Content-Length and its content type.
 * Throws DOWNLOAD_FAILED (storeError) naming `store` and `what` when the answer has no body or no length.
 */
export function downloadOf(res: Response, store: string, what: string): StoreDownload {
  const length = Number(res.headers.get("content-length") ?? NaN);
  if (!res.body || !Number.isFinite(length))
    throw storeError(store, "download", res.status, "the answer has no Content-Length", { what });
  return { stream: res.body, length, contentType: res.headers.get("content-type") ?? undefined };
}
