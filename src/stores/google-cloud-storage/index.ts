/**
 * import/google-cloud-storage and export/google-cloud-storage (issue 35; storage-connectors.md
 * §2.5, §2.6, §3.3): the Cloud Storage JSON API over fetch with a service-account bearer token
 * (jwt.ts). `project_id` is validated and carried; object calls do not need it.
 *
 * Hosts: oauth2.googleapis.com and storage.googleapis.com (CloudConvert has no endpoint parameter);
 * GCS_ENDPOINT replaces both with one base URL (`{base}/token`, `{base}/storage/v1/…`,
 * `{base}/upload/storage/v1/…`) only where private imports are allowed — the tests' loopback double.
 * Uploads: a file up to RuntimeSettings.storePartBytes (STORE_PART_BYTES, default 64 MiB) is one media
 * upload of its known length; a larger one is a resumable upload (a session opened with the object's
 * name, type and length, then chunks of that size rounded up to 256 KiB, each streamed out of R2 with
 * its Content-Range; Google answers 308 until the last one). The session URL Google answers passes
 * the SSRF guard; the session is cancelled (DELETE) when a chunk fails.
 */
import { z } from "zod";
import { storeError, unreachable, type StoreStep } from "../errors";
import { partLengths } from "../../storage/parts";
import { devOverride, downloadOf, errorText, listPages, guardUrl, partSource, sizedBody } from "../http";
import type { StoreUpload } from "../types";

/** Chunk size when RuntimeSettings.storePartBytes is unset (STORE_PART_BYTES's default, 64 MiB). */
const DEFAULT_PART_BYTES = 64 * 1024 * 1024;
/** Google's chunk granularity: every chunk but the last is a multiple of 256 KiB. */
const CHUNK_UNIT = 256 * 1024;
import { oneOf, optional, required } from "../params";
import type { StoreConnector, StoreSession } from "../types";
import { GCS_SCOPES, signAssertion } from "./jwt";

const credentials = {
  project_id: required(255),
  bucket: required(222),
  client_email: z.string({ error: "is required (a string)." }).email("must be the service account's e-mail address."),
  private_key: required(16_384),
};

export const gcsImportParams = z.object({ ...credentials, file: optional(1024), file_prefix: optional(1024) });
export const gcsExportParams = z.object({ ...credentials, file: optional(1024), file_prefix: optional(1024) });
export type GcsParams = z.infer<typeof gcsImportParams>;

/** Token URL and storage base of production, or of the development override. */
export function gcsHosts(override?: string): { token: string; storage: string } {
  if (!override) return { token: "https://oauth2.googleapis.com/token", storage: "https://storage.googleapis.com" };
  const base = override.replace(/\/+$/, "");
  return { token: `${base}/token`, storage: base };
}

/** OAuth errors that mean the key or account is wrong. */
const BAD_GRANT = new Set(["invalid_grant", "invalid_client", "unauthorized_client"]);

/** The store's words in a JSON error answer ({error:{message}} or {error, error_description}). */
function jsonDetail(text: string): { code?: string; message: string } {
  try {
    const j = JSON.parse(text) as { error?: string | { message?: string }; error_description?: string };
    if (typeof j.error === "string")
      return { code: j.error, message: [j.error, j.error_description].filter(Boolean).join(": ") };
    return { message: j.error?.message ?? text };
  } catch {
    return { message: text.slice(0, 300) };
  }
}

