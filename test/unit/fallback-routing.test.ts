/**
 * Issue 47's Chrome fallback routes (src/operations/web/sheets.ts, text.ts, svg.ts; `fallback: true`, honoured by
 * operations/registry.ts candidatesOf): for spreadsheets and txt → pdf/png/jpg and svg/svgz → pdf the native row
 * (LibreOffice, Inkscape) is first and chrome last, although the engine table has chrome before the native rows;
 * html → pdf keeps chrome first; a pin on libreoffice/office/inkscape never reaches chrome; ENGINE_ORDER cannot put a
 * fallback ahead. Through the runner (runner/execute.ts) with a fake LibreOffice and a fake browser that records the
 * page it is given: LibreOffice unavailable or handing off (UNSUPPORTED) → chrome runs, reports engine chrome, the
 * layout warning and one warning per LibreOffice option it ignored (validated by LibreOffice's handler: password,
 * pages, pdf_a); a LibreOffice failure that is not a hand-off stays the task's error. The page SheetJS makes of
 * hostile cells holds them as text only (no element of theirs), under a Content Security Policy.
 */
import { describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import { TaskError } from "../../src/engines/errors";
import type { OfficeEngine } from "../../src/engines/kinds/office";
import type { WebEngine, WebRenderRequest } from "../../src/engines/kinds/web";
import { parseEngineOrder } from "../../src/engines/routing";
import { createSheetJsEngine } from "../../src/engines/sheetjs/engine";
import { candidatesOf, handlersOf, route } from "../../src/operations/registry";
import type { InputFile } from "../../src/operations/types";
import { validateTaskParams } from "../../src/operations/validate";
import { SHEETS_LAYOUT_WARNING } from "../../src/operations/web/sheets";
import { gunzipWithin, svgSize } from "../../src/operations/web/svg";
import { gzipSync } from "node:zlib";
import { decodeText, TEXT_LAYOUT_WARNING } from "../../src/operations/web/text";
import { execute } from "../../src/runner/execute";
import { testContext } from "../support/context";

const engines = (input: string, output: string, pin?: string, order?: string) =>
  candidatesOf(handlersOf("convert")!, { input, output, pin, order: parseEngineOrder(order) }).map(
    (c) => c.engine.name,
  );

describe("routing: the native row first, chrome as the fallback", () => {
  const sheets = ["csv", "et", "numbers", "ods", "xls", "xlsm", "xlsx"];
  it.each(sheets.flatMap((i) => ["pdf", "png", "jpg"].map((o) => [i, o])))(
    "%s → %s: libreoffice, then chrome",
    (i, o) => {
      const names = engines(i, o);
      expect(names[0]).toBe("libreoffice");
      expect(names.at(-1)).toBe("chrome");
      expect(names.filter((n) => n === "chrome")).toHaveLength(1);
    },
  );

  it("txt → pdf/png/jpg: libreoffice first, chrome last", () => {
    for (const o of ["pdf", "png", "jpg"]) {
      const names = engines("txt", o);
      expect(names[0]).toBe("libreoffice");
      expect(names.at(-1)).toBe("chrome");
    }
  });

  it("svg, svgz → pdf: inkscape first, chrome last; svg → png stays resvg's with no chrome", () => {
    expect(engines("svg", "pdf")).toEqual(["inkscape", "chrome"]);
    expect(engines("svgz", "pdf")).toEqual(["inkscape", "chrome"]);
    expect(engines("svg", "png")[0]).toBe("resvg");
    expect(engines("svg", "png")).not.toContain("chrome");
  });

  it("html and md → pdf keep chrome first", () => {
    expect(engines("html", "pdf")[0]).toBe("chrome");
    expect(engines("md", "png")[0]).toBe("chrome");
  });

  it("a pin on libreoffice, office or inkscape never reaches chrome; a pin on chrome takes it alone", () => {
    expect(engines("xlsx", "pdf", "libreoffice")).toEqual(["libreoffice"]);
    expect(engines("xlsx", "pdf", "office")).toEqual(["libreoffice"]);
    expect(engines("txt", "pdf", "office")).toEqual(["libreoffice"]);
    expect(engines("svg", "pdf", "inkscape")).toEqual(["inkscape"]);
    expect(engines("xlsx", "pdf", "chrome")).toEqual(["chrome"]);
    expect(
      route("convert", { output_format: "pdf", engine: "libreoffice" }, "book.xlsx").map((c) => c.engine.name),
    ).toEqual(["libreoffice"]);
  });

  it("ENGINE_ORDER naming chrome first reorders html, never a fallback ahead of the native row", () => {
    expect(engines("xlsx", "pdf", undefined, "convert=chrome,libreoffice")).toEqual(["libreoffice", "chrome"]);
    expect(engines("html", "pdf", undefined, "convert=chrome")[0]).toBe("chrome");
  });
});

describe("validation: LibreOffice's options are judged by LibreOffice's handler", () => {
  it("xlsx → pdf with password, pages, pdf_a is valid, the options kept for whichever route runs", () => {
    const r = validateTaskParams(
      handlersOf("convert")!,
      { input_format: "xlsx", output_format: "pdf", password: "x", pages: "1-2", pdf_a: true },
      "xlsx",
    );
    expect("params" in r && r.params).toMatchObject({ password: "x", pages: "1-2", pdf_a: true });
  });
  it("a bad value of LibreOffice's option is still refused (422), not swallowed by the fallback", () => {
    const r = validateTaskParams(
      handlersOf("convert")!,
      { input_format: "xlsx", output_format: "pdf", pages: 7 },
      "xlsx",
    );
    expect("errors" in r && r.errors.join()).toMatch(/pages/);
  });
});

/** A browser that records the page and answers a one-byte "PDF". */
function fakeBrowser(seen: WebRenderRequest[]): WebEngine {
  return {
    async render(req) {
      seen.push(req);
      return { ok: true, engineVersion: "1.0-test", data: new Uint8Array([1]), pages: 1, refused: [] };
    },
  };
}

const file = (filename: string, data: Uint8Array): InputFile => ({
  filename,
  size: data.byteLength,
  fromTask: "in",
  key: `k/${filename}`,
  bytes: async () => data,
});

const workbook = (rows: string[][]) => {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), "Hostile");
  return new Uint8Array(XLSX.write(wb, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
};

const HOSTILE = [
  "<script>document.title='pwned'</script>",
  "<img src=file:///etc/passwd onerror=alert(1)>",
  '<link rel=prerender href="http://127.0.0.1:9/prerender">',
  '<script type=speculationrules>{"prefetch":[{"source":"list","urls":["http://127.0.0.1:9/spec"]}]}</script>',
];

describe("the runner: chrome runs when LibreOffice cannot", () => {
  it("LibreOffice absent: engine chrome, the layout warning, LibreOffice's options warned as ignored", async () => {
    const seen: WebRenderRequest[] = [];
    const ctx = testContext({ engines: { sheetjs: createSheetJsEngine(), chrome: fakeBrowser(seen) } });
    const v = validateTaskParams(
      handlersOf("convert")!,
      { output_format: "pdf", password: "x", pages: "1-2", pdf_a: true },
      "xlsx",
    );
    if (!("params" in v)) throw new Error(v.errors.join());
    const done = await execute(
      "convert",
      v.params,
      [file("hostile.xlsx", workbook([["head"], ...HOSTILE.map((h) => [h])]))],
      ctx,
    );
    expect(done.engine).toEqual({ name: "chrome", version: "1.0-test" });
    const warnings = done.out.extra!.warnings as string[];
    expect(warnings).toContain(SHEETS_LAYOUT_WARNING);
    expect(SHEETS_LAYOUT_WARNING).toMatch(/page setup[\s\S]*print areas[\s\S]*styles/);
    for (const k of ["password", "pages", "pdf_a"])
      expect(warnings.some((w) => w.startsWith(`${k} is not supported by Chrome's rendering of xlsx to pdf`))).toBe(
        true,
      );
    expect(done.out.files[0]!.filename).toBe("hostile.pdf");
    // the page: the hostile cells as text, none of their elements; a CSP forbidding scripts and fetches
    const html = (seen[0]!.source as { html: string }).html;
    expect(html).toContain("Content-Security-Policy");
    expect(html).toMatch(/default-src 'none'/);
    expect(html).not.toMatch(/<script|<img|<link/i);
    expect(html).toContain("&lt;script&gt;document.title=");
    expect(html).toContain("&lt;img src=file:///etc/passwd");
  });

  it("a hostile CSV is escaped the same way", async () => {
    const seen: WebRenderRequest[] = [];
    const ctx = testContext({ engines: { sheetjs: createSheetJsEngine(), chrome: fakeBrowser(seen) } });
    const csv = `a,b\n${HOSTILE.map((h) => `"${h.replace(/"/g, '""')}",x`).join("\n")}\n`;
    await execute("convert", { output_format: "png" }, [file("evil.csv", new TextEncoder().encode(csv))], ctx);
    const html = (seen[0]!.source as { html: string }).html;
    expect(html).not.toMatch(/<script|<img|<link/i);
    expect(html).toContain("&lt;link rel=prerender");
  });

  it("LibreOffice handing off (UNSUPPORTED) passes to chrome; another failure stays the task's", async () => {
    const seen: WebRenderRequest[] = [];
    const office = (code: "UNSUPPORTED" | "CONVERSION_FAILED"): OfficeEngine => ({
      async convert() {
        return { ok: false, error: { code, message: "nope", retryable: false }, engineVersion: "7.4" };
      },
    });
    const txt = file("notes.txt", new TextEncoder().encode("hello\tworld\n"));
    const handedOff = await execute(
      "convert",
      { output_format: "pdf" },
      [txt],
      testContext({ engines: { libreoffice: office("UNSUPPORTED"), chrome: fakeBrowser(seen) } }),
    );
    expect(handedOff.engine.name).toBe("chrome");
    expect(handedOff.out.extra!.warnings).toContain(TEXT_LAYOUT_WARNING);
    expect((seen[0]!.source as { html: string }).html).toContain("<pre>hello\tworld\n</pre>");
    await expect(
      execute(
        "convert",
        { output_format: "pdf" },
        [txt],
        testContext({ engines: { libreoffice: office("CONVERSION_FAILED"), chrome: fakeBrowser(seen) } }),
      ),
    ).rejects.toThrow(TaskError);
    expect(seen).toHaveLength(1);
  });

  // an engine Worker's isolate over 128 MB: the call is rejected with workerd's "Worker exceeded memory limit."
  // (Cloudflare's Workers limits: the runtime cancels the isolate's requests); that is the engine's budget, so the task
  // goes to the next row, where running past the CPU limit stays the task's TIMEOUT
  it("an engine Worker killed over its memory hands off (OVER_BUDGET); over its CPU time is TIMEOUT", async () => {
    const seen: WebRenderRequest[] = [];
    const killed = (message: string): OfficeEngine => ({
      convert: () => Promise.reject(new Error(message)),
    });
    const txt = file("notes.txt", new TextEncoder().encode("hello\n"));
    const ctxOf = (message: string) =>
      testContext({ engines: { libreoffice: killed(message), chrome: fakeBrowser(seen) } });
    const done = await execute("convert", { output_format: "pdf" }, [txt], ctxOf("Worker exceeded memory limit."));
    expect(done.engine.name).toBe("chrome");
    expect(seen).toHaveLength(1);
    const cpu = await execute(
      "convert",
      { output_format: "pdf" },
      [txt],
      ctxOf("Worker exceeded CPU time limit."),
    ).catch((e: unknown) => e);
    expect(cpu).toBeInstanceOf(TaskError);
    expect((cpu as TaskError).code).toBe("TIMEOUT");
    expect(seen).toHaveLength(1);
  });

  it("svg → pdf: the page is the drawing's size, margins 0", async () => {
    const seen: WebRenderRequest[] = [];
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="144pt" height="2in"><rect width="10" height="10"/></svg>';
    const done = await execute(
      "convert",
      { output_format: "pdf" },
      [file("d.svg", new TextEncoder().encode(svg))],
      testContext({ engines: { chrome: fakeBrowser(seen) } }),
    );
    expect(done.engine.name).toBe("chrome");
    const o = seen[0]!.options;
    expect(o.page_width).toBeCloseTo(2 * 2.54, 6);
    expect(o.page_height).toBeCloseTo(2 * 2.54, 6);
    expect([o.margin_top, o.margin_bottom, o.margin_left, o.margin_right]).toEqual([0, 0, 0, 0]);
  });
});

