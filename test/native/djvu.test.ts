/**
 * DjVu (issue 32) through the operations and the native engine's djvulibre row: the corpus's 4-page bundled DjVu to
 * pdf (pdfinfo: as many pages as djvused counts, each page the DjVu page's size at its resolution), to png and jpg one
 * file per page (identify: each page's pixel size as djvused reports it), to djvu (a bundled re-save djvused reads
 * with the same pages); hostile inputs: not a DjVu, truncated, an indirect DjVu naming local files as its pages, and a page declaring 32767 × 32767 pixels (OVER_BUDGET
 * before anything renders). Issue 49: a DjVu over 64 MiB (120 pages, each the corpus photo encoded by DjVuLibre's c44,
 * bundled by djvm) streams to DjVuLibre's folder under a 64 MiB address-space limit for the tools, its re-save streams
 * back (djvused: every page; the native server's VmHWM grows by less than the file: +28–47 MB measured), a page of it
 * → pdf (pdfinfo) and → png (identify; ImageMagick's RMSE to the photo).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStreamed } from "../../native-protocol/frame";
import { NATIVE_MAX_BYTES } from "../../src/engines/native/rows";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { hwm, nativeServerPids } from "../support/proc-memory";
import { bytesInput, dataOf, expectTaskError, streamOnlyInput, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

const native = nativeEngineForFile();

const REL = "office/pywikibot-myfile.djvu";
const dir = mkdtempSync(join(tmpdir(), "djvu-"));
const ctx = () => testContext({ engines: native.engines() });
const source = () => new Uint8Array(readFileSync(corpusPath(REL)));
const convert = (data: Uint8Array, output_format: string, name = "myfile.djvu", extra = {}) =>
  execute("convert", { output_format, ...extra }, [bytesInput(name, data)], ctx());
const saved = (data: Uint8Array, name: string) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};
/** djvused's page count and per-page pixel sizes and resolutions (dump of INFO chunks). */
function djvuPages(path: string): { w: number; h: number; dpi: number }[] {
  const n = Number(execFileSync("djvused", ["-e", "n", path], { encoding: "utf8" }).trim());
  return Array.from({ length: n }, (_, i) => {
    const size = execFileSync("djvused", ["-e", `select ${i + 1}; size`, path], { encoding: "utf8" });
    const m = /width=(\d+) height=(\d+)(?: dpi=(\d+))?/.exec(size)!;
    const dump = execFileSync("djvudump", [path], { encoding: "utf8" });
    const dpi = Number(m[3] ?? [...dump.matchAll(/INFO \[10\].*?, (\d+) dpi/g)][i]?.[1] ?? 300);
    return { w: +m[1]!, h: +m[2]!, dpi };
  });
}

describe("djvu → pdf, png, jpg, djvu (DjVuLibre)", () => {
  it(
    "→ pdf: pdfinfo's page count is djvused's, each page the DjVu page's size in points",
    async () => {
      const pages = djvuPages(corpusPath(REL));
      expect(pages.length).toBe(4);
      const r = await convert(source(), "pdf");
      expect(r.engine.name).toBe("djvulibre");
      expect(r.out.files[0]!.filename).toBe("myfile.pdf");
      const path = saved(dataOf(r.out.files[0]!), "out.pdf");
      const info = execFileSync("pdfinfo", ["-l", "99", path], { encoding: "utf8" });
      expect(Number(/^Pages:\s+(\d+)/m.exec(info)![1])).toBe(pages.length);
      const sizes = [...info.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/g)].map((m) => [+m[1]!, +m[2]!]);
      expect(sizes.length).toBe(pages.length);
      for (const [i, p] of pages.entries()) {
        expect(sizes[i]![0]).toBeCloseTo((p.w / p.dpi) * 72, 0);
        expect(sizes[i]![1]).toBeCloseTo((p.h / p.dpi) * 72, 0);
      }
    },
    scaled(120_000),
  );

  it(
    "pages=2-3 → a 2-page pdf",
    async () => {
      const r = await convert(source(), "pdf", "myfile.djvu", { pages: "2-3" });
      const info = execFileSync("pdfinfo", [saved(dataOf(r.out.files[0]!), "range.pdf")], { encoding: "utf8" });
      expect(/^Pages:\s+(\d+)/m.exec(info)![1]).toBe("2");
    },
    scaled(120_000),
  );

  it.each(["png", "jpg"])(
    "→ %s: one image per page, each the page's pixel size (identify)",
    async (format) => {
      const pages = djvuPages(corpusPath(REL));
      const r = await convert(source(), format);
      expect(r.out.files.map((f) => f.filename)).toEqual(pages.map((_, i) => `myfile-${i + 1}.${format}`));
      for (const [i, f] of r.out.files.entries()) {
        const id = execFileSync("identify", ["-format", "%m %w %h", saved(dataOf(f), `p${i}.${format}`)], {
          encoding: "utf8",
        });
        expect(id).toBe(`${format === "jpg" ? "JPEG" : "PNG"} ${pages[i]!.w} ${pages[i]!.h}`);
      }
    },
    120_000,
  );

  it(
    "→ djvu: a bundled DjVu (FORM:DJVM) djvused reads with the same pages",
    async () => {
      const r = await convert(source(), "djvu");
      const path = saved(dataOf(r.out.files[0]!), "resaved.djvu");
      expect(execFileSync("djvudump", [path], { encoding: "utf8" })).toMatch(/FORM:DJVM/);
      expect(djvuPages(path)).toEqual(djvuPages(corpusPath(REL)));
    },
    scaled(120_000),
  );
});

