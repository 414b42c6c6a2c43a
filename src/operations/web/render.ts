/**
 * One rendering through the web engine for an operation: the header/footer templates read from
 * their import tasks, the options picked from the task's parameters, the engine's answer turned
 * into the task's file (engine `chrome`, the browser's version) or a TaskError.
 */
import { TaskError } from "../../engines/errors";
import type { WebOptions, WebRenderRequest } from "../../engines/kinds/web";
import { useEngine } from "../../engines/use";
import { engineCall, readTaskFile } from "../kit";
import type { OperationContext } from "../types";
import { renderParams, TASK_NAME } from "./schemas";

const OPTION_KEYS = Object.keys(renderParams).filter(
  (k) => k !== "header_template" && k !== "footer_template",
) as (keyof WebOptions)[];

/** A template as HTML text: the file of the task it names, or the value itself when it is not a task name (schemas.ts). */
async function template(
  ctx: OperationContext,
  name: string | undefined,
  label: string,
  row: Parameters<typeof readTaskFile>[2],
): Promise<string | undefined> {
  if (!name) return undefined;
  if (!TASK_NAME.test(name)) return name;
  const { data } = await readTaskFile(ctx, name, row, label);
  return new TextDecoder().decode(data);
}

/** Renders `source` to `output` with the task's parameters `p`. */
export async function renderWith(
  ctx: OperationContext,
  operation: string,
  source: WebRenderRequest["source"],
  output: WebRenderRequest["output"],
  params: object,
  what: string,
) {
  const p = params as Record<string, unknown>;
  const { engine, row } = useEngine(ctx, "web", operation);
  const options = Object.fromEntries(OPTION_KEYS.filter((k) => p[k] !== undefined).map((k) => [k, p[k]])) as WebOptions;
  if (p.header_template || p.footer_template) options.display_header_footer ??= true;
  const r = await engineCall(
    engine.render({
      source,
      output,
      options,
      headerTemplate: await template(ctx, p.header_template as string | undefined, "header_template", row),
      footerTemplate: await template(ctx, p.footer_template as string | undefined, "footer_template", row),
      allowLoopback: ctx.settings.allowPrivateImports,
    }),
    what,
    row.name,
  );
  if (!r.data.byteLength) throw new TaskError("CONVERSION_FAILED", `${what}: the browser produced an empty ${output}.`);
  return { data: r.data, pages: r.pages, refused: r.refused, engine: { name: row.name, version: r.engineVersion } };
}
