/**
 * Signed URLs (issue 18; contract §1.7): `{base}?job={b64url(JSON)}[&cache_key={k}]&s={hex}`,
 * where `s` is the hex HMAC-SHA256, with the base's signing secret, of the URL text before `&s=`
 * exactly as sent (verified over the raw query text, never re-encoded). The job is decoded
 * leniently: the node SDK replaces only the first `+` and `/` (String.replace with a string), so
 * its text may mix `+`, `/`, `-` and `_`, without padding.
 */
import { hmacHex, safeEqual } from "./signing";

/** A signed URL that passed its signature check, with its decoded parts. */
export interface SignedRequest {
  job: unknown;
  cacheKey?: string;
}

/** Why a signed URL is refused: `status` 400 (malformed) or 403 (signature), with a message. */
export interface SignedRefusal {
  status: 400 | 403;
  message: string;
}

/** cache_key: alphanumerics, `-` and `_` (contract §1.7), at most 128. */
const CACHE_KEY = /^[A-Za-z0-9_-]{1,128}$/;
/** Longest `job` parameter accepted, in characters (a job template is small; files belong in imports). */
export const MAX_SIGNED_JOB_CHARS = 64 * 1024;

const uriDecoded = (v: string): string | undefined => {
  try {
    return decodeURIComponent(v);
  } catch {
    return undefined;
  }
};

/** Base64 or base64url text, padded or not, to bytes; null when it is not base64. */
export function decodeLenientBase64(text: string): Uint8Array | null {
  const std = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (!/^[A-Za-z0-9+/]*$/.test(std) || std.length % 4 === 1) return null;
  try {
    return Uint8Array.from(atob(std + "=".repeat((4 - (std.length % 4)) % 4)), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * Checks `rawUrl` (the request URL as received: `{base}?{query}`) against `secret` and decodes it.
 * The signed text is everything before the last `&s=`; `job` must be the first parameter as the
 * SDKs write it.
 */
export async function verifySignedUrl(rawUrl: string, secret: string): Promise<SignedRequest | SignedRefusal> {
  const at = rawUrl.lastIndexOf("&s=");
  if (at < 0 || !rawUrl.includes("?")) return { status: 400, message: "The signed URL has no signature (s)." };
  const signed = rawUrl.slice(0, at);
  const signature = rawUrl.slice(at + 3);
  if (!/^[0-9a-f]{64}$/i.test(signature)) return { status: 403, message: "The signature of this URL is invalid." };
  if (!safeEqual(await hmacHex(secret, signed), signature.toLowerCase()))
    return { status: 403, message: "The signature of this URL is invalid." };
  const query = signed.slice(signed.indexOf("?") + 1);
  let job: string | undefined;
  let cacheKey: string | undefined;
  let badKey = false;
  for (const part of query.split("&")) {
    const eq = part.indexOf("=");
    const [k, v] = eq < 0 ? [part, ""] : [part.slice(0, eq), part.slice(eq + 1)];
    if (k === "job") job = v;
    else if (k === "cache_key") ((cacheKey = uriDecoded(v)), (badKey = cacheKey === undefined));
  }
  if (!job) return { status: 400, message: "The signed URL has no job." };
  if (job.length > MAX_SIGNED_JOB_CHARS)
    return { status: 400, message: `The job of a signed URL is limited to ${MAX_SIGNED_JOB_CHARS} characters.` };
  if (badKey || (cacheKey !== undefined && !CACHE_KEY.test(cacheKey)))
    return { status: 400, message: "cache_key may hold only letters, digits, - and _ (at most 128)." };
  const bytes = decodeLenientBase64(uriDecoded(job) ?? "");
  if (!bytes) return { status: 400, message: "The job of this signed URL is not base64." };
  try {
    return { job: JSON.parse(new TextDecoder().decode(bytes)), ...(cacheKey ? { cacheKey } : {}) };
  } catch {
    return { status: 400, message: "The job of this signed URL is not JSON." };
  }
}
