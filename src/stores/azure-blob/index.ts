/**
 * import/azure/blob and export/azure/blob (issue 35; storage-connectors.md §2.3, §2.4, §3.2): the
 * Blob service REST API over fetch, authorised by a SAS token (appended to each URL) or the account
 * key (Shared Key, shared-key.ts). The Java SDK's spellings import/azure-blob and export/azure-blob
 * are accepted in jobs.
 *
 * Host: `https://{storage_account}.blob.core.windows.net` (CloudConvert has no endpoint parameter);
 * AZURE_BLOB_ENDPOINT (e.g. azurite's `http://127.0.0.1:10000/{account}`) replaces it only where
 * private imports are allowed (development, tests). Size: a file up to RuntimeSettings.storePartBytes
 * (STORE_PART_BYTES, default 64 MiB) is one Put Blob; a larger one goes as blocks of that size (Put
 * Block, each streamed out of R2) committed by one Put Block List with the content type and metadata
 * (Azure: blocks up to 4000 MiB, at most 50,000 of them).
 */
import { z } from "zod";
import { storeError, unreachable, type StoreStep } from "../errors";
import {
  devOverride,
  downloadOf,
  encodePath,
  listPages,
  errorText,
  guardUrl,
  partSource,
  sizedBody,
  xmlBlocks,
  xmlValue,
} from "../http";
import { oneOf, optional, required, stringMap } from "../params";
import type { StoreConnector, StoreSession } from "../types";
import { partLengths } from "../../storage/parts";
import { sharedKeyAuthorization } from "./shared-key";

/** Block size when RuntimeSettings.storePartBytes is unset (STORE_PART_BYTES's default, 64 MiB). */
const DEFAULT_PART_BYTES = 64 * 1024 * 1024;
/** Azure's most blocks in one blob. */
const MAX_BLOCKS = 50_000;

/** The id of block `i` (0-based): base64 of a fixed-length string, as Azure requires ids of one length per blob. */
export function blockId(i: number): string {
  return btoa(`block-${String(i).padStart(6, "0")}`);
}

/** The REST API version sent (x-ms-version). */
export const AZURE_API_VERSION = "2021-12-02";

const credentials = {
  storage_account: z
    .string({ error: "is required (a string)." })
    .regex(/^[a-z0-9]{3,24}$/, "must be 3 to 24 lower-case letters and digits (the account name)."),
  storage_access_key: optional(256),
  sas_token: optional(4096),
  container: z
    .string({ error: "is required (a string)." })
    .regex(
      /^(\$root|[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])?)$/,
      "must be a container name (3 to 63 lower-case letters, digits and dashes).",
    ),
};

export const azureImportParams = z.object({ ...credentials, blob: optional(1024), blob_prefix: optional(1024) });
export const azureExportParams = z.object({
  ...credentials,
  blob: optional(1024),
  blob_prefix: optional(1024),
  metadata: stringMap,
});
export type AzureImportParams = z.infer<typeof azureImportParams>;
export type AzureExportParams = z.infer<typeof azureExportParams>;
type AzureParams = AzureImportParams | AzureExportParams;

/** Azure error codes that mean the key or SAS itself is wrong (azurite answers AuthorizationFailure to a wrong key). */
const BAD_CREDENTIALS = new Set(["AuthenticationFailed", "AuthorizationFailure", "InvalidAuthenticationInfo"]);

/** The account's blob endpoint, without a trailing slash. */
export function azureAccountUrl(account: string, override?: string): string {
  return override
    ? override.replace("{account}", account).replace(/\/+$/, "")
    : `https://${account}.blob.core.windows.net`;
}

/** `url` with the SAS token's parameters added (a leading "?" is dropped). */
export function withSas(url: string, sas: string): string {
  const t = sas.replace(/^\?/, "");
  return t ? `${url}${url.includes("?") ? "&" : "?"}${t}` : url;
}

