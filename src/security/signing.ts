/**
 * HMAC-SHA256 signing with WebCrypto: export URLs, upload forms (issue 2) and webhook signatures
 * (contract §4: lowercase hex HMAC-SHA256 of the raw body).
 */
const enc = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(secret: string): Promise<CryptoKey> {
  let k = keys.get(secret);
  if (!k) {
    k = crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, k);
  }
  return k;
}

/** Lowercase hex HMAC-SHA256 of `message` under `secret`. */
export async function hmacHex(secret: string, message: string | Uint8Array): Promise<string> {
  const sig = await crypto.subtle.sign(
    "HMAC",
    await keyFor(secret),
    typeof message === "string" ? enc.encode(message) : (message as Uint8Array<ArrayBuffer>),
  );
  return [...new Uint8Array(sig)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Constant-time comparison of two hex strings. */
export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}

/** What a signed file URL grants: a FileStore key, until `expires` (unix seconds), with a disposition. */
export interface FileGrant {
  key: string;
  expires: number;
  inline: boolean;
}

const grantMessage = (g: FileGrant) => `file:${g.key}:${g.expires}:${g.inline ? "inline" : "attachment"}`;

/** Builds the public URL of a stored file: `${base}/v2/files/<key>?expires=..&inline=..&signature=..`. */
export async function signFileUrl(base: string, secret: string, g: FileGrant): Promise<string> {
  const sig = await hmacHex(secret, grantMessage(g));
  const path = g.key.split("/").map(encodeURIComponent).join("/");
  return `${base}/v2/files/${path}?expires=${g.expires}${g.inline ? "&inline=1" : ""}&signature=${sig}`;
}

/** Verifies a file grant; returns a reason when refused ("expired", "bad signature"), null when valid. */
export async function checkFileGrant(
  secret: string,
  g: FileGrant,
  signature: string,
  nowS: number,
): Promise<string | null> {
  if (!Number.isFinite(g.expires) || g.expires < nowS) return "The download link has expired.";
  const want = await hmacHex(secret, grantMessage(g));
  return safeEqual(want, signature) ? null : "The download link signature is invalid.";
}

/** Signature of an upload form for one task, valid until `expires` (unix seconds). */
export function uploadSignature(secret: string, jobId: string, taskId: string, expires: number): Promise<string> {
  return hmacHex(secret, `upload:${jobId}:${taskId}:${expires}`);
}
