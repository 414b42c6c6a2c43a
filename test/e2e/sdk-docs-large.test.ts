/**
 * Issue 49 end to end through the official SDK under `npm start` (workerd, R2, the native engine): a PDF and a DjVu
 * over the stream threshold (64 MiB) are converted by the native poppler and DjVuLibre rows, each streamed from R2 to
 * the tool's folder on the framed wire, the re-saved DjVu (over 64 MiB too) streamed back into R2.
 * Inputs: 68 copies of the corpus's pdfjs-tracemonkey.pdf joined by qpdf (68 MB, 952 pages); 120 pages of the corpus
 * photo exif-orientation-Landscape_1.jpg encoded by DjVuLibre's c44 and bundled by djvm (69 MB).
 * Oracles: pdftotext of the same PDF (the txt equal to it), djvused (the re-saved DjVu's page count and page sizes).
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  createReadStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NATIVE_MAX_BYTES } from "../../src/engines/native/rows";
import { corpusPath } from "../support/corpus";
import { type JobBody, sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
let dir: string;
beforeAll(() => {
  server = sharedServer("guarded");
  dir = mkdtempSync(join(tmpdir(), "sdk-docs-large-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Uploads `path` as `name`, converts it with `convert`'s parameters, exports it; answers the finished job's file. */
async function convertOne(path: string, name: string, convert: Record<string, unknown>, ext: string) {
  const cc = sdk("key-a", server.base);
  let job = await cc.jobs.create({
    tasks: {
      up: { operation: "import/upload" },
      conv: { operation: "convert", input: "up", ...convert },
      out: { operation: "export/url", input: "conv" },
    },
  } as unknown as JobBody);
  await cc.tasks.upload(
    job.tasks.find((t) => t.name === "up")!,
    createReadStream(path),
    name,
  );
  job = await cc.jobs.wait(job.id);
  expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
  const [url] = cc.jobs.getExportUrls(job);
  const out = join(dir, `out.${ext}`);
  writeFileSync(out, new Uint8Array(await (await fetch(url!.url!)).arrayBuffer()));
  return { engine: job.tasks.find((t) => t.name === "conv")!.engine, path: out };
}

describe("documents over 64 MiB through the SDK (issue 49)", () => {
  it("a 68 MB PDF → txt on poppler, streamed from R2 to its folder: the text pdftotext reads from the same file", async () => {
    const links = Array.from({ length: 68 }, (_, i) => {
      const l = join(dir, `copy-${i}.pdf`);
      symlinkSync(corpusPath("pdf/pdfjs-tracemonkey.pdf"), l);
      return l;
    });
    const big = join(dir, "big.pdf");
    execFileSync("qpdf", ["--empty", "--pages", ...links, "--", big]);
    expect(statSync(big).size).toBeGreaterThan(NATIVE_MAX_BYTES);
    const r = await convertOne(big, "big.pdf", { output_format: "txt" }, "txt");
    expect(r.engine).toBe("poppler");
    const want = execFileSync("pdftotext", ["-enc", "UTF-8", big, "-"], { encoding: "utf8", maxBuffer: 2 ** 28 });
    expect(readFileSync(r.path, "utf8")).toBe(want);
    rmSync(big);
  }, 300_000);

  it("a 69 MB DjVu → djvu on DjVuLibre, streamed both ways: djvused reads its 120 pages, each 1800 × 1200", async () => {
    const page = join(dir, "photo.djvu");
    execFileSync("c44", ["-slice", "74+13+10+20", corpusPath("images/exif-orientation-Landscape_1.jpg"), page]);
    const copies = Array.from({ length: 120 }, (_, i) => {
      const c = join(dir, `p${i + 1}.djvu`);
      copyFileSync(page, c);
      return c;
    });
    const big = join(dir, "big.djvu");
    execFileSync("djvm", ["-c", big, ...copies]);
    expect(statSync(big).size).toBeGreaterThan(NATIVE_MAX_BYTES);
    const r = await convertOne(big, "big.djvu", { output_format: "djvu" }, "djvu");
    expect(r.engine).toBe("djvulibre");
    const script = Array.from({ length: 120 }, (_, i) => `select ${i + 1}; size`).join("; ");
    const sizes = (p: string) => execFileSync("djvused", ["-e", script, p], { encoding: "utf8" }).trim().split("\n");
    expect(execFileSync("djvused", ["-e", "n", r.path], { encoding: "utf8" }).trim()).toBe("120");
    expect(sizes(r.path)).toEqual(sizes(big));
    expect(new Set(sizes(r.path))).toEqual(new Set(["width=1800 height=1200"]));
  }, 300_000);
});