export const azureBlob: StoreConnector<AzureImportParams, AzureExportParams> = {
  name: "azure/blob",
  aliases: ["azure-blob"],
  importParams: azureImportParams,
  exportParams: azureExportParams,
  secrets: ["storage_access_key", "sas_token"],
  target: { one: "blob", many: "blob_prefix" },
  check(p, direction) {
    const out = direction === "import" ? oneOf(p, "blob", "blob_prefix") : [];
    if (!p.storage_access_key && !p.sas_token)
      out.push("storage_access_key: storage_access_key or sas_token is required.");
    if (p.storage_access_key && !/^[A-Za-z0-9+/]+={0,2}$/.test(p.storage_access_key))
      out.push("storage_access_key: must be the base64 account key.");
    return out;
  },
  location: (p, path) => ({ container: p.container, blob: path }),
  async open(p: AzureParams, ctx): Promise<StoreSession> {
    const override = devOverride(ctx.settings, "azureBlob");
    const containerUrl = `${azureAccountUrl(p.storage_account, override)}/${encodeURIComponent(p.container)}`;
    guardUrl(containerUrl, ctx.settings, override ? "AZURE_BLOB_ENDPOINT" : "storage_account");
    const call = async (
      method: string,
      raw: string,
      extra: Record<string, string>,
      body: BodyInit | undefined,
      step: StoreStep,
      what: string,
      permission: string,
      length?: number,
    ) => {
      const url = new URL(p.sas_token ? withSas(raw, p.sas_token) : raw);
      const headers: Record<string, string> = {
        "x-ms-date": new Date().toUTCString(),
        "x-ms-version": AZURE_API_VERSION,
        ...extra,
      };
      // Content-Length is signed but not set by hand: fetch sends it from the sized body
      const signed = length === undefined ? headers : { ...headers, "content-length": String(length) };
      if (!p.sas_token)
        headers.authorization = await sharedKeyAuthorization(
          method,
          url,
          signed,
          p.storage_account,
          p.storage_access_key!,
        );
      let res: Response;
      try {
        res = await fetch(url, { method, headers, body, signal: ctx.signal });
      } catch (err) {
        throw unreachable("Azure Blob Storage", step, url.host, err);
      }
      if (res.ok) return res;
      const text = method === "HEAD" ? "" : await errorText(res);
      const code = xmlValue(text, "Code") ?? res.headers.get("x-ms-error-code") ?? undefined;
      const message = xmlValue(text, "Message")?.split("\n")[0];
      throw storeError("Azure Blob Storage", step, res.status, [code, message].filter(Boolean).join(": "), {
        permission,
        what,
        badCredentials: !!code && BAD_CREDENTIALS.has(code),
      });
    };
    return {
      list: (prefix, max) =>
        listPages(max, async (marker) => {
          const q = new URLSearchParams({
            restype: "container",
            comp: "list",
            prefix,
            maxresults: String(Math.min(5000, max + 1)),
          });
          if (marker) q.set("marker", marker);
          const res = await call(
            "GET",
            `${containerUrl}?${q}`,
            {},
            undefined,
            "list",
            `container ${p.container}`,
            "list (l) on the container",
          );
          const xml = await res.text();
          const objects = xmlBlocks(xml, "Blob").map((b) => ({
            path: xmlValue(b, "Name") ?? "",
            size: Number(xmlValue(b, "Content-Length") ?? 0),
          }));
          return { objects, next: xmlValue(xml, "NextMarker") };
        }),
      async get(blob) {
        const res = await call(
          "GET",
          `${containerUrl}/${encodePath(blob)}`,
          {},
          undefined,
          "download",
          `blob ${blob}`,
          "read (r)",
        );
        return downloadOf(res, "Azure Blob Storage", `blob ${blob}`);
      },
      async put(blob, body, contentType) {
        const url = `${containerUrl}/${encodePath(blob)}`;
        const metadata: Record<string, string> = {};
        for (const [k, v] of Object.entries((p as AzureExportParams).metadata ?? {}))
          metadata[`x-ms-meta-${k.toLowerCase()}`] = v;
        const send = async (query: string, headers: Record<string, string>, b: BodyInit, length: number) => {
          const res = await call(
            "PUT",
            url + query,
            headers,
            b,
            "upload",
            `blob ${blob}`,
            "write (w) or create (c)",
            length,
          );
          await res.body?.cancel();
        };
        const partBytes = ctx.settings.storePartBytes ?? DEFAULT_PART_BYTES;
        if (body.length <= partBytes)
          return send(
            "",
            { "x-ms-blob-type": "BlockBlob", "content-type": contentType, ...metadata },
            await sizedBody(body),
            body.length,
          );
        // blocks of partBytes streamed one after another, then the list commits them in order
        const blockBytes = Math.max(partBytes, Math.ceil(body.length / MAX_BLOCKS));
        const src = partSource(body);
        const ids: string[] = [];
        try {
          let offset = 0;
          for (const [i, n] of partLengths(body.length, blockBytes).entries()) {
            ids.push(blockId(i));
            const q = `?comp=block&blockid=${encodeURIComponent(ids[i])}`;
            const part = await src.next(offset, n);
            offset += n;
            await send(q, {}, await sizedBody({ stream: part, length: n }), n);
          }
        } catch (err) {
          await src.cancel(err); // uncommitted blocks are discarded by Azure after a week
          throw err;
        }
        const xml = `<?xml version="1.0" encoding="utf-8"?><BlockList>${ids.map((id) => `<Latest>${id}</Latest>`).join("")}</BlockList>`;
        const list = new TextEncoder().encode(xml);
        await send(
          "?comp=blocklist",
          { "x-ms-blob-content-type": contentType, "content-type": "application/xml", ...metadata },
          list,
          list.byteLength,
        );
      },
    };
  },
};
