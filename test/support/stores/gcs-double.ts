/**
 * A loopback test double of Google Cloud Storage — NOT a real server (issue 35; storage-connectors.md
 * §4.4: no GCS server runs offline; firebase-tools' emulator downloads a JAR at start and never
 * checks tokens). It does what the connector's correctness depends on, checked independently of the
 * project's code with node:crypto:
 * - POST /token verifies the RS256 JWT assertion against the test's public key and checks iss,
 *   aud (its own /token URL), exp, iat, scope and grant_type; a bad signature is 400 invalid_grant;
 * - the JSON API routes (media upload, alt=media download, list with prefix and paging) require the
 *   bearer token it issued; a read-only token cannot upload (403); an unknown bucket is 404;
 * - resumable uploads as Google documents them: POST uploadType=resumable opens a session (Location
 *   header) for X-Upload-Content-Length bytes; each PUT to it carries `Content-Range: bytes a-b/total`
 *   starting where the last ended, every chunk but the last a multiple of 256 KiB (else 400); 308
 *   with `Range` until the last byte, then 200; DELETE cancels (499). `resumable` records each
 *   finished session's chunk count, for tests that the upload went in chunks.
 * Objects live in `buckets` (bucket → name → {bytes, contentType}), which the tests read directly.
 */
import { createVerify, generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface GcsDouble {
  base: string;
  clientEmail: string;
  /** The service account's private key, PKCS#8 PEM (as in a JSON key file). */
  privateKey: string;
  buckets: Map<string, Map<string, { bytes: Uint8Array; contentType: string }>>;
  /** Finished resumable uploads: object name and how many chunks it came in. */
  resumable: { name: string; chunks: number }[];
  /** Assertions refused, with the reason (the tests check a forged key was refused for its signature). */
  refused: string[];
  stop(): Promise<void>;
}

const READ = "https://www.googleapis.com/auth/devstorage.read_only";
const WRITE = "https://www.googleapis.com/auth/devstorage.read_write";

export async function startGcsDouble(): Promise<GcsDouble> {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const clientEmail = "converter@e2e-project.iam.gserviceaccount.com";
  const tokens = new Map<string, { scope: string; exp: number }>();
  const buckets: GcsDouble["buckets"] = new Map();
  const refused: string[] = [];
  const resumable: GcsDouble["resumable"] = [];
  const sessions = new Map<
    string,
    { bucket: string; name: string; contentType: string; total: number; parts: Buffer[]; at: number }
  >();
  let base = "";
  const json = (res: import("node:http").ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const fail = (res: import("node:http").ServerResponse, status: number, message: string) =>
    json(res, status, { error: { code: status, message } });
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", base);
    if (req.method === "POST" && url.pathname === "/token") {
      const form = new URLSearchParams(body.toString());
      const refuse = (why: string) => (
        refused.push(why),
        json(res, 400, { error: "invalid_grant", error_description: why })
      );
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return refuse("grant_type");
      const [h, p, s] = (form.get("assertion") ?? "").split(".");
      if (!s) return refuse("malformed assertion");
      const ok = createVerify("RSA-SHA256").update(`${h}.${p}`).verify(publicKey, Buffer.from(s, "base64url"));
      if (!ok) return refuse("Invalid JWT Signature.");
      const header = JSON.parse(Buffer.from(h, "base64url").toString());
      const claims = JSON.parse(Buffer.from(p, "base64url").toString());
      const now = Math.floor(Date.now() / 1000);
      if (header.alg !== "RS256") return refuse("alg");
      if (claims.iss !== clientEmail) return refuse("iss");
      if (claims.aud !== `${base}/token`) return refuse("aud");
      if (!(claims.exp > now && claims.exp - claims.iat <= 3600 && claims.iat <= now + 60)) return refuse("exp/iat");
      if (claims.scope !== READ && claims.scope !== WRITE) return refuse("scope");
      const token = randomBytes(16).toString("hex");
      tokens.set(token, { scope: claims.scope, exp: now + 3600 });
      return json(res, 200, { access_token: token, expires_in: 3600, token_type: "Bearer" });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const grant = bearer ? tokens.get(bearer) : undefined;
    if (!grant) return fail(res, 401, "Invalid Credentials");
    const m = /^(\/upload)?\/storage\/v1\/b\/([^/]+)\/o(?:\/(.+))?$/.exec(url.pathname);
    if (!m) return fail(res, 404, "Not Found");
    const bucket = buckets.get(decodeURIComponent(m[2]));
    if (!bucket) return fail(res, 404, "The specified bucket does not exist.");
    const uploadId = url.searchParams.get("upload_id");
    if (m[1] && uploadId) {
      const u = sessions.get(uploadId);
      if (!u) return fail(res, 404, "No such upload session");
      if (req.method === "DELETE") return (sessions.delete(uploadId), res.writeHead(499).end());
      if (req.method !== "PUT") return fail(res, 400, "unsupported request");
      const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(req.headers["content-range"] ?? "");
      if (!range) return fail(res, 400, "Content-Range missing or malformed");
      const [a, b, total] = range.slice(1).map(Number);
      if (total !== u.total || a !== u.at || b - a + 1 !== body.byteLength)
        return fail(res, 400, `Content-Range ${range[0]} does not follow byte ${u.at} of ${u.total}`);
      if (b + 1 < total && body.byteLength % (256 * 1024)) return fail(res, 400, "chunk not a multiple of 256 KiB");
      u.parts.push(body);
      u.at = b + 1;
      if (u.at < u.total) return res.writeHead(308, { range: `bytes=0-${u.at - 1}` }).end();
      sessions.delete(uploadId);
      buckets.get(u.bucket)!.set(u.name, { bytes: new Uint8Array(Buffer.concat(u.parts)), contentType: u.contentType });
      resumable.push({ name: u.name, chunks: u.parts.length });
      return json(res, 200, { name: u.name, size: String(u.total) });
    }
    if (m[1] && req.method === "POST" && url.searchParams.get("uploadType") === "resumable") {
      if (grant.scope !== WRITE) return fail(res, 403, "Insufficient Permission: storage.objects.create");
      const meta = JSON.parse(body.toString() || "{}");
      const name = url.searchParams.get("name") ?? meta.name;
      const total = Number(req.headers["x-upload-content-length"]);
      if (!name || !Number.isSafeInteger(total)) return fail(res, 400, "name and X-Upload-Content-Length required");
      const id = randomBytes(8).toString("hex");
      const contentType = String(req.headers["x-upload-content-type"] ?? meta.contentType ?? "");
      sessions.set(id, { bucket: decodeURIComponent(m[2]), name, contentType, total, parts: [], at: 0 });
      const location = `${base}/upload/storage/v1/b/${m[2]}/o?uploadType=resumable&upload_id=${id}`;
      return res.writeHead(200, { location }).end();
    }
    if (m[1] && req.method === "POST" && url.searchParams.get("uploadType") === "media") {
      if (grant.scope !== WRITE) return fail(res, 403, "Insufficient Permission: storage.objects.create");
      const name = url.searchParams.get("name")!;
      if (Number(req.headers["content-length"]) !== body.byteLength) return fail(res, 400, "Content-Length mismatch");
      bucket.set(name, { bytes: new Uint8Array(body), contentType: req.headers["content-type"] ?? "" });
      return json(res, 200, { name, size: String(body.byteLength) });
    }
    if (req.method === "GET" && m[3] && url.searchParams.get("alt") === "media") {
      const o = bucket.get(decodeURIComponent(m[3]));
      if (!o) return fail(res, 404, `No such object: ${decodeURIComponent(m[3])}`);
      return res.writeHead(200, { "content-type": o.contentType, "content-length": o.bytes.byteLength }).end(o.bytes);
    }
    if (req.method === "GET" && !m[3]) {
      const prefix = url.searchParams.get("prefix") ?? "";
      const max = Math.min(Number(url.searchParams.get("maxResults") ?? 1000), 2); // pages of 2: the client must follow nextPageToken
      const names = [...bucket.keys()].filter((n) => n.startsWith(prefix)).sort();
      const from = Number(url.searchParams.get("pageToken") ?? 0);
      const page = names.slice(from, from + max);
      return json(res, 200, {
        kind: "storage#objects",
        items: page.map((name) => ({ name, size: String(bucket.get(name)!.bytes.byteLength) })),
        ...(from + max < names.length ? { nextPageToken: String(from + max) } : {}),
      });
    }
    fail(res, 400, "unsupported request");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    clientEmail,
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    buckets,
    refused,
    resumable,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections(); // workerd's kept-alive sockets would hold close() open
      }),
  };
}
