/**
 * GET /v2/operations (and the legacy GET /v2/convert/formats): the catalogue of what this server
 * can actually run, generated from the operation registry × the engine table (issue 2; contract
 * §1.4): one row per (operation, input_format, output_format, engine). Options come from each
 * handler's zod schema; nothing here is hand-listed.
 */
import { Hono, type Context } from "hono";
import { enginesFor } from "../engines/routing";
import { nativeRowsAvailable } from "../runtime/workerd/native";
import { LISTED_INPUT_ALIASES } from "../engines/kinds/image";
import { HANDLERS } from "../operations/registry";
import type { FormatPair } from "../operations/types";
import { includes, q, type AppEnv } from "./context";
import { optionsOf } from "./options";
import { listBody, pageOf } from "./pagination";

export const operations = new Hono<AppEnv>();

const orNull = (f: string) => (f === "*" ? null : f);

operations.get("/v2/operations", (c) => catalogue(c));
operations.get("/v2/convert/formats", (c) => catalogue(c, "convert"));

/**
 * Lists registry rows matching the filters (contract §1.4), all of them in one answer unless the
 * caller pages with per_page/page (at most 1000 a page); `only` restricts to one operation. Rows
 * of the native engine appear only when it answers and has their tool (GET /health), so a machine
 * without Ghostscript or LibreOffice does not offer pdf/a or office conversion.
 */
async function catalogue(c: Context<AppEnv>, only?: string) {
  const native = await nativeRowsAvailable(c.env);
  const f = (k: string) => q(c.req.query(`filter[${k}]`));
  const inc = includes(c.req.query("include"));
  const rows = HANDLERS.flatMap((h) =>
    withListedAliases(h.formats).flatMap(({ fmt, listed }) =>
      enginesFor({ kind: h.kind, operation: h.operation, input: fmt.input, output: fmt.output }).map((e) => ({
        h,
        e,
        input: orNull(listed),
        output: orNull(fmt.output),
      })),
    ),
  ).filter(
    (r) =>
      (r.e.placement !== "native" || native.has(r.e.name)) &&
      (!r.h.placement || r.e.placement === r.h.placement) &&
      (!only || r.h.operation === only) &&
      (!f("operation") || r.h.operation === f("operation")) &&
      (!f("input_format") || r.input === f("input_format")?.toLowerCase()) &&
      (!f("output_format") || r.output === f("output_format")?.toLowerCase()) &&
      (!f("engine") || r.e.name === f("engine")) &&
      (!f("engine_version") || r.e.version === f("engine_version")),
  );
  // clients read `data` without paging (n8n's node, contract §1.4): every row unless per_page or page is asked for
  const paged = c.req.query("per_page") !== undefined || c.req.query("page") !== undefined;
  const p = paged
    ? pageOf({ page: c.req.query("page"), per_page: c.req.query("per_page") ?? "1000" })
    : { page: 1, perPage: Math.max(1, rows.length), offset: 0 };
  const data = rows.slice(p.offset, p.offset + p.perPage).map(({ h, e, input, output }) => ({
    operation: h.operation,
    input_format: input,
    output_format: output,
    engine: e.name,
    credits: h.credits,
    deprecated: false,
    experimental: false,
    meta: {},
    ...(inc.has("options") ? { options: optionsOf(h) } : {}),
    ...(inc.has("engine_versions")
      ? {
          engine_versions: [
            { version: e.version, default: true, latest: true, deprecated: false, experimental: false },
          ],
        }
      : {}),
  }));
  return c.json(listBody(c.req.url, p, data, rows.length > p.offset + p.perPage));
}

/**
 * A handler's pairs, each with the input name to list, plus a pair under each of CloudConvert's other names of an image
 * format (LISTED_INPUT_ALIASES: jpeg, jfif → jpg; tif → tiff) where the handler does not offer that name itself; the
 * task routes the same way (src/operations/registry.ts `route`).
 */
function withListedAliases(formats: readonly FormatPair[]): { fmt: FormatPair; listed: string }[] {
  const own = new Set(formats.map((f) => `${f.input}>${f.output}`));
  return formats.flatMap((fmt) => [
    { fmt, listed: fmt.input },
    ...Object.entries(LISTED_INPUT_ALIASES)
      .filter(([alias, canonical]) => fmt.input === canonical && !own.has(`${alias}>${fmt.output}`))
      .map(([alias]) => ({ fmt, listed: alias })),
  ]);
}
