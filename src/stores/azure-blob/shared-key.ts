/**
 * Azure Storage Shared Key authorisation (x-ms-version ≥ 2015-02-21), with WebCrypto only
 * (storage-connectors.md §3.2; Microsoft's "Authorize with Shared Key" page): the string to sign is
 * the verb, eleven standard headers (Content-Length empty when 0), the canonicalised `x-ms-*`
 * headers and the canonicalised resource `/{account}{path}` plus `\nname:value` per query parameter.
 */

/** The standard headers of the string to sign, in order. */
const STANDARD = [
  "content-encoding",
  "content-language",
  "content-length",
  "content-md5",
  "content-type",
  "date",
  "if-modified-since",
  "if-match",
  "if-none-match",
  "if-unmodified-since",
  "range",
] as const;

/** The string to sign of a request to `url` with `headers` (lower-case names). */
export function stringToSign(method: string, url: URL, headers: Record<string, string>, account: string): string {
  const std = STANDARD.map((h) => (h === "content-length" && headers[h] === "0" ? "" : (headers[h] ?? "")));
  const ms = Object.keys(headers)
    .filter((h) => h.startsWith("x-ms-"))
    .sort()
    .map((h) => `${h}:${headers[h].trim()}\n`)
    .join("");
  const params = new Map<string, string[]>();
  for (const [k, v] of url.searchParams) params.set(k.toLowerCase(), [...(params.get(k.toLowerCase()) ?? []), v]);
  const query = [...params.keys()]
    .sort()
    .map((k) => `\n${k}:${params.get(k)!.sort().join(",")}`)
    .join("");
  return [method.toUpperCase(), ...std].join("\n") + "\n" + ms + `/${account}${url.pathname}` + query;
}

/** `SharedKey account:signature` for the request; `key` is the base64 account key. */
export async function sharedKeyAuthorization(
  method: string,
  url: URL,
  headers: Record<string, string>,
  account: string,
  key: string,
): Promise<string> {
  const raw = Uint8Array.from(atob(key), (c) => c.charCodeAt(0));
  const k = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = await crypto.subtle.sign(
    "HMAC",
    k,
    new TextEncoder().encode(stringToSign(method, url, headers, account)),
  );
  return `SharedKey ${account}:${btoa(String.fromCharCode(...new Uint8Array(sig)))}`;
}