export const googleCloudStorage: StoreConnector<GcsParams, GcsParams> = {
  name: "google-cloud-storage",
  importParams: gcsImportParams,
  exportParams: gcsExportParams,
  secrets: ["private_key"],
  target: { one: "file", many: "file_prefix" },
  check(p, direction) {
    const out = direction === "import" ? oneOf(p, "file", "file_prefix") : [];
    if (!/-----BEGIN PRIVATE KEY-----/.test(p.private_key))
      out.push("private_key: must be the service account's PEM private key (-----BEGIN PRIVATE KEY-----).");
    return out;
  },
  location: (p, path) => ({ bucket: p.bucket, file: path }),
  async open(p, ctx): Promise<StoreSession> {
    const override = devOverride(ctx.settings, "gcs");
    const hosts = gcsHosts(override);
    guardUrl(hosts.token, ctx.settings, override ? "GCS_ENDPOINT" : "token URL");
    const assertion = await signAssertion(
      p.private_key,
      p.client_email,
      GCS_SCOPES[ctx.direction],
      hosts.token,
      Math.floor(Date.now() / 1000),
    );
    let res: Response;
    try {
      res = await fetch(hosts.token, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
        signal: ctx.signal,
      });
    } catch (err) {
      throw unreachable("Google OAuth", "authenticate", new URL(hosts.token).host, err);
    }
    if (!res.ok) {
      const d = jsonDetail(await errorText(res));
      throw storeError("Google OAuth", "authenticate", res.status, d.message, {
        badCredentials: !!d.code && BAD_GRANT.has(d.code),
        what: `service account ${p.client_email}`,
      });
    }
    const token = ((await res.json()) as { access_token?: string }).access_token;
    if (!token) throw storeError("Google OAuth", "authenticate", res.status, "no access_token in the answer");
    const bucketPath = `/storage/v1/b/${encodeURIComponent(p.bucket)}/o`;
    const call = async (
      method: string,
      url: string,
      headers: Record<string, string>,
      body: BodyInit | undefined,
      step: StoreStep,
      what: string,
      permission: string,
      accept: readonly number[] = [],
    ) => {
      let r: Response;
      try {
        r = await fetch(url, {
          method,
          headers: { authorization: `Bearer ${token}`, ...headers },
          body,
          signal: ctx.signal,
          redirect: "manual", // a resumable chunk's 308 is "send the next one", not a redirect
        });
      } catch (err) {
        throw unreachable("Google Cloud Storage", step, new URL(url).host, err);
      }
      if (r.ok || accept.includes(r.status)) return r;
      throw storeError("Google Cloud Storage", step, r.status, jsonDetail(await errorText(r)).message, {
        what,
        permission,
      });
    };
    return {
      list: (prefix, max) =>
        listPages(max, async (pageToken) => {
          const q = new URLSearchParams({ prefix, maxResults: String(Math.min(1000, max + 1)) });
          if (pageToken) q.set("pageToken", pageToken);
          const r = await call(
            "GET",
            `${hosts.storage}${bucketPath}?${q}`,
            {},
            undefined,
            "list",
            `bucket ${p.bucket}`,
            "storage.objects.list",
          );
          const page = (await r.json()) as { items?: { name: string; size: string }[]; nextPageToken?: string };
          const objects = (page.items ?? []).map((o) => ({ path: o.name, size: Number(o.size) }));
          return { objects, next: page.nextPageToken };
        }),
      async get(file) {
        const r = await call(
          "GET",
          `${hosts.storage}${bucketPath}/${encodeURIComponent(file)}?alt=media`,
          {},
          undefined,
          "download",
          `object ${file}`,
          "storage.objects.get",
        );
        return downloadOf(r, "Google Cloud Storage", `object ${file}`);
      },
      async put(file, body, contentType) {
        const what = `object ${file}`;
        const partBytes = ctx.settings.storePartBytes ?? DEFAULT_PART_BYTES;
        if (body.length > partBytes) return resumable(file, body, contentType, partBytes);
        const q = new URLSearchParams({ uploadType: "media", name: file });
        const r = await call(
          "POST",
          `${hosts.storage}/upload${bucketPath}?${q}`,
          { "content-type": contentType },
          await sizedBody(body),
          "upload",
          what,
          "storage.objects.create",
        );
        await r.body?.cancel();
      },
    };

    /** A resumable upload of `body` in chunks of `partBytes` rounded up to 256 KiB (see the file's comment). */
    async function resumable(file: string, body: StoreUpload, contentType: string, partBytes: number): Promise<void> {
      const what = `object ${file}`;
      const q = new URLSearchParams({ uploadType: "resumable", name: file });
      const opened = await call(
        "POST",
        `${hosts.storage}/upload${bucketPath}?${q}`,
        {
          "content-type": "application/json; charset=UTF-8",
          "x-upload-content-type": contentType,
          "x-upload-content-length": String(body.length),
        },
        JSON.stringify({ name: file, contentType }),
        "upload",
        what,
        "storage.objects.create",
      );
      await opened.body?.cancel();
      const session = opened.headers.get("location");
      if (!session)
        throw storeError("Google Cloud Storage", "upload", opened.status, "no resumable session URL was answered", {
          what,
        });
      guardUrl(session, ctx.settings, "the resumable session URL");
      const chunk = Math.ceil(partBytes / CHUNK_UNIT) * CHUNK_UNIT;
      const src = partSource(body);
      let at = 0;
      try {
        for (const n of partLengths(body.length, chunk)) {
          const range = `bytes ${at}-${at + n - 1}/${body.length}`;
          const last = at + n === body.length;
          const r = await call(
            "PUT",
            session,
            { "content-range": range },
            await sizedBody({ stream: await src.next(at, n), length: n }),
            "upload",
            what,
            "storage.objects.create",
            last ? [] : [308],
          );
          await r.body?.cancel();
          if (!last && r.status !== 308)
            throw storeError("Google Cloud Storage", "upload", r.status, `the upload ended early, at ${range}`, {
              what,
            });
          at += n;
        }
      } catch (err) {
        await src.cancel(err);
        await fetch(session, { method: "DELETE", headers: { authorization: `Bearer ${token}` } })
          .then((r) => r.body?.cancel())
          .catch(() => {});
        throw err;
      }
    }
  },
};
