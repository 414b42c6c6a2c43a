/**
 * Downloads of exported files (contract §1.9): plain GETs without auth, authorised by an expiring
 * HMAC signature; the right Content-Type, Content-Disposition (attachment, or inline) and ETag.
 */
import { Hono } from "hono";
import { contentTypeOf } from "../operations/io/filenames";
import { signingSecret } from "../settings";
import { checkFileGrant } from "../security/signing";
import { filenameOfKey } from "../storage/keys";
import type { AppEnv } from "./context";
import { ApiError, notFound } from "./errors";

export const files = new Hono<AppEnv>();

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name. */
export function disposition(kind: "inline" | "attachment", filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The R2 key of a download path: each segment percent-decoded. @throws ApiError 400 on a malformed escape ("%", "%zz") */
function decodedKey(path: string): string {
  try {
    return path.split("/").map(decodeURIComponent).join("/");
  } catch {
    throw new ApiError(400, "The file path is not valid percent-encoding.", "INVALID_DATA");
  }
}

files.on(["GET", "HEAD"], "/v2/files/*", async (c) => {
  const url = new URL(c.req.url);
  const key = decodedKey(url.pathname.slice("/v2/files/".length));
  const inline = url.searchParams.get("inline") === "1";
  const refused = await checkFileGrant(
    signingSecret(c.env),
    { key, expires: Number(url.searchParams.get("expires")), inline },
    url.searchParams.get("signature") ?? "",
    Math.floor(Date.now() / 1000),
  );
  if (refused) throw new ApiError(403, refused, "FORBIDDEN");
  const obj = c.req.method === "HEAD" ? await c.env.FILES.head(key) : await c.env.FILES.get(key);
  if (!obj) throw notFound("The file no longer exists.");
  const filename = filenameOfKey(key);
  const headers = {
    "content-type": obj.httpMetadata?.contentType ?? contentTypeOf(filename),
    "content-disposition": disposition(inline ? "inline" : "attachment", filename),
    "content-length": String(obj.size),
    etag: obj.httpEtag,
    "cache-control": "private, max-age=3600",
  };
  return new Response("body" in obj ? (obj as R2ObjectBody).body : null, { status: 200, headers });
});
