/**
 * A loopback test double of Google Cloud Storage — NOT a real server (issue 35; storage-connectors.md
 * §4.4: no GCS server runs offline; firebase-tools' emulator downloads a JAR at start and never
 * checks tokens). It does what the connector's correctness depends on, checked independently of the
 * project's code with node:crypto:
 * - POST /token verifies the RS256 JWT assertion against the test's public key and checks iss,
 *   aud (its own /token URL), exp, iat, scope and grant_type; a bad signature is 400 invalid_grant;
 * - the JSON API routes (media upload, alt=media download, list with prefix and paging) require the
 *   bearer token it issued; a read-only token cannot upload (403); an unknown bucket is 404.
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
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections(); // workerd's kept-alive sockets would hold close() open
      }),
  };
}