describe("hostile DjVu", () => {
  it(
    "a file that is no DjVu → OPEN_FAILED",
    async () => {
      await expectTaskError(() => convert(new TextEncoder().encode("%PDF-1.4 not a djvu"), "pdf"), "OPEN_FAILED");
    },
    scaled(60_000),
  );

  it(
    "the corpus DjVu truncated to half → a coded error (OPEN_FAILED or CONVERSION_FAILED), not a crash",
    async () => {
      const half = source().subarray(0, 1500);
      let code = "";
      try {
        await convert(half, "pdf");
      } catch (e) {
        code = (e as { code?: string }).code ?? "";
      }
      expect(["OPEN_FAILED", "CONVERSION_FAILED"]).toContain(code);
    },
    scaled(60_000),
  );

  it(
    "an indirect DjVu whose directory names /etc/passwd and a FIFO as its pages → UNSUPPORTED, neither opened",
    async () => {
      const fifo = join(dir, "page.fifo");
      execFileSync("mkfifo", [fifo]);
      // DIRM: flags 0x01 (indirect, version 1), 2 files, then (uncompressed here) offsets-less directory; the names
      // follow in what would be the BZZ-compressed part — enough for the flag check, which comes first
      const names = new TextEncoder().encode(`/etc/passwd\0${fifo}\0`);
      const dirm = [...new TextEncoder().encode("DIRM"), 0, 0, 0, 3 + names.length, 0x01, 0, 2, ...names];
      const form = [...new TextEncoder().encode("DJVM"), ...dirm];
      const file = new Uint8Array([
        ...new TextEncoder().encode("AT&TFORM"),
        0,
        0,
        (form.length >> 8) & 255,
        form.length & 255,
        ...form,
      ]);
      const t0 = Date.now();
      await expectTaskError(() => convert(file, "pdf", "indirect.djvu"), "UNSUPPORTED");
      expect(Date.now() - t0).toBeLessThan(30_000);
    },
    scaled(60_000),
  );

  it(
    "a page declaring 32767 × 32767 pixels (1 G pixels in 30 bytes) → OVER_BUDGET before rendering",
    async () => {
      // FORM:DJVU holding only an INFO chunk: width, height (big-endian), version 24/0, 300 dpi (little-endian), gamma 22
      const info = [0x7f, 0xff, 0x7f, 0xff, 24, 0, 0x2c, 0x01, 22, 0];
      const body = [..."DJVU", ..."INFO"].map((c) => (typeof c === "string" ? c.charCodeAt(0) : c));
      const chunk = [...body, 0, 0, 0, info.length, ...info];
      const bomb = new Uint8Array([
        ..."AT&TFORM".split("").map((c) => c.charCodeAt(0)),
        0,
        0,
        0,
        chunk.length,
        ...chunk,
      ]);
      const t0 = Date.now();
      await expectTaskError(() => convert(bomb, "png", "bomb.djvu"), "OVER_BUDGET");
      expect(Date.now() - t0).toBeLessThan(30_000);
    },
    scaled(60_000),
  );
});

