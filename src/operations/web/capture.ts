/**
 * capture-website (contract §6, service-spec): a web page at `url` as pdf, png, jpg or webp,
 * rendered by Chrome on Browser Rendering. The URL, its redirects and every subresource pass the
 * import/url SSRF guard (checked again at creation: a refused URL is a 422). Result: the file, and
 * `pages` for a PDF; subresources the guard blocked are listed in `result.refused`.
 */
import { z } from "zod";
import { refuseUrl } from "../../security/ssrf";
import type { OperationHandler } from "../types";
import { checkRender, renderParams } from "./schemas";
import { renderWith } from "./render";

const params = z.object({
  url: z.string().min(1).max(8192).describe("The http(s) URL of the page"),
  ...renderParams,
});

type Params = z.infer<typeof params>;

/** "https://example.com/docs/page.html?x" → "page"; a bare host → the host. */
function nameOf(url: string): string {
  try {
    const u = new URL(url);
    const last = u.pathname
      .split("/")
      .filter(Boolean)
      .pop()
      ?.replace(/\.[A-Za-z0-9]{1,5}$/, "");
    return (last || u.hostname).replace(/[^\p{L}\p{N}._-]+/gu, "_").slice(0, 100) || "capture";
  } catch {
    return "capture";
  }
}

export const captureWebsite: OperationHandler<Params> = {
  operation: "capture-website",
  kind: "web",
  formats: ["pdf", "png", "jpg", "webp"].map((output) => ({ input: "*", output })),
  params,
  credits: 1,
  takesInput: false,
  requiresOutputFormat: true,
  taskRefs: ["header_template", "footer_template"],
  check(p) {
    const why = refuseUrl(p.url, true);
    return [...(why ? [`url: ${why}`] : []), ...checkRender(p)];
  },
  async run(_inputs, p, ctx) {
    const output = p.output_format as "pdf" | "png" | "jpg" | "webp";
    const r = await renderWith(ctx, "capture-website", { url: p.url }, output, p, p.url);
    return {
      files: [{ filename: p.filename ?? `${nameOf(p.url)}.${output}`, data: r.data }],
      extra: { ...(r.pages !== null ? { pages: r.pages } : {}), ...(r.refused.length ? { refused: r.refused } : {}) },
      engine: r.engine,
    };
  },
};