describe("helpers", () => {
  it("svgSize: width/height in units, viewBox for missing sides, not stroke-width", () => {
    expect(svgSize('<svg width="72pt" height="1in">')).toEqual({ width: 96, height: 96 });
    expect(svgSize('<svg stroke-width="3" viewBox="0 0 40 20" width="80">')).toEqual({ width: 80, height: 40 });
    expect(svgSize('<?xml version="1.0"?><!-- <svg width="1"> --><svg viewBox="0,0,10,30">')).toEqual({
      width: 10,
      height: 30,
    });
    expect(svgSize('<svg width="100%" height="100%">')).toEqual({ width: 300, height: 150 });
  });
  it("gunzipWithin: an svgz inflated within the budget; over it OVER_BUDGET, corrupt OPEN_FAILED; plain bytes as they are", async () => {
    const svg = new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg">${" ".repeat(10_000)}</svg>`);
    expect(await gunzipWithin(gzipSync(svg), 20_000)).toEqual(svg);
    await expect(gunzipWithin(gzipSync(svg), 5_000)).rejects.toMatchObject({ code: "OVER_BUDGET" });
    const corrupt = gzipSync(svg).slice(0, 30);
    await expect(gunzipWithin(corrupt, 20_000)).rejects.toMatchObject({ code: "OPEN_FAILED" });
    expect(await gunzipWithin(svg, 1)).toBe(svg);
  });
  it("decodeText: BOM, UTF-8, else windows-1252", () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toEqual({ text: "a", encoding: "utf-8" });
    expect(decodeText(new Uint8Array([0xff, 0xfe, 0x61, 0]))).toEqual({ text: "a", encoding: "utf-16le" });
    expect(decodeText(new TextEncoder().encode("é"))).toEqual({ text: "é", encoding: "utf-8" });
    expect(decodeText(new Uint8Array([0x80, 0xe9]))).toEqual({ text: "€é", encoding: "windows-1252" });
  });
});
