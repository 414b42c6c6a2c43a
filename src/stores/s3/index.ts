/**
 * import/s3 and export/s3 (issue 35; storage-connectors.md §2.1, §2.2, §3.1): Amazon S3 and every
 * S3-compatible store through `endpoint` (R2, MinIO, DigitalOcean Spaces, Backblaze B2, Wasabi,
 * Swift's s3api), signed with SigV4 by aws4fetch over the Worker's fetch and WebCrypto.
 *
 * Bodies stream with `X-Amz-Content-Sha256: UNSIGNED-PAYLOAD` (aws4fetch sets it for service s3),
 * and aws4fetch's own retries are off (`retries: 0`): a streamed body cannot be sent twice, so 5xx
 * and 429 become retryable task errors and the runner retries with back-off.
 *
 * Size: a file up to RuntimeSettings.storePartBytes (STORE_PART_BYTES, default 64 MiB) is one PUT;
 * a larger one is a multipart upload (CreateMultipartUpload, UploadPart of that size streamed out of
 * R2, CompleteMultipartUpload; AbortMultipartUpload when anything fails), within S3's limits of
 * 5 MiB to 5 GiB a part and 10,000 parts (multipart.ts).
 */
import { AwsClient } from "aws4fetch";
import { z } from "zod";
import { storeError, unreachable, type StoreStep } from "../errors";
import {
  downloadOf,
  encodePath,
  errorText,
  listPages,
  guardUrl,
  sizedBody,
  urlProblem,
  xmlBlocks,
  xmlValue,
} from "../http";
import { multipartPut } from "./multipart";
import { oneOf, optional, required, stringMap, tagMap } from "../params";
import type { StoreConnector, StoreSession } from "../types";

/** Part size when RuntimeSettings.storePartBytes is unset (64 MiB, STORE_PART_BYTES's default). */
const DEFAULT_PART_BYTES = 64 * 1024 * 1024;

const credentials = {
  bucket: required(255),
  region: required(64),
  /** Custom S3 API endpoint (S3-compatible stores); path-style requests are sent to it. */
  endpoint: optional(2048),
  access_key_id: required(256),
  secret_access_key: required(1024),
  session_token: optional(4096),
};

export const s3ImportParams = z.object({ ...credentials, key: optional(1024), key_prefix: optional(1024) });

/** S3 canned ACLs (SDK-N enum; D-V1S3). */
export const S3_ACLS = [
  "private",
  "public-read",
  "public-read-write",
  "authenticated-read",
  "bucket-owner-read",
  "bucket-owner-full-control",
] as const;

export const s3ExportParams = z.object({
  ...credentials,
  key: optional(1024),
  key_prefix: optional(1024),
  acl: z.enum(S3_ACLS).optional(),
  cache_control: optional(1024),
  content_disposition: optional(1024),
  content_type: optional(256),
  metadata: stringMap,
  server_side_encryption: z.enum(["AES256", "aws:kms", "aws:kms:dsse"]).optional(),
  tagging: tagMap,
});

export type S3ImportParams = z.infer<typeof s3ImportParams>;
export type S3ExportParams = z.infer<typeof s3ExportParams>;
type S3Params = S3ImportParams | S3ExportParams;

/** S3 error codes that mean the credentials themselves are wrong, not merely short of a permission. */
const BAD_CREDENTIALS = new Set([
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "InvalidToken",
  "ExpiredToken",
  "InvalidClientTokenId",
]);

/**
 * The base URL of the bucket, without a trailing slash: `endpoint` + "/" + bucket (path style,
 * what every S3-compatible store answers), else AWS's virtual-hosted style, or path style for
 * bucket names with dots (the TLS wildcard certificate does not cover them).
 */
export function s3BucketUrl(p: Pick<S3Params, "bucket" | "region" | "endpoint">): string {
  if (p.endpoint) {
    const base = /^https?:\/\//i.test(p.endpoint) ? p.endpoint : `https://${p.endpoint}`;
    return `${base.replace(/\/+$/, "")}/${encodeURIComponent(p.bucket)}`;
  }
  return p.bucket.includes(".")
    ? `https://s3.${p.region}.amazonaws.com/${encodeURIComponent(p.bucket)}`
    : `https://${p.bucket}.s3.${p.region}.amazonaws.com`;
}

