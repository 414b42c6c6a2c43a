/**
 * Runtime settings read from the Worker's environment, in one place.
 */
import type { Env } from "../env";
import type { RuntimeSettings } from "../operations/types";

/** Default retention after a job ends, in seconds (contract §7: 24 h). */
export const DEFAULT_RETENTION_S = 24 * 3600;
/** Largest imported file, in bytes (the zone's default request body limit, platform §1). */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;

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
    maxImportBytes: MAX_IMPORT_BYTES,
    publicBaseUrl: baseUrl,
    urlSigningSecret: signingSecret(env),
    fileUrlTtlSeconds: retentionS,
    storeEndpoints: { azureBlob: env.AZURE_BLOB_ENDPOINT || undefined, gcs: env.GCS_ENDPOINT || undefined },
  };
}
