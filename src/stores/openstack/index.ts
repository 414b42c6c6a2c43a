/**
 * import/openstack and export/openstack (issue 35; storage-connectors.md §2.7, §2.8, §3.4):
 * OpenStack Swift through a Keystone v3 password token over fetch.
 *
 * `auth_url` is the Identity endpoint without a version (a trailing /v3 is tolerated); the token is
 * scoped to `tenant_name` when given (an unofficial SDK's field; CloudConvert documents none), else
 * unscoped, which Keystone answers with the user's default project. The object-store URL comes from
 * the token's catalog (the `public` endpoint of `region`) — data the caller controls, so it passes
 * the same SSRF guard as auth_url. Size: one PUT takes up to 5 GiB (Swift's default max_file_size),
 * the default import cap; an export of a larger file (a higher MAX_IMPORT_BYTES, or a conversion that
 * grew) is refused before any byte is sent with FILE_TOO_LARGE: segments (SLO/DLO) are not written.
 */
import { z } from "zod";
import { TaskError } from "../../engines/errors";
import { storeError, unreachable, type StoreStep } from "../errors";
import { downloadOf, encodePath, errorText, listPages, guardUrl, sizedBody, urlProblem } from "../http";
import { oneOf, optional, required } from "../params";
import type { StoreConnector, StoreSession } from "../types";

/** Largest object one Swift PUT takes (Swift's default max_file_size, 5 GiB + 2 bytes; documented cap). */
export const SWIFT_MAX_OBJECT_BYTES = 5 * 1024 ** 3 + 2;

const credentials = {
  auth_url: required(2048),
  username: required(255),
  password: required(1024),
  region: required(255),
  container: required(256),
  tenant_name: optional(255),
};

export const openstackImportParams = z.object({ ...credentials, file: optional(1024), file_prefix: optional(1024) });
export const openstackExportParams = z.object({ ...credentials, file: optional(1024), file_prefix: optional(1024) });
export type OpenstackParams = z.infer<typeof openstackImportParams>;

/** The Keystone v3 token URL of `auth_url` (any trailing "/" or "/v3" dropped). */
export function keystoneTokenUrl(authUrl: string): string {
  return `${authUrl.replace(/\/+$/, "").replace(/\/v3$/, "")}/v3/auth/tokens`;
}

/** The body of a password token request (domain "default" for user and project). */
export function keystoneAuthBody(p: Pick<OpenstackParams, "username" | "password" | "tenant_name">): unknown {
  return {
    auth: {
      identity: {
        methods: ["password"],
        password: { user: { name: p.username, domain: { id: "default" }, password: p.password } },
      },
      ...(p.tenant_name ? { scope: { project: { name: p.tenant_name, domain: { id: "default" } } } } : {}),
    },
  };
}

interface CatalogEntry {
  type: string;
  endpoints: { interface: string; region_id?: string; region?: string; url: string }[];
}

/** The public object-store URL of `region` in a token's catalog, or undefined. */
export function objectStoreUrl(catalog: CatalogEntry[] | undefined, region: string): string | undefined {
  const store = catalog?.find((e) => e.type === "object-store");
  const ep = store?.endpoints.find((e) => e.interface === "public" && (e.region_id === region || e.region === region));
  return ep?.url.replace(/\/+$/, "");
}

export const openstack: StoreConnector<OpenstackParams, OpenstackParams> = {
  name: "openstack",
  importParams: openstackImportParams,
  exportParams: openstackExportParams,
  secrets: ["password"],
  target: { one: "file", many: "file_prefix" },
  check(p, direction) {
    return [...urlProblem("auth_url", p.auth_url), ...(direction === "import" ? oneOf(p, "file", "file_prefix") : [])];
  },
  location: (p, path) => ({ container: p.container, file: path }),
  async open(p, ctx): Promise<StoreSession> {
    const tokenUrl = keystoneTokenUrl(p.auth_url);
    guardUrl(tokenUrl, ctx.settings, "auth_url");
    const step: StoreStep = "authenticate";
    let auth: Response;
    try {
      auth = await fetch(tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(keystoneAuthBody(p)),
        signal: ctx.signal,
      });
    } catch (err) {
      throw unreachable("Keystone", step, new URL(tokenUrl).host, err);
    }
    if (!auth.ok) {
      const text = await errorText(auth);
      let detail = text;
      try {
        detail = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
      } catch {
        /* not JSON */
      }
      throw storeError("Keystone", step, auth.status, detail.slice(0, 300), { what: `user ${p.username}` });
    }
    const token = auth.headers.get("x-subject-token");
    const body = (await auth.json().catch(() => ({}))) as { token?: { catalog?: CatalogEntry[] } };
    const base = objectStoreUrl(body.token?.catalog, p.region);
    if (!token || !base)
      throw new TaskError(
        ctx.direction === "export" ? "UPLOAD_FAILED" : "DOWNLOAD_FAILED",
        `Keystone's token for ${p.username} has no public object-store endpoint in region ${p.region}` +
          (p.tenant_name ? "." : " (give tenant_name when the user has no default project)."),
      );
    const containerUrl = `${base}/${encodeURIComponent(p.container)}`;
    guardUrl(containerUrl, ctx.settings, "the Keystone catalog's object-store URL");
    const call = async (
      method: string,
      url: string,
      headers: Record<string, string>,
      body: BodyInit | undefined,
      step: StoreStep,
      what: string,
    ) => {
      let res: Response;
      try {
        res = await fetch(url, { method, headers: { "x-auth-token": token, ...headers }, body, signal: ctx.signal });
      } catch (err) {
        throw unreachable("OpenStack Swift", step, new URL(url).host, err);
      }
      if (res.ok) return res;
      const text = (await errorText(res))
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim();
      throw storeError("OpenStack Swift", step, res.status, text.slice(0, 300), {
        what,
        permission: "a role the container's ACL admits",
      });
    };
    return {
      list: (prefix, max) =>
        listPages(max, async (marker) => {
          const q = new URLSearchParams({ prefix, format: "json", limit: String(Math.min(10_000, max + 1)) });
          if (marker) q.set("marker", marker);
          const res = await call("GET", `${containerUrl}?${q}`, {}, undefined, "list", `container ${p.container}`);
          const page = (await res.json()) as { name?: string; bytes?: number; subdir?: string }[];
          // Swift pages until an empty page; the next marker is the last name (or pseudo-folder) of this one
          const last = page.at(-1);
          return {
            objects: page.map((o) => ({ path: o.name ?? "", size: o.bytes ?? 0 })),
            next: last?.name ?? last?.subdir,
          };
        }),
      async get(file) {
        const res = await call(
          "GET",
          `${containerUrl}/${encodePath(file)}`,
          {},
          undefined,
          "download",
          `object ${file}`,
        );
        return downloadOf(res, "OpenStack Swift", `object ${file}`);
      },
      async put(file, body, contentType) {
        if (body.length > SWIFT_MAX_OBJECT_BYTES)
          throw new TaskError(
            "FILE_TOO_LARGE",
            `${file} is ${body.length} bytes; export/openstack writes objects up to ${SWIFT_MAX_OBJECT_BYTES} bytes (one Swift PUT; segmented objects are not written).`,
          );
        const res = await call(
          "PUT",
          `${containerUrl}/${encodePath(file)}`,
          { "content-type": contentType },
          await sizedBody(body),
          "upload",
          `object ${file}`,
        );
        await res.body?.cancel();
      },
    };
  },
};
