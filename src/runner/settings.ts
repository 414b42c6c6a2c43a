/**
 * Runtime settings read from the Worker's environment, in one place.
 */
import type { Env } from "../env";
import type { RuntimeSettings } from "../operations/types";

/** Default retention after a job ends, in seconds (contract §7: 24 h). */
export const DEFAULT_RETENTION_S = 24 * 3600;
/**
 * Largest file import/upload takes, in bytes: the request body limit of the Free and Pro plans (platform
 * §1; 200 MB on Business, 500 MB on Enterprise). The upload endpoint reads the multipart body, so
 * larger files come through import/url, the storage imports or a signed store URL (README).
 */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/**
 * Default of MAX_IMPORT_BYTES, the largest file import/url and the storage imports stream into R2:
 * 5 GiB (issue 35). They are checked from Content-Length and counted while streaming.
 */
export const DEFAULT_MAX_IMPORT_BYTES = 5 * 1024 ** 3;
/**
 * Default of STORE_PART_BYTES: storage exports of files larger than this are sent in parts of this
 * size (S3 multipart upload, Azure Put Block + Put Block List, GCS resumable upload), 64 MiB.
 */
export const DEFAULT_STORE_PART_BYTES = 64 * 1024 * 1024;
/**
 * Default of R2_PART_BYTES: the part size of R2 multipart uploads (files of unknown length, and
 * files larger than R2_SINGLE_PUT_BYTES), 16 MiB. A part of unknown-length data is held in memory
 * while it is sent, so this bounds the Worker's memory per transfer.
 */
export const DEFAULT_R2_PART_BYTES = 16 * 1024 * 1024;
/** Default of R2_SINGLE_PUT_BYTES: the largest file R2 takes in one put (R2 limits: 5 GiB less a margin). */
export const DEFAULT_R2_SINGLE_PUT_BYTES = 5 * 1024 ** 3 - 32 * 1024 * 1024;

/** A positive whole number of bytes from a wrangler var, or `fallback` when unset or not one. */
function bytesVar(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isSafeInteger(n) && n > 0 ? n : fallback;
}

/**
 * NATIVE_STREAM_BYTES (issue 35): native media files over this many bytes travel as streams; undefined when unset
 * or not a positive whole number (the native rows' own threshold, 64 MiB, then applies).
 */
export function nativeStreamBytes(env: Pick<Env, "NATIVE_STREAM_BYTES">): number | undefined {
  const n = bytesVar(env.NATIVE_STREAM_BYTES, 0);
  return n || undefined;
}

/**
 * The size limits of one deployment (wrangler vars MAX_IMPORT_BYTES, STORE_PART_BYTES, R2_PART_BYTES,
 * R2_SINGLE_PUT_BYTES, NATIVE_STREAM_BYTES).
 */
export function sizeSettings(env: Env) {
  return {
    nativeStreamBytes: nativeStreamBytes(env),
    maxImportBytes: bytesVar(env.MAX_IMPORT_BYTES, DEFAULT_MAX_IMPORT_BYTES),
    storePartBytes: bytesVar(env.STORE_PART_BYTES, DEFAULT_STORE_PART_BYTES),
    r2: {
      partBytes: bytesVar(env.R2_PART_BYTES, DEFAULT_R2_PART_BYTES),
      singlePutBytes: bytesVar(env.R2_SINGLE_PUT_BYTES, DEFAULT_R2_SINGLE_PUT_BYTES),
    },
  };
}

export function retentionSeconds(env: Env): number {
  const n = Number(env.RETENTION_SECONDS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_RETENTION_S;
}

/** The URL signing secret; throws when unset so that nothing is ever signed with a guessable key. */
export function signingSecret(env: Env): string {
  if (!env.URL_SIGNING_SECRET)
    throw new Error("URL_SIGNING_SECRET is not configured (wrangler secret put URL_SIGNING_SECRET).");
  return env.URL_SIGNING_SECRET;
}

export function runtimeSettings(env: Env, baseUrl: string, retentionS: number): RuntimeSettings {
  return {
    allowPrivateImports: env.ALLOW_PRIVATE_IMPORTS === "true",
    maxImportBytes: sizeSettings(env).maxImportBytes,
    storePartBytes: sizeSettings(env).storePartBytes,
    nativeStreamBytes: sizeSettings(env).nativeStreamBytes,
    publicBaseUrl: baseUrl,
    urlSigningSecret: signingSecret(env),
    fileUrlTtlSeconds: retentionS,
    storeEndpoints: { azureBlob: env.AZURE_BLOB_ENDPOINT || undefined, gcs: env.GCS_ENDPOINT || undefined },
  };
}
