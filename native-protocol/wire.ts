/**
 * The native engine's HTTP wire, shared by the server (container/server.ts) and the Worker's
 * client (src/engines/native/client.ts). One shape for every call:
 *
 *   POST /invoke/<engine>/<method>   body: multipart/form-data, part "json" = the request as JSON with
 *                                    every byte array replaced by {"$bytes": i}, parts "b0", "b1", … = the bytes
 *   200                              the answer in the same framing: an EngineResult as data
 *                                    ({ok: true, engineVersion, …} or {ok: false, error: {code, message, retryable}})
 *   GET /health                      {tools: ToolStatus[]}: which native tools this host has
 *
 * Only parameters and file bytes cross (DESIGN.md principle 11, issue 12); errors are data, never
 * HTTP statuses, except 400 for a malformed body, 404 for an unknown engine or method and 413 for a body over the
 * server's limit (NATIVE_MAX_BODY_MB, container/server.ts); those three answer JSON {message}.
 * A call carrying a file as a stream (issue 35) uses the framed variant instead: frame.ts.
 */

/** Request header: milliseconds the caller will wait; the server caps every tool run by it. */
export const DEADLINE_HEADER = "x-native-timeout-ms";

/** One native tool as GET /health reports it. */
export interface ToolStatus {
  /** Tool name as tasks report it (`engine`): ghostscript, libreoffice, qpdf, imagemagick, graphicsmagick. */
  name: string;
  /** Version the tool printed, or null when it is not installed. */
  version: string | null;
  /** The Debian packages that provide it (what to install when `version` is null). */
  packages: string[];
}

/** GET /health answer. */
export interface Health {
  tools: ToolStatus[];
}

const BYTES = "$bytes";

/**
 * Packs `value` into multipart form data: byte arrays (anywhere in the tree) become parts, the rest
 * JSON. Inverse of {@link unpack}.
 */
export function pack(value: unknown): FormData {
  const parts: Uint8Array[] = [];
  const walk = (v: unknown): unknown => {
    if (v instanceof Uint8Array) return { [BYTES]: parts.push(v) - 1 };
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const json = JSON.stringify(walk(value) ?? null);
  const form = new FormData();
  form.append("json", json);
  parts.forEach((p, i) => form.append(`b${i}`, new Blob([p as Uint8Array<ArrayBuffer>]), `b${i}`));
  return form;
}

/**
 * Reads what {@link pack} wrote.
 * @throws Error when the "json" part is missing or a {"$bytes": i} names no part
 */
export async function unpack(form: FormData): Promise<unknown> {
  const json = form.get("json");
  if (typeof json !== "string") throw new Error('native wire: the "json" part is missing');
  const files = new Map<number, Uint8Array>();
  for (const [name, v] of form.entries()) {
    if (/^b\d+$/.test(name) && typeof v !== "string")
      files.set(Number(name.slice(1)), new Uint8Array(await v.arrayBuffer()));
  }
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      if (typeof o[BYTES] === "number" && Object.keys(o).length === 1) {
        const b = files.get(o[BYTES] as number);
        if (!b) throw new Error(`native wire: byte part b${o[BYTES]} is missing`);
        return b;
      }
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(JSON.parse(json));
}
