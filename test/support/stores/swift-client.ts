/**
 * The oracle of the S3 and OpenStack tests (issue 35): Swift's own object API (v1), reached with
 * tempauth (X-Auth-User/X-Auth-Key) or a Keystone token — not S3, not SigV4, no code of this
 * project. It seeds the objects an import reads and reads back what an export wrote.
 */

/** A Swift account: its storage URL and token. */
export interface SwiftAccount {
  url: string;
  token: string;
}

/** Logs in with tempauth v1.0 (`user` is "account:user"). */
export async function tempauth(base: string, user: string, key: string): Promise<SwiftAccount> {
  const r = await fetch(`${base}/auth/v1.0`, { headers: { "x-auth-user": user, "x-auth-key": key } });
  if (!r.ok) throw new Error(`tempauth: HTTP ${r.status}`);
  return { url: r.headers.get("x-storage-url")!, token: r.headers.get("x-auth-token")! };
}

const path = (p: string) => p.split("/").map(encodeURIComponent).join("/");

/** Creates a container (idempotent). */
export async function createContainer(a: SwiftAccount, container: string): Promise<void> {
  const r = await fetch(`${a.url}/${path(container)}`, { method: "PUT", headers: { "x-auth-token": a.token } });
  if (r.status !== 201 && r.status !== 202) throw new Error(`PUT container ${container}: HTTP ${r.status}`);
}

/** Writes one object. */
export async function putObject(
  a: SwiftAccount,
  container: string,
  name: string,
  data: Uint8Array,
  type = "application/octet-stream",
) {
  const r = await fetch(`${a.url}/${path(container)}/${path(name)}`, {
    method: "PUT",
    headers: { "x-auth-token": a.token, "content-type": type },
    body: data as Uint8Array<ArrayBuffer>,
  });
  if (r.status !== 201) throw new Error(`PUT ${container}/${name}: HTTP ${r.status}`);
}

/** Reads one object: its bytes and headers, or null when absent. */
export async function getObject(
  a: SwiftAccount,
  container: string,
  name: string,
): Promise<{ bytes: Uint8Array; headers: Headers } | null> {
  const r = await fetch(`${a.url}/${path(container)}/${path(name)}`, { headers: { "x-auth-token": a.token } });
  if (r.status === 404) return null;
  if (!r.ok) throw new Error(`GET ${container}/${name}: HTTP ${r.status}`);
  return { bytes: new Uint8Array(await r.arrayBuffer()), headers: r.headers };
}

/** Object names of a container (JSON listing), with sizes. */
export async function listObjects(a: SwiftAccount, container: string): Promise<{ name: string; bytes: number }[]> {
  const r = await fetch(`${a.url}/${path(container)}?format=json`, { headers: { "x-auth-token": a.token } });
  if (!r.ok) throw new Error(`list ${container}: HTTP ${r.status}`);
  return (await r.json()) as { name: string; bytes: number }[];
}
