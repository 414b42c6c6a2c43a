/**
 * Runtime settings read from the Worker's environment, in one place: wrangler vars in, numbers and
 * switches out. A leaf: it imports nothing of the project, so the api, the runner, the runtimes and
 * the operations all read it without reaching each other (issue 46). It names only the vars it reads
 * ({@link SettingsVars}), which the Worker's `Env` (env.ts) holds.
 */

/** The wrangler vars settings are read from (env.ts `Env` documents each). */
export type SettingsVars = {
  [
    K in
      | "ALLOW_PRIVATE_IMPORTS"
      | "AZURE_BLOB_ENDPOINT"
      | "GCS_ENDPOINT"
      | "RETENTION_SECONDS"
      | "MAX_IMPORT_BYTES"
      | "STORE_PART_BYTES"
      | "R2_PART_BYTES"
      | "R2_SINGLE_PUT_BYTES"
      | "NATIVE_STREAM_BYTES"
      | "URL_SIGNING_SECRET"
  ]?: string;
};

/** Switches read from the environment, handed to every operation (OperationContext.settings). */
export interface RuntimeSettings {
  /** ALLOW_PRIVATE_IMPORTS=true: import/url may reach loopback (development only). */
  allowPrivateImports: boolean;
  /** Maximum bytes of one file import/url or a storage import streams into R2 (MAX_IMPORT_BYTES, default 5 GiB). */
  maxImportBytes: number;
  /**
   * Inputs over this many bytes reach an engine that takes streams (a row with `budget.streamOver`: the native
   * media row) as streams, when that is lower than the row's own `streamOver` (NATIVE_STREAM_BYTES, issue 35; tests
   * lower it to send small files on the streamed wire). Absent: the row's.
   */
  nativeStreamBytes?: number;
  /**
   * Storage exports of files larger than this many bytes go in parts of this size (S3 multipart,
   * Azure block lists, GCS resumable uploads; STORE_PART_BYTES, default 64 MiB). Absent: 64 MiB.
   */
  storePartBytes?: number;
  /** Public origin of the API, e.g. "http://localhost:8787" (export URLs, upload forms). */
  publicBaseUrl: string;
  /** HMAC secret signing export URLs and upload forms. */
  urlSigningSecret: string;
  /** Lifetime of signed export URLs in seconds (the job's retention). */
  fileUrlTtlSeconds: number;
  /**
   * Development-only base URLs of the stores whose hosts CloudConvert fixes (AZURE_BLOB_ENDPOINT,
   * GCS_ENDPOINT): honoured only with allowPrivateImports, so tests reach azurite and the loopback
   * GCS double (issue 35).
   */
  storeEndpoints?: { azureBlob?: string; gcs?: string };
}

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
export function nativeStreamBytes(env: Pick<SettingsVars, "NATIVE_STREAM_BYTES">): number | undefined {
  const n = bytesVar(env.NATIVE_STREAM_BYTES, 0);
  return n || undefined;
}

/**
 * The size limits of one deployment (wrangler vars MAX_IMPORT_BYTES, STORE_PART_BYTES, R2_PART_BYTES,
 * R2_SINGLE_PUT_BYTES, NATIVE_STREAM_BYTES).
 */
export function sizeSettings(env: SettingsVars) {
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

/** Seconds a job, its tasks and files live after the job ends (RETENTION_SECONDS, default 24 h). */
export function retentionSeconds(env: SettingsVars): number {
  const n = Number(env.RETENTION_SECONDS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_RETENTION_S;
}

/** The URL signing secret; throws when unset so that nothing is ever signed with a guessable key. */
export function signingSecret(env: SettingsVars): string {
  if (!env.URL_SIGNING_SECRET)
    throw new Error("URL_SIGNING_SECRET is not configured (wrangler secret put URL_SIGNING_SECRET).");
  return env.URL_SIGNING_SECRET;
}

/** The settings every operation of a task sees: `baseUrl` is the API's public origin, `retentionS` the job's retention. */
export function runtimeSettings(env: SettingsVars, baseUrl: string, retentionS: number): RuntimeSettings {
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