/** The headers of a PUT of one exported file (storage-connectors.md §3.1), content type first. */
export function s3PutHeaders(p: S3ExportParams, contentType: string): Record<string, string> {
  const h: Record<string, string> = { "content-type": p.content_type ?? contentType };
  if (p.acl) h["x-amz-acl"] = p.acl;
  if (p.cache_control) h["cache-control"] = p.cache_control;
  if (p.content_disposition) h["content-disposition"] = p.content_disposition;
  if (p.server_side_encryption) h["x-amz-server-side-encryption"] = p.server_side_encryption;
  for (const [k, v] of Object.entries(p.metadata ?? {})) h[`x-amz-meta-${k.toLowerCase()}`] = v;
  if (p.tagging && Object.keys(p.tagging).length)
    h["x-amz-tagging"] = new URLSearchParams(Object.entries(p.tagging)).toString();
  return h;
}

/** The signer of a task's requests: SigV4 for service s3 in `region`, no retries of its own. */
export function s3Client(p: S3Params): AwsClient {
  return new AwsClient({
    accessKeyId: p.access_key_id,
    secretAccessKey: p.secret_access_key,
    sessionToken: p.session_token,
    service: "s3",
    region: p.region,
    retries: 0,
  });
}

export const s3: StoreConnector<S3ImportParams, S3ExportParams> = {
  name: "s3",
  importParams: s3ImportParams,
  exportParams: s3ExportParams,
  secrets: ["secret_access_key", "session_token"],
  target: { one: "key", many: "key_prefix" },
  check(p, direction) {
    return [...urlProblem("endpoint", p.endpoint), ...(direction === "import" ? oneOf(p, "key", "key_prefix") : [])];
  },
  location: (p, path) => ({ bucket: p.bucket, key: path }),
  async open(p, ctx): Promise<StoreSession> {
    const bucketUrl = s3BucketUrl(p);
    guardUrl(bucketUrl, ctx.settings, p.endpoint ? "endpoint" : "region");
    const client = s3Client(p);
    const call = async (url: string, init: RequestInit, step: StoreStep, what: string, permission: string) => {
      let res: Response;
      try {
        res = await client.fetch(url, { ...init, signal: ctx.signal });
      } catch (err) {
        throw unreachable("S3", step, new URL(bucketUrl).host, err);
      }
      if (res.ok) return res;
      const text = res.status === 304 ? "" : await errorText(res);
      const code = xmlValue(text, "Code");
      const detail = [code, xmlValue(text, "Message")].filter(Boolean).join(": ");
      throw storeError("S3", step, res.status, detail, {
        permission,
        what,
        badCredentials: !!code && BAD_CREDENTIALS.has(code),
      });
    };
    return {
      list: (prefix, max) =>
        listPages(max, async (token) => {
          const q = new URLSearchParams({ "list-type": "2", prefix, "max-keys": String(Math.min(1000, max + 1)) });
          if (token) q.set("continuation-token", token);
          const res = await call(`${bucketUrl}?${q}`, { method: "GET" }, "list", `bucket ${p.bucket}`, "s3:ListBucket");
          const xml = await res.text();
          const objects = xmlBlocks(xml, "Contents").map((c) => ({
            path: xmlValue(c, "Key") ?? "",
            size: Number(xmlValue(c, "Size") ?? 0),
          }));
          return {
            objects,
            next: xmlValue(xml, "IsTruncated") === "true" ? xmlValue(xml, "NextContinuationToken") : "",
          };
        }),
      async get(key) {
        const res = await call(
          `${bucketUrl}/${encodePath(key)}`,
          { method: "GET" },
          "download",
          `object ${key}`,
          "s3:GetObject",
        );
        return downloadOf(res, "S3", `object ${key}`);
      },
      async put(key, body, contentType) {
        const ep = p as S3ExportParams;
        const permission = ep.acl && ep.acl !== "private" ? "s3:PutObject and s3:PutObjectAcl" : "s3:PutObject";
        const url = `${bucketUrl}/${encodePath(key)}`;
        const headers = s3PutHeaders(ep, contentType);
        const send = (init: RequestInit, query = "") => call(url + query, init, "upload", `object ${key}`, permission);
        if (body.length > (ctx.settings.storePartBytes ?? DEFAULT_PART_BYTES))
          return multipartPut(send, headers, body, ctx.settings.storePartBytes ?? DEFAULT_PART_BYTES, key);
        const res = await send({ method: "PUT", headers, body: await sizedBody(body) });
        await res.body?.cancel();
      },
    };
  },
};