describe("issue 49: a DjVu over 64 MiB streams to DjVuLibre", () => {
  /** The tools' address space: 64 MiB, less than the DjVu, so a tool that read it whole would fail. */
  const small = nativeEngineForFile({ NATIVE_MEMORY_MB: "64" });
  const PHOTO = "images/exif-orientation-Landscape_1.jpg";
  const PAGES = 120;
  const big = join(dir, "big.djvu");
  beforeAll(() => {
    // one page: the corpus photo (1800 × 1200) as IW44 by c44 (~575 KB with these slices), then 120 copies bundled
    const page = join(dir, "photo.djvu");
    execFileSync("c44", ["-slice", "74+13+10+20", corpusPath(PHOTO), page]);
    const copies = Array.from({ length: PAGES }, (_, i) => {
      const c = join(dir, `p${i + 1}.djvu`);
      copyFileSync(page, c);
      return c;
    });
    execFileSync("djvm", ["-c", big, ...copies]);
    for (const c of [page, ...copies]) rmSync(c);
  }, scaled(60_000));
  afterAll(() => rmSync(big, { force: true }));
  const run = (format: string, extra = {}) =>
    execute(
      "convert",
      { output_format: format, ...extra },
      [streamOnlyInput(big)],
      testContext({ engines: small.engines() }),
    );
  const sizes = (path: string) =>
    execFileSync("djvused", ["-e", Array.from({ length: PAGES }, (_, i) => `select ${i + 1}; size`).join("; "), path], {
      encoding: "utf8",
    })
      .trim()
      .split("\n");

  it(
    "→ djvu: the re-save streams back, a bundled DjVu of the same 120 pages (djvused), each 1800 × 1200",
    async () => {
      expect(statSync(big).size).toBeGreaterThan(NATIVE_MAX_BYTES);
      // each native server's peak resident memory (/proc VmHWM) before the call, to hold its growth below
      const before = new Map(nativeServerPids(process.pid).map((pid) => [pid, hwm(pid)]));
      expect(before.size).toBeGreaterThan(0);
      const r = await run("djvu");
      expect(r.engine.name).toBe("djvulibre");
      expect(r.out.extra?.pages).toBe(PAGES);
      const f = r.out.files[0]!;
      // over 64 MiB: a stream, which only a framed call answers
      expect(isStreamed(f.data)).toBe(true);
      const path = join(dir, "resaved.djvu");
      writeFileSync(
        path,
        new Uint8Array(await new Response((f.data as { stream: ReadableStream }).stream).arrayBuffer()),
      );
      expect(execFileSync("djvudump", [path], { encoding: "utf8" })).toMatch(/DIRM.*bundled, 120 files 120 pages/);
      expect(sizes(path)).toEqual(sizes(big));
      expect(new Set(sizes(path))).toEqual(new Set(["width=1800 height=1200"]));
      rmSync(path);
      // neither the 69 MB DjVu nor its 69 MB re-save was held whole by the server: its peak grew by less than either
      // (measured +28 and +47 MB over an idle 106 MB: the streams' 64 KiB chunks not yet collected)
      for (const [pid, was] of before) expect(hwm(pid) - was, `native server ${pid}`).toBeLessThan(statSync(big).size);
    },
    scaled(60_000),
  );

  it(
    "pages=120 → a 1-page pdf of the page's size (100 dpi: 1296 × 864 pt); → png of page 120: the photo (RMSE)",
    async () => {
      const pdf = await run("pdf", { pages: "120" });
      expect(pdf.engine.name).toBe("djvulibre");
      const info = execFileSync("pdfinfo", [saved(dataOf(pdf.out.files[0]!), "page120.pdf")], { encoding: "utf8" });
      expect(/^Pages:\s+(\d+)/m.exec(info)![1]).toBe("1");
      expect(info).toMatch(/Page size:\s+1296 x 864 pts/);
      const png = await run("png", { pages: "120" });
      expect(png.out.files).toHaveLength(1);
      const path = saved(dataOf(png.out.files[0]!), "page120.png");
      expect(execFileSync("identify", ["-format", "%m %w %h", path], { encoding: "utf8" })).toBe("PNG 1800 1200");
      // ImageMagick's compare against the corpus photo itself (IW44 is lossy: close, not equal)
      const cmp = spawnSync("compare", ["-metric", "RMSE", path, corpusPath(PHOTO), "null:"], { encoding: "utf8" });
      const rmse = Number(/\(([\d.]+)\)/.exec(cmp.stderr)![1]);
      expect(rmse).toBeLessThan(0.05);
    },
    scaled(60_000),
  );
});
