/**
 * Google's service-account flow with WebCrypto only (storage-connectors.md §3.3): an RS256 JWT
 * assertion `{iss: client_email, scope, aud: token URL, iat, exp: iat + 3600}` signed with the
 * account's PKCS#8 private key, exchanged at the token URL (grant_type jwt-bearer) for a bearer token.
 */
import { TaskError } from "../../engines/errors";

/** OAuth scopes: read for imports, read and write for exports. */
export const GCS_SCOPES = {
  import: "https://www.googleapis.com/auth/devstorage.read_only",
  export: "https://www.googleapis.com/auth/devstorage.read_write",
} as const;

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/**
 * The DER bytes of a PEM private key; literal "\n" sequences (keys pasted from the JSON key file
 * keep them) are turned into newlines first.
 * @throws TaskError INVALID_CREDENTIALS when it is not a "PRIVATE KEY" PEM block
 */
export function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const text = pem.replace(/\\n/g, "\n");
  const m = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/.exec(text);
  if (!m)
    throw new TaskError("INVALID_CREDENTIALS", "private_key is not a PKCS#8 PEM key (-----BEGIN PRIVATE KEY-----).");
  try {
    return Uint8Array.from(atob(m[1].replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  } catch {
    throw new TaskError("INVALID_CREDENTIALS", "private_key is not valid base64 inside its PEM block.");
  }
}

/** The signed JWT assertion for `clientEmail` with `scope`, audience `aud`, issued at `iat` (seconds). */
export async function signAssertion(
  privateKeyPem: string,
  clientEmail: string,
  scope: string,
  aud: string,
  iat: number,
): Promise<string> {
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey(
      "pkcs8",
      pemToDer(privateKeyPem),
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      false,
      ["sign"],
    );
  } catch (err) {
    if (err instanceof TaskError) throw err;
    throw new TaskError(
      "INVALID_CREDENTIALS",
      `private_key could not be read as an RSA key: ${(err as Error).message}`,
    );
  }
  const enc = (o: unknown) => b64url(new TextEncoder().encode(JSON.stringify(o)));
  const unsigned = `${enc({ alg: "RS256", typ: "JWT" })}.${enc({ iss: clientEmail, scope, aud, iat, exp: iat + 3600 })}`;
  const sig = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, new TextEncoder().encode(unsigned));
  return `${unsigned}.${b64url(new Uint8Array(sig))}`;
}
