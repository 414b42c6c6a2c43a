/**
 * The native engine (container/server.ts, issue 12) run as a local process and reached through the
 * real runner (`execute`, src/runner/execute.ts) with the engine table's routing: WebAssembly
 * engines first, the native rows after them. Every outcome is judged by tools that are not this
 * project's code: qpdf, poppler (pdfinfo, pdffonts, pdfimages, pdftotext), exiftool, Ghostscript
 * re-opening the output, ImageMagick's `identify`, dpkg, /proc — or by corpus/facts.json.
 *
 * Office conversion (LibreOffice) is deliberately not tested here.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskError, toFailure } from "../../src/engines/errors";
import type { EngineInstances } from "../../src/engines/registry";
import { parseJobTasks } from "../../src/graph/parse";
import { handlersOf } from "../../src/operations/registry";
import type { InputFile, OperationContext } from "../../src/operations/types";
import { execute, type Executed } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath, fact } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { bytesInput, corpusInput, dataOf, expectTaskError, pageRotations, pageText, pdfinfo, pdftotext, testContext, tmpFile } from "../support/pdf-helpers";

// ---------------------------------------------------------------------------------------------
// Shared state: one native engine with every tool, one with none (PATH=/nonexistent).
// ---------------------------------------------------------------------------------------------

let native: NativeServer;
let bare: NativeServer;
/** The native engine's work root (NATIVE_WORK_DIR): every tool run's arguments name a path under it. */
let root: string;
/** This file's own scratch folder (the 2,400-page PDF, the 60-megapixel PNG). */
let scratch: string;
let bigPdf: string;
let bigPng: string;
/** The in-process WebAssembly engines, created once (their modules load on first use). */
let wasm: EngineInstances;

/** A context with the WebAssembly engines and the native rows (the production order). */
const full = (opts?: { signal?: AbortSignal; timeoutMs?: number }, signal?: AbortSignal): OperationContext =>
  testContext({ ...(signal ? { signal } : {}), engines: { ...wasm, ...native.engines(opts) } });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "native-root-"));
  scratch = mkdtempSync(join(tmpdir(), "native-test-"));
  wasm = nodeEngines();
  [native, bare] = await Promise.all([startNativeEngine({ NATIVE_WORK_DIR: root }), startNativeEngine({ PATH: "/nonexistent" })]);

  // 200 × the 12-page corpus PDF = 2,400 pages (qpdf shares the repeated file's resources: ~0.6 MB)
  bigPdf = join(scratch, "big.pdf");
  const pages12 = corpusPath("pdf/gotenberg-pages_12.pdf");
  const q = sh("qpdf", ["--empty", "--pages", ...Array<string>(200).fill(pages12), "--", bigPdf]);
  if (q.status !== 0) throw new Error(`qpdf could not build the 2,400-page PDF: ${q.stderr}`);

  // 10000×6000 RGB PNG, left half red, right half blue. Written here, not with `convert`: Debian's
  // ImageMagick policy (memory 256 MiB, disk 1 GiB) makes `convert -size 10000x6000 …` fail with
  // "cache resources exhausted" before it writes anything.
  bigPng = join(scratch, "big.png");
  writeFileSync(bigPng, halvesPng(10000, 6000));
}, 120_000);

afterAll(async () => {
  await Promise.all([native?.stop(), bare?.stop()]);
  if (optimizeRows.length) {
    const lines = optimizeRows.map((r) => `${r.file.padEnd(48)} ${String(r.input).padStart(9)} ${String(r.output).padStart(9)}  ${r.unchanged ? "unchanged (would not shrink)" : `-${(((r.input - r.output) / r.input) * 100).toFixed(1)}%`}`);
    console.log(`optimize profile=web (file, input bytes, output bytes)\n${lines.join("\n")}`);
  }
  for (const d of [root, scratch]) if (d) rmSync(d, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// 1. pdf/a
// ---------------------------------------------------------------------------------------------

/** Pages of the 12-page corpus PDF per facts.json. */
const PAGES12 = Number(fact("pdf/gotenberg-pages_12.pdf").pages);
const PDFA_FILES = ["pdf/gotenberg-pages_12.pdf", "pdf/cloudconvert-input.pdf", "pdf/pdfjs-tracemonkey.pdf"];

describe("pdf/a (Ghostscript)", () => {
  // started two at a time up front (Ghostscript is single-threaded); each test awaits its own run
  beforeAll(() => {
    for (const rel of PDFA_FILES) for (const level of ["1b", "2b", "3b"]) corpusRun("pdf/a", { conformance_level: level }, rel);
  });
  for (const rel of PDFA_FILES) {
    for (const level of ["1b", "2b", "3b"] as const) {
      it(`${level}: ${rel} becomes PDF/A-${level[0]}B with embedded fonts and an sRGB output intent`, async () => {
        const r = await corpusRun("pdf/a", { conformance_level: level }, rel);
        expect(r.engine).toEqual({ name: "ghostscript", version: gsVersion() });
        expect(r.out.files).toHaveLength(1);
        const path = tmpFile(r.out.files[0]!);
        expectPdfA(path, Number(level[0]), Number(pdfinfo(corpusPath(rel)).Pages));
        if (level === "1b") {
          // ISO 19005-1 is based on PDF 1.4: no object streams (a PDF 1.5 feature) in a PDF/A-1 file
          const compressed = sh("qpdf", ["--show-xref", path]).stdout.split("\n").filter((l) => /: compressed;/.test(l));
          expect(compressed, "objects inside object streams (qpdf --show-xref)").toEqual([]);
        }
      });
    }
  }

  it("cloudconvert-input.pdf has fonts that are not embedded (so embedding above is the engine's work)", () => {
    expect(pdffonts(corpusPath("pdf/cloudconvert-input.pdf")).filter((f) => f.emb === "no").length).toBeGreaterThan(0);
  });

  it('creation accepts "2B" (and the job runs as PDF/A-2B); "4b" is refused naming conformance_level', async () => {
    const ok = job({ operation: "pdf/a", conformance_level: "2B" });
    expect(ok).toHaveProperty("specs");
    const params = "specs" in ok ? ok.specs[1]!.params : {};
    const r = await execute("pdf/a", params, [corpusInput("pdf/gotenberg-pages_12.pdf")], full());
    expectPdfA(tmpFile(r.out.files[0]!), 2, PAGES12);

    const bad = job({ operation: "pdf/a", conformance_level: "4b" });
    const msgs = "errors" in bad ? bad.errors["tasks.t"] : undefined;
    expect(msgs, "4b must be a 422").toBeDefined();
    expect(msgs!.join(" ")).toContain("conformance_level");
  });
});

// ---------------------------------------------------------------------------------------------
// 2. pdf/x
// ---------------------------------------------------------------------------------------------

describe("pdf/x (Ghostscript)", () => {
  const VARIANTS = [
    { variant: "4", subtype: "PDF/X-4" },
    { variant: "3", subtype: "PDF/X-3:2002" },
    { variant: "1a", subtype: "PDF/X-1a:2001" },
  ];
  for (const { variant, subtype } of VARIANTS) {
    it(`variant ${variant}: ${subtype} with GTS_PDFXVersion, a CMYK GTS_PDFX output intent and the right PDF version`, async () => {
      const rel = "pdf/gotenberg-pages_12.pdf";
      const r = await execute("pdf/x", { variant }, [corpusInput(rel)], full());
      expect(r.engine).toEqual({ name: "ghostscript", version: gsVersion() });
      const path = tmpFile(r.out.files[0]!);
      expectPdfX(path, subtype, PAGES12);
      const version = Number(pdfinfo(path)["PDF version"]);
      // ISO 15930-7 (X-4) is based on PDF 1.6; ISO 15930-1:2001 (X-1a:2001) and 15930-3:2002 (X-3:2002) on PDF 1.3
      if (variant === "4") expect(version).toBeGreaterThanOrEqual(1.6);
      else expect(version).toBeLessThanOrEqual(1.3);
      // ISO 15930-6 §6.7.2: a Title in the document information; this input has none, so the file's name
      expect(docTitle(corpusPath(rel))).toBeUndefined();
      expect(docTitle(path)).toBe("gotenberg-pages_12");
    });
  }

  it("keeps the input's own Title", async () => {
    const rel = "pdf/cloudconvert-input.pdf";
    const r = await execute("pdf/x", { variant: "3" }, [corpusInput(rel)], full());
    expect(docTitle(tmpFile(r.out.files[0]!))).toBe(docTitle(corpusPath(rel)));
  });

  it('creation accepts "x-4", "pdfx4" and "PDF/X-4" (and "PDF/X-4" runs as X-4); "5" is refused naming variant', async () => {
    for (const v of ["x-4", "pdfx4", "PDF/X-4"]) expect(job({ operation: "pdf/x", variant: v }), v).toHaveProperty("specs");
    const spec = job({ operation: "pdf/x", variant: "PDF/X-4" });
    const r = await execute("pdf/x", "specs" in spec ? spec.specs[1]!.params : {}, [corpusInput("pdf/gotenberg-pages_12.pdf")], full());
    expect(pdfinfo(tmpFile(r.out.files[0]!))["PDF subtype"]).toBe("PDF/X-4");

    const bad = job({ operation: "pdf/x", variant: "5" });
    const msgs = "errors" in bad ? bad.errors["tasks.t"] : undefined;
    expect(msgs, '"5" must be a 422').toBeDefined();
    expect(msgs!.join(" ")).toContain("variant");
  });
});

// ---------------------------------------------------------------------------------------------
// 3. optimize (PDF)
// ---------------------------------------------------------------------------------------------

/** Every PDF of pdf/, scans/ and pdf-encrypted/ that opens without a password and holds images. */
const OPTIMIZE_FILES = ["pdf", "scans", "pdf-encrypted"]
  .flatMap((d) => readdirSync(corpusPath(d)).filter((f) => f.toLowerCase().endsWith(".pdf")).map((f) => `${d}/${f}`))
  .filter((rel) => {
    // qpdf --requires-password: 0 = a password is required, 2 = not encrypted, 3 = encrypted, opens without one
    const needs = sh("qpdf", ["--requires-password", corpusPath(rel)]).status === 0;
    return !needs && imageRows(corpusPath(rel)) > 0;
  })
  .sort();

interface OptimizeRow {
  file: string;
  input: number;
  output: number;
  unchanged: boolean;
  path: string;
}
const optimizeRows: OptimizeRow[] = [];

describe("optimize (PDF, Ghostscript)", () => {
  beforeAll(() => {
    for (const rel of OPTIMIZE_FILES) corpusRun("optimize", { profile: "web" }, rel);
    for (const profile of ["print", "archive", "mrc", "max"]) corpusRun("optimize", { profile }, "pdf/pdfjs-tracemonkey.pdf");
  });
  it("the corpus has PDFs with images to optimize (pdfimages -list)", () => {
    expect(OPTIMIZE_FILES.length).toBeGreaterThanOrEqual(3);
  });

  for (const rel of OPTIMIZE_FILES) {
    it(`web: ${rel} gets smaller and stays a sound PDF (issue 12: every corpus PDF with images)`, async () => {
      const input = new Uint8Array(readFileSync(corpusPath(rel)));
      const r = await corpusRun("optimize", { profile: "web" }, rel);
      expect(r.engine.name).toBe("ghostscript");
      expect(r.out.files).toHaveLength(1);
      const out = dataOf(r.out.files[0]!);
      const name = rel.slice(rel.lastIndexOf("/") + 1);
      const unchanged = (r.out.extra?.unchanged as string[] | undefined) ?? [];
      const path = tmpFile(out);
      optimizeRows.push({ file: rel, input: input.length, output: out.length, unchanged: unchanged.includes(name), path });
      expect(r.out.extra).toMatchObject({ profile: "web", original_size: input.length, bytes_saved: input.length - out.length });
      expect(unchanged).toEqual([]);
      expect(out.length).toBeLessThan(input.length);
      const check = sh("qpdf", ["--check", path]);
      // exit 3 = warnings only; whether those concern the linearization is the next test's question
      expect([0, 3], `qpdf --check: ${check.stdout}${check.stderr}`).toContain(check.status);
      expect(pdfinfo(path).Pages).toBe(pdfinfo(corpusPath(rel)).Pages);
    });
  }

  it("web: every optimized output passes qpdf --check without warnings (its Fast Web View linearization is valid)", () => {
    expect(optimizeRows.length, "the per-file web tests ran").toBe(OPTIMIZE_FILES.length);
    const bad = optimizeRows
      .filter((r) => !r.unchanged)
      .map((r) => ({ file: r.file, ...sh("qpdf", ["--check", r.path]) }))
      .filter((c) => c.status !== 0)
      .map((c) => `${c.file}: exit ${c.status}: ${`${c.stdout}${c.stderr}`.split("\n").filter((l) => /WARNING|error/i.test(l)).slice(0, 2).join(" | ")}`);
    expect(bad).toEqual([]);
  });

  const HEAVY = "pdf/pdfjs-tracemonkey.pdf";
  for (const profile of ["web", "print", "archive", "mrc", "max"]) {
    it(`profile ${profile} on ${HEAVY}: never larger; original_size/bytes_saved/unchanged match the bytes`, async () => {
      const input = new Uint8Array(readFileSync(corpusPath(HEAVY)));
      const r = await corpusRun("optimize", { profile }, HEAVY); // profile web: the run of the test above
      const out = dataOf(r.out.files[0]!);
      expect(out.length).toBeLessThanOrEqual(input.length);
      expect(r.out.extra?.original_size).toBe(input.length);
      expect(r.out.extra?.bytes_saved).toBe(input.length - out.length);
      const same = Buffer.from(out).equals(Buffer.from(input));
      expect(((r.out.extra?.unchanged as string[]) ?? []).includes("pdfjs-tracemonkey.pdf")).toBe(same);
      expect(same, "a 1 MB PDF with 180 images should get smaller under every profile").toBe(false);
      const path = tmpFile(out);
      const check = sh("qpdf", ["--check", path]);
      expect([0, 3], `qpdf --check: ${check.stdout}${check.stderr}`).toContain(check.status);
      expect(pdfinfo(path).Pages).toBe(pdfinfo(corpusPath(HEAVY)).Pages);
      // what ghostscript.ts documents per profile, seen by pdfimages -list
      const before = images(corpusPath(HEAVY));
      const after = images(path);
      if (profile === "print") expect(after.filter((i) => !["cmyk", "gray"].includes(i.color)), "print: CMYK (or gray) images only").toEqual([]);
      if (profile === "web" || profile === "max") expect(after.filter((i) => i.color === "cmyk"), `${profile}: RGB, no CMYK images`).toEqual([]);
      if (profile === "archive") expect(sizes(after), "archive: images not downsampled").toEqual(sizes(before));
      if (profile === "max") expect(pixels(after), "max: images downsampled").toBeLessThan(pixels(before));
    });
  }
});

// ---------------------------------------------------------------------------------------------
// 4. Over the Worker's page budget → native qpdf
// ---------------------------------------------------------------------------------------------

describe("a 2,400-page PDF: pdf-lib answers OVER_BUDGET, native qpdf does the work", () => {
  const bigInput = () => bytesInput("big.pdf", new Uint8Array(readFileSync(bigPdf)));

  it("the input really has 2,400 pages (pdfinfo)", () => {
    expect(pdfinfo(bigPdf).Pages).toBe("2400");
  });

  it("pdf/rotate-pages 90: pdf-lib refuses OVER_BUDGET, qpdf rotates every page", async () => {
    const calls: Call[] = [];
    const ctx = testContext({ engines: { ...wasm, pdflib: spied(wasm.pdflib!, calls), ...native.engines() } });
    const r = await execute("pdf/rotate-pages", { rotation: "90" }, [bigInput()], ctx);
    expect(calls).toContainEqual({ method: "rotate", code: "OVER_BUDGET" });
    expect(r.engine).toEqual({ name: "qpdf", version: qpdfVersion() });
    const path = tmpFile(r.out.files[0]!);
    expect(pdfinfo(path).Pages).toBe("2400");
    for (const page of [1, 2400]) {
      const line = sh("pdfinfo", ["-f", String(page), "-l", String(page), path]).stdout;
      expect(line).toMatch(new RegExp(`Page\\s+${page} rot:\\s+90\\b`));
    }
    expect(new Set(pageRotations(r.out.files[0]!))).toEqual(new Set([90]));
  });

  it('pdf/extract-pages "2399-" gives the last 2 pages (= pages 11 and 12 of the 12-page source)', async () => {
    const r = await execute("pdf/extract-pages", { pages: "2399-" }, [bigInput()], full());
    expect(r.engine.name).toBe("qpdf");
    const path = tmpFile(r.out.files[0]!);
    expect(pdfinfo(path).Pages).toBe("2");
    const src = corpusPath("pdf/gotenberg-pages_12.pdf");
    expect(pageText(path, 1)).toBe(pageText(src, 11));
    expect(pageText(path, 2)).toBe(pageText(src, 12));
    expect(pageText(path, 1)).not.toBe(pageText(path, 2));
  });

  it("without the native engines the same tasks end OVER_BUDGET", async () => {
    const ctx = testContext({ engines: { ...wasm } });
    const rot = await expectTaskError(() => execute("pdf/rotate-pages", { rotation: "90" }, [bigInput()], ctx), "OVER_BUDGET");
    expect(rot.message).toContain("2400");
    await expectTaskError(() => execute("pdf/extract-pages", { pages: "2399-" }, [bigInput()], ctx), "OVER_BUDGET");
  });
});

// ---------------------------------------------------------------------------------------------
// 5. A 60-megapixel image → native ImageMagick
// ---------------------------------------------------------------------------------------------

describe("a 60-megapixel image: WASM ImageMagick answers OVER_BUDGET, native ImageMagick converts it", () => {
  const big = () => bytesInput("big.png", new Uint8Array(readFileSync(bigPng)));

  it("the input is a 10000x6000 PNG (identify)", () => {
    expect(identify(bigPng, "%m %wx%h")).toBe("PNG 10000x6000");
  });

  it("convert to jpg width 2000 → imagemagick-native, a 2000x1200 JPEG with the same picture", async () => {
    const calls: Call[] = [];
    const ctx = testContext({ engines: { ...wasm, imagemagick: spied(wasm.imagemagick!, calls), ...native.engines() } });
    const r = await execute("convert", { output_format: "jpg", width: 2000 }, [big()], ctx);
    expect(calls).toContainEqual({ method: "run", code: "OVER_BUDGET" });
    expect(r.engine).toEqual({ name: "imagemagick-native", version: imVersion() });
    expect(r.out.files[0]!.filename).toBe("big.jpg");
    const path = tmpFile(r.out.files[0]!, "jpg");
    expect(identify(path, "%m %wx%h")).toBe("JPEG 2000x1200");
    expectRedLeftBlueRight(path, 2000, 1200);
  });

  it("without the native engines it ends OVER_BUDGET", async () => {
    const err = await expectTaskError(() => execute("convert", { output_format: "jpg", width: 2000 }, [big()], testContext({ engines: { ...wasm } })), "OVER_BUDGET");
    expect(err.message).toContain("10000");
  });

  it("thumbnail png 200x200 fit crop → a 200x200 PNG, centre crop (red left, blue right)", async () => {
    const r = await execute("thumbnail", { output_format: "png", width: 200, height: 200, fit: "crop" }, [big()], full());
    expect(r.engine.name).toBe("imagemagick-native");
    const path = tmpFile(r.out.files[0]!, "png");
    expect(identify(path, "%m %wx%h")).toBe("PNG 200x200");
    expectRedLeftBlueRight(path, 200, 200);
  });
});

// ---------------------------------------------------------------------------------------------
// 6. command
// ---------------------------------------------------------------------------------------------

describe("command (ImageMagick / GraphicsMagick, no shell)", () => {
  const PNG = "images/cloudconvert-input.png";
  const W = Number(fact(PNG).width);
  const H = Number(fact(PNG).height);
  /** The corpus PNG as the file x.png of input task "up" (→ /input/up/x.png). */
  const upload = (): InputFile => ({ ...bytesInput("x.png", new Uint8Array(readFileSync(corpusPath(PNG)))), fromTask: "up" });
  const im = (args: string, extra: Record<string, unknown> = {}) =>
    execute("command", { engine: "imagemagick", command: "convert", arguments: args, capture_output: true, ...extra }, [upload()], full());

  it("convert -resize 50% writes /output/half.png at half size; result.command is the line; engine imagemagick", async () => {
    const line = "/input/up/x.png -resize 50% /output/half.png";
    const r = await im(line);
    expect(r.out.files.map((f) => f.filename)).toEqual(["half.png"]);
    const [fmt, w, h] = identify(tmpFile(r.out.files[0]!, "png"), "%m %w %h").split(" ");
    expect(fmt).toBe("PNG");
    expect([Math.floor(W / 2), Math.ceil(W / 2)]).toContain(Number(w));
    expect([Math.floor(H / 2), Math.ceil(H / 2)]).toContain(Number(h));
    expect(r.out.extra?.command).toBe(`convert ${line}`);
    expect(r.out.engine).toEqual({ name: "imagemagick", version: imVersion() });
    expect(r.engine).toEqual({ name: "imagemagick", version: imVersion() });
  });

  it("identify with capture_output: the console speaks of /input/up/x.png, never of the server's folders", async () => {
    const r = await im("/input/up/x.png", { command: "identify" });
    const output = String(r.out.extra?.output);
    expect(output.startsWith("/input/up/x.png")).toBe(true);
    expect(output).toContain("PNG");
    expect(output).toContain(`${W}x${H}`);
    expect(output).not.toContain(root);
    const verbose = String((await im("-verbose /input/up/x.png", { command: "identify" })).out.extra?.output);
    expect(verbose).toContain("Filename: /input/up/x.png");
    expect(verbose).not.toContain(root);
    expect(verbose).not.toMatch(/call-[A-Za-z0-9]{6}/);
  });

  it("graphicsmagick: gm convert /input/up/x.png /output/x.jpg → a JPEG of the same size", async () => {
    const r = await execute("command", { engine: "graphicsmagick", command: "gm", arguments: "convert /input/up/x.png /output/x.jpg" }, [upload()], full());
    expect(r.out.files.map((f) => f.filename)).toEqual(["x.jpg"]);
    expect(identify(tmpFile(r.out.files[0]!, "jpg"), "%m %wx%h")).toBe(`JPEG ${W}x${H}`);
    expect(r.engine).toEqual({ name: "graphicsmagick", version: gmVersion() });
  });

  it("quoted arguments with spaces survive splitting (-set comment 'hello world' → identify %c)", async () => {
    const r = await im("/input/up/x.png -set comment 'hello world' /output/c.png");
    expect(identify(tmpFile(r.out.files[0]!, "png"), "%c")).toBe("hello world");
    const info = await im(`/input/up/x.png -set comment "it's \\"quoted\\"" -format %c info:`);
    expect(info.out.extra?.output).toBe(`it's "quoted"`);
  });

  it("nothing is expanded: $(…), backticks and $VAR reach ImageMagick literally", async () => {
    const r = await im("/input/up/x.png -set comment '$(id) `id` $HOME' /output/c.png");
    expect(identify(tmpFile(r.out.files[0]!, "png"), "%c")).toBe("$(id) `id` $HOME");
  });

  const REFUSED: [args: string, field: "arguments" | "command", extra?: Record<string, unknown>][] = [
    ["/etc/passwd /output/x.png", "arguments"],
    ["../x /output/x.png", "arguments"],
    ["/input/../etc/passwd /output/x.png", "arguments"],
    ["/input/up/x.png @/etc/passwd /output/x.png", "arguments"],
    ["url:http://x /output/x.png", "arguments"],
    ["msl:/input/a", "arguments"],
    ["text:/etc/hosts /output/x.png", "arguments"],
    ["'/input/up/x.png /output/x.png", "arguments"],
    ['/input/up/x.png "/output/x.png', "arguments"],
    ["convert /input/up/x.png /output/x.png", "command", { command: "gm" }],
    ["/input/up/x.png; rm -rf / /output/y.png", "arguments"],
  ];
  for (const [args, field, extra] of REFUSED) {
    it(`creation refuses ${JSON.stringify(args)}${extra ? ` with ${JSON.stringify(extra)}` : ""} with a 422 naming ${field}`, () => {
      const r = job({ operation: "command", engine: "imagemagick", command: "convert", arguments: args, ...extra });
      const msgs = "errors" in r ? r.errors["tasks.t"] : undefined;
      expect(msgs, "must be a 422").toBeDefined();
      expect(msgs!.join(" ")).toMatch(new RegExp(`^Task t: ${field}:`));
    });
  }

  it("a shell payload never reaches a shell: refused cleanly with a TaskError, nothing deleted", async () => {
    const sentinels = [join(root, "sentinel.txt"), join(scratch, "sentinel.txt")];
    for (const s of sentinels) writeFileSync(s, "still here");
    // the creation check is bypassed here on purpose: the engine must refuse it again by itself
    await expectTaskError(() => im("/input/up/x.png; rm -rf / /output/y.png"), "UNSUPPORTED");
    // ";" and "&&" as words of their own pass the path check: they must be handed to convert as file names
    const err = await im("/input/up/x.png /output/y.png ; touch /output/z.png && rm /input/up/x.png").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskError);
    expect((err as TaskError).code).toBe("CONVERSION_FAILED");
    // convert was handed "rm" as an input file name: the words were not run as commands
    expect((err as TaskError).message).toContain("unable to open image `rm'");
    for (const s of sentinels) expect(existsSync(s), s).toBe(true);
    // the server is still there and works
    const ok = await im("/input/up/x.png", { command: "identify" });
    expect(String(ok.out.extra?.output)).toContain(`${W}x${H}`);
  });
});

// ---------------------------------------------------------------------------------------------
// 7. Time limits and cancellation
// ---------------------------------------------------------------------------------------------

describe("a hung or cancelled tool", () => {
  const HEAVY = "pdf/pdfjs-tracemonkey.pdf"; // pdf/x of it takes Ghostscript several seconds

  it("timeoutMs 200 on a heavy Ghostscript job → TIMEOUT within seconds, the tool is killed, the next call works", async () => {
    const started = Date.now();
    const err = await expectTaskError(() => execute("pdf/x", { variant: "4" }, [corpusInput(HEAVY)], full({ timeoutMs: 200 })), "TIMEOUT");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err.message).toMatch(/time limit/i);
    expect(await toolsGone(root, 2_000), "tool processes left running under the native engine's work root").toEqual([]);
    const r = await execute("pdf/a", { conformance_level: "2b" }, [corpusInput("pdf/gotenberg-pages_12.pdf")], full());
    expectPdfA(tmpFile(r.out.files[0]!), 2, PAGES12);
  });

  it("aborting the task's signal mid-run rejects at once with the abort reason and kills Ghostscript", async () => {
    const ac = new AbortController();
    const pending = execute("pdf/x", { variant: "4" }, [corpusInput(HEAVY)], full({ signal: ac.signal }, ac.signal)).then(
      () => null,
      (e: unknown) => e,
    );
    // wait until Ghostscript is really running for this call
    const running = await until(() => toolsUnder(root).some((p) => /\bgs\b|ghostscript/.test(p.cmd)), 10_000);
    expect(running, "Ghostscript started").toBe(true);
    const reason = new TaskError("CANCELLED", "The test cancelled the task.");
    const abortedAt = Date.now();
    ac.abort(reason);
    const err = await pending;
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(err).toBeInstanceOf(TaskError);
    // execute() rejects with the engine call's failure wrapping the abort reason (what run-task.ts
    // reports instead is toFailure(signal.reason): CANCELLED)
    expect((err as TaskError).cause).toBe(reason);
    expect((err as TaskError).message).toContain("The test cancelled the task.");
    expect(err).toMatchObject({ code: "INTERNAL_ERROR", retryable: true });
    expect(toFailure(ac.signal.reason).code).toBe("CANCELLED");
    expect(await toolsGone(root, 2_000), "Ghostscript still running after the abort").toEqual([]);
    const r = await execute("pdf/a", { conformance_level: "1b" }, [corpusInput("pdf/gotenberg-pages_12.pdf")], full());
    expectPdfA(tmpFile(r.out.files[0]!), 1, PAGES12);
  });
});

// ---------------------------------------------------------------------------------------------
// 8. Broken and encrypted input
// ---------------------------------------------------------------------------------------------

describe("broken and encrypted input through pdf/a", () => {
  it("random bytes named .pdf → OPEN_FAILED naming the file", async () => {
    const err = await expectTaskError(() => execute("pdf/a", { conformance_level: "2b" }, [bytesInput("random.pdf", randomBytes(4096, 12345))], full()), "OPEN_FAILED");
    expect(err.message).toContain("random.pdf");
  });

  it("broken/ocrmypdf-invalid.pdf (a header and %%EOF, nothing else) → OPEN_FAILED naming the file", async () => {
    const rel = "broken/ocrmypdf-invalid.pdf";
    expect(sh("pdfinfo", [corpusPath(rel)]).status, "poppler cannot open it either").not.toBe(0);
    const err = await expectPdfFailure(execute("pdf/a", { conformance_level: "2b" }, [corpusInput(rel)], full()), "OPEN_FAILED");
    expect(err.message).toContain("ocrmypdf-invalid.pdf");
  });

  const ENCRYPTED = ["pdf-encrypted/qpdf-enc-R3-V2-U_view-O_master.pdf", "pdf-encrypted/qpdf-enc-XI-R6-V5-U_view-O_master.pdf"];
  for (const rel of ENCRYPTED) {
    const name = rel.slice(rel.lastIndexOf("/") + 1);
    it(`${name}: no password → INVALID_PASSWORD; the user password → a PDF/A of every page`, async () => {
      const f = fact(rel);
      expect(f.requires_password).toBe(true);
      const err = await expectTaskError(() => execute("pdf/a", { conformance_level: "2b" }, [corpusInput(rel)], full()), "INVALID_PASSWORD");
      expect(err.message).toContain(name);
      const r = await execute("pdf/a", { conformance_level: "2b", password: String(f.user_password) }, [corpusInput(rel)], full());
      const path = tmpFile(r.out.files[0]!);
      expectPdfA(path, 2, Number(f.pages));
      expect(pdfinfo(path).Encrypted).toBe("no");
      expect(pageText(path, 1)).toContain(String(f.text_page1_excerpt));
    });
  }

  it("a wrong password → INVALID_PASSWORD (not a blank document)", async () => {
    const rel = ENCRYPTED[0]!;
    expect(fact(rel).qpdf_password_check).toMatchObject({ "definitely-wrong-password": "rejected" });
    await expectPdfFailure(execute("pdf/a", { conformance_level: "2b", password: "definitely-wrong-password" }, [corpusInput(rel)], full()), "INVALID_PASSWORD");
  });

  it("optimize with a wrong password → INVALID_PASSWORD (not a blank page handed back as the optimized document)", async () => {
    const rel = ENCRYPTED[0]!;
    await expectPdfFailure(execute("optimize", { profile: "web", password: "definitely-wrong-password" }, [corpusInput(rel)], full()), "INVALID_PASSWORD");
  });
});

// ---------------------------------------------------------------------------------------------
// 9. Missing tools
// ---------------------------------------------------------------------------------------------

describe("a native engine without its tools (PATH=/nonexistent)", () => {
  it("GET /health reports every tool with version null and the Debian packages that provide it", async () => {
    const health = (await (await fetch(`${bare.url}/health`)).json()) as { tools: { name: string; version: string | null; packages: string[] }[] };
    expect(health.tools.map((t) => t.name).sort()).toEqual(["ffmpeg", "ghostscript", "graphicsmagick", "imagemagick", "libreoffice", "qpdf", "tesseract"]);
    for (const t of health.tools) {
      expect(t.version, t.name).toBeNull();
      expect(t.packages.length, t.name).toBeGreaterThan(0);
    }
    const pkgs = Object.fromEntries(health.tools.map((t) => [t.name, t.packages]));
    // dpkg names the package that owns each executable on this (Debian) host
    expect(pkgs.ghostscript).toContain(dpkgOwner("/usr/bin/gs"));
    expect(pkgs.qpdf).toContain(dpkgOwner("/usr/bin/qpdf"));
    expect(pkgs.graphicsmagick).toContain(dpkgOwner("/usr/bin/gm"));
    expect(pkgs.ffmpeg).toContain(dpkgOwner("/usr/bin/ffmpeg"));
    expect(pkgs.tesseract).toContain(dpkgOwner("/usr/bin/tesseract"));
    expect(pkgs.imagemagick).toEqual(["imagemagick"]);
    expect(pkgs.libreoffice).toContain("python3-uno");
  });

  it("the engine with its tools reports the versions the tools print themselves", async () => {
    const health = (await (await fetch(`${native.url}/health`)).json()) as { tools: { name: string; version: string | null }[] };
    const v = Object.fromEntries(health.tools.map((t) => [t.name, t.version]));
    expect(v).toMatchObject({ ghostscript: gsVersion(), qpdf: qpdfVersion(), imagemagick: imVersion(), graphicsmagick: gmVersion() });
    // ffmpeg's own first line, e.g. "ffmpeg version 5.1.9-0+deb12u1 Copyright …"
    expect(spawnSync("ffmpeg", ["-version"]).stdout.toString()).toMatch(new RegExp(`^ffmpeg version ${String(v.ffmpeg).replace(/\./g, "\\.")}\\b`));
  });

  it("pdf/a with only that engine ends ENGINE_UNAVAILABLE naming `apt-get install ghostscript`", async () => {
    const err = await expectTaskError(
      () => execute("pdf/a", { conformance_level: "2b" }, [corpusInput("pdf/gotenberg-pages_12.pdf")], testContext({ engines: { ...bare.engines() } })),
      "ENGINE_UNAVAILABLE",
    );
    expect(err.message).toContain("apt-get install ghostscript");
  });
});

// ---------------------------------------------------------------------------------------------
// Helpers: oracles (native CLI tools) and fixtures
// ---------------------------------------------------------------------------------------------

/**
 * Awaits a task that must fail with TaskError `code`; when it succeeds instead, fails naming what
 * came back (pages and text per pdfinfo/pdftotext), so a silent wrong result is visible.
 */
async function expectPdfFailure(task: Promise<{ out: { files: { filename: string; data: unknown }[] } }>, code: string): Promise<TaskError> {
  const outcome = await task.then(
    (r) => ({ ok: true as const, r }),
    (e: unknown) => ({ ok: false as const, e }),
  );
  if (outcome.ok) {
    const f = outcome.r.out.files[0] as Parameters<typeof tmpFile>[0];
    const path = tmpFile(f);
    const text = pdftotext(f).replace(/\s+/g, " ").trim();
    expect.fail(`expected TaskError ${code}, but it succeeded: ${dataOf(f).length} bytes, ${pdfinfo(path).Pages} page(s), text ${JSON.stringify(text.slice(0, 80))}`);
  }
  const e = (outcome as { e: unknown }).e;
  expect(e, String(e)).toBeInstanceOf(TaskError);
  expect((e as TaskError).code, (e as Error).message).toBe(code);
  return e as TaskError;
}

const runs = new Map<string, Promise<Executed>>();
const twoAtATime = limiter(2);
/**
 * `execute(operation, params, [corpus file rel])` with the full context, run once per argument set
 * (at most two at a time) and shared: a describe's beforeAll starts its runs, its tests await them.
 */
function corpusRun(operation: string, params: Record<string, unknown>, rel: string): Promise<Executed> {
  const key = JSON.stringify([operation, params, rel]);
  let run = runs.get(key);
  if (!run) {
    run = twoAtATime(() => execute(operation, params, [corpusInput(rel)], full()));
    run.catch(() => {}); // a failure is reported by the test that awaits it
    runs.set(key, run);
  }
  return run;
}

/** Runs async functions at most `n` at a time. */
function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(f: () => Promise<T>): Promise<T> => {
    while (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await f();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** Runs a tool without a shell; never throws for its exit status. */
function sh(cmd: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A job with an upload task "up" and the task "t" taking its file, validated as POST /v2/jobs does. */
function job(task: Record<string, unknown>) {
  return parseJobTasks({ up: { operation: "import/upload" }, t: { input: "up", ...task } }, handlersOf);
}

const memo = <T>(f: () => T) => {
  let v: T | undefined;
  return () => (v ??= f());
};
const gsVersion = memo(() => sh("gs", ["--version"]).stdout.trim());
const qpdfVersion = memo(() => /qpdf version (\S+)/.exec(sh("qpdf", ["--version"]).stdout)![1]!);
const imVersion = memo(() => /ImageMagick (\S+)/.exec(sh("convert", ["-version"]).stdout)![1]!);
const gmVersion = memo(() => /GraphicsMagick (\S+)/.exec(sh("gm", ["version"]).stdout)![1]!);

/** `identify -format FMT path` (ImageMagick's own CLI). */
function identify(path: string, format: string): string {
  const r = sh("identify", ["-format", format, path]);
  if (r.status !== 0) throw new Error(`identify ${path}: ${r.stderr}`);
  return r.stdout.trim();
}

/** The owning Debian package of a file per `dpkg -S`. */
function dpkgOwner(path: string): string {
  return sh("dpkg", ["-S", path]).stdout.split(":")[0]!.trim();
}

/** Fonts of a PDF per pdffonts, with the "emb" column read at the header's position. */
function pdffonts(path: string): { name: string; emb: string }[] {
  const r = sh("pdffonts", [path]);
  if (r.status !== 0) throw new Error(`pdffonts ${path}: ${r.stderr}`);
  const lines = r.stdout.split("\n");
  const col = lines[0]!.indexOf(" emb ") + 1;
  return lines.slice(2).filter((l) => l.trim()).map((l) => ({ name: l.slice(0, 37).trim(), emb: l.slice(col, col + 3).trim() }));
}

/** The images of a PDF per `pdfimages -list`: size and colour column. */
function images(path: string): { width: number; height: number; color: string }[] {
  const r = sh("pdfimages", ["-list", path]);
  if (r.status !== 0) throw new Error(`pdfimages ${path}: ${r.stderr}`);
  return r.stdout.split("\n").slice(2).filter((l) => l.trim()).map((l) => {
    const c = l.trim().split(/\s+/);
    return { width: Number(c[3]), height: Number(c[4]), color: c[5]! };
  });
}
const sizes = (list: { width: number; height: number }[]) => list.map((i) => `${i.width}x${i.height}`).sort();
const pixels = (list: { width: number; height: number }[]) => list.reduce((n, i) => n + i.width * i.height, 0);

/** Image rows of `pdfimages -list`. */
function imageRows(path: string): number {
  const r = sh("pdfimages", ["-list", path]);
  return r.status === 0 ? r.stdout.split("\n").slice(2).filter((l) => l.trim()).length : 0;
}

type Json = Record<string, any>;

/** The object table of `qpdf --json=2` and a resolver of "N 0 R" references (dicts and stream dicts). */
function qpdfObjects(path: string): { trailer: Json; resolve: (v: unknown) => any } {
  const r = sh("qpdf", ["--json=2", path]);
  if (r.status !== 0 && r.status !== 3) throw new Error(`qpdf --json ${path}: ${r.stderr}`);
  const objects = (JSON.parse(r.stdout).qpdf as Json[])[1]!;
  const resolve = (v: unknown): any => {
    if (typeof v !== "string" || !/^\d+ \d+ R$/.test(v)) return v;
    const o = objects[`obj:${v}`];
    return o?.value ?? o?.stream?.dict;
  };
  return { trailer: objects.trailer.value, resolve };
}

/** The catalog's /OutputIntents, each resolved, with its /DestOutputProfile stream dictionary. */
function outputIntents(path: string): { S: string; profileN: number | undefined }[] {
  const { trailer, resolve } = qpdfObjects(path);
  const catalog = resolve(trailer["/Root"]);
  const list = (resolve(catalog["/OutputIntents"]) ?? []) as unknown[];
  return list.map(resolve).map((oi: Json) => ({ S: oi["/S"], profileN: resolve(oi["/DestOutputProfile"])?.["/N"] }));
}

/** The document information dictionary (strings without qpdf's "u:" prefix). */
function infoDict(path: string): Record<string, string> {
  const { trailer, resolve } = qpdfObjects(path);
  const info = (resolve(trailer["/Info"]) ?? {}) as Json;
  return Object.fromEntries(Object.entries(info).map(([k, v]) => [k, typeof v === "string" ? v.replace(/^[ub]:/, "") : String(v)]));
}

/** Every PDF/A assertion of an output: XMP part/conformance, fonts, output intent, validity, pages. */
function expectPdfA(path: string, part: number, pages: number): void {
  const xmp = JSON.parse(sh("exiftool", ["-j", "-XMP-pdfaid:all", path]).stdout)[0];
  expect(xmp, "exiftool -XMP-pdfaid:all").toMatchObject({ Part: part, Conformance: "B" });
  const fonts = pdffonts(path);
  expect(fonts.filter((f) => f.emb !== "yes"), "fonts not embedded (pdffonts)").toEqual([]);
  const intents = outputIntents(path);
  expect(intents, "catalog /OutputIntents").toContainEqual({ S: "/GTS_PDFA1", profileN: 3 });
  const check = sh("qpdf", ["--check", path]);
  expect([0, 3], `qpdf --check: ${check.stdout}${check.stderr}`).toContain(check.status);
  const gs = sh("gs", ["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=nullpage", path]);
  expect(gs.status, `gs re-opening the output: ${gs.stdout}${gs.stderr}`).toBe(0);
  expect(pdfinfo(path).Pages).toBe(String(pages));
}

/** Every PDF/X assertion of an output: subtype, GTS_PDFXVersion, Trapped, CMYK GTS_PDFX intent, validity, pages. */
function expectPdfX(path: string, subtype: string, pages: number): void {
  expect(pdfinfo(path)["PDF subtype"], "pdfinfo PDF subtype").toBe(subtype);
  const info = infoDict(path);
  expect(info["/GTS_PDFXVersion"]).toBe(subtype);
  expect(["/True", "/False"], "PDF/X requires /Trapped True or False").toContain(info["/Trapped"]);
  expect(outputIntents(path)).toContainEqual({ S: "/GTS_PDFX", profileN: 4 });
  const check = sh("qpdf", ["--check", path]);
  expect([0, 3], `qpdf --check: ${check.stdout}${check.stderr}`).toContain(check.status);
  expect(pdfinfo(path).Pages).toBe(String(pages));
}

/** Asserts (with identify) that the left quarter of an image is red and the right quarter blue. */
function expectRedLeftBlueRight(path: string, w: number, h: number): void {
  const px = (x: number) => identify(path, `%[pixel:p{${x},${Math.floor(h / 2)}}]`);
  const rgb = (s: string) => (/\((\d+),(\d+),(\d+)/.exec(s) ?? []).slice(1).map(Number);
  const [lr, lg, lb] = rgb(px(Math.floor(w / 4)));
  const [rr, rg, rb] = rgb(px(Math.floor((3 * w) / 4)));
  expect(lr, "left is red").toBeGreaterThan(200);
  expect(Math.max(lg!, lb!), "left is red").toBeLessThan(40);
  expect(rb, "right is blue").toBeGreaterThan(200);
  expect(Math.max(rr!, rg!), "right is blue").toBeLessThan(40);
}

/** Processes whose command line names a path under `dir` (the native engine's tool runs). */
function toolsUnder(dir: string): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmd.includes(dir)) out.push({ pid: Number(p), cmd });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** Waits up to `ms` for no tool process under `dir`; returns what is left (empty = all gone). */
async function toolsGone(dir: string, ms: number): Promise<{ pid: number; cmd: string }[]> {
  await until(() => toolsUnder(dir).length === 0, ms);
  return toolsUnder(dir);
}

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) if (cond()) return true;
  return cond();
}

/** One engine method call seen by {@link spied}: its name and "ok" or the failure code. */
interface Call {
  method: string;
  code: string;
}

/** Wraps an engine object so that each method call's outcome is recorded in `calls`. */
function spied<T extends object>(engine: T, calls: Call[]): T {
  return new Proxy(engine, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== "function") return v;
      return async (...args: unknown[]) => {
        try {
          const r = await v.apply(target, args);
          calls.push({ method: String(prop), code: r && typeof r === "object" && r.ok === false ? r.error.code : "ok" });
          return r;
        } catch (e) {
          calls.push({ method: String(prop), code: e instanceof TaskError ? e.code : "threw" });
          throw e;
        }
      };
    },
  });
}

/** Deterministic pseudo-random bytes (xorshift32). */
function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** An 8-bit RGB PNG of w×h: left half pure red, right half pure blue. */
function halvesPng(w: number, h: number): Buffer {
  const row = Buffer.alloc(1 + w * 3); // filter byte 0, then RGB
  for (let x = 0; x < w; x++) row[1 + x * 3 + (x < w / 2 ? 0 : 2)] = 255;
  const raw = Buffer.alloc(row.length * h);
  for (let y = 0; y < h; y++) row.copy(raw, y * row.length);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

let crcTable: Uint32Array | undefined;
function crc32(buf: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// ---------------------------------------------------------------------------------------------
// 10. pdf/a 3b with a ZUGFeRD / Factur-X invoice
// ---------------------------------------------------------------------------------------------

describe("pdf/a 3b with a ZUGFeRD / Factur-X invoice (`invoice`)", () => {
  const XML = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>INV-0042</ram:ID><ram:TypeCode>380</ram:TypeCode></rsm:ExchangedDocument>
</rsm:CrossIndustryInvoice>
`;
  const invoiceCtx = (xml: string) => ({ ...full(), taskFiles: async () => [{ ...bytesInput("invoice.xml", new TextEncoder().encode(xml)), fromTask: "xml" }] });

  it("attaches factur-x.xml (Alternative, text/xml) with the fx XMP and its extension schema", async () => {
    const r = await execute("pdf/a", { conformance_level: "3b", invoice: "xml" }, [corpusInput("pdf/gotenberg-pages_12.pdf")], invoiceCtx(XML));
    const path = tmpFile(r.out.files[0]!);
    const xmp = JSON.parse(sh("exiftool", ["-j", "-XMP-pdfaid:all", "-XMP-fx:all", path]).stdout)[0];
    expect(xmp).toMatchObject({ Part: 3, Conformance: "B", DocumentType: "INVOICE", DocumentFileName: "factur-x.xml", Version: 1, ConformanceLevel: "BASIC" }); // exiftool -j prints "1.0" as the number 1
    expect(sh("exiftool", ["-b", "-XMP", path]).stdout).toContain("<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>");
    expect(sh("pdfdetach", ["-list", path]).stdout).toMatch(/1 embedded files\s+1: factur-x\.xml/);
    const out = join(mkdtempSync(join(tmpdir(), "fx-")), "fx.xml");
    expect(sh("pdfdetach", ["-save", "1", "-o", out, path]).status).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(XML);
    const objects = sh("qpdf", ["--json", "--json-key=qpdf", path]).stdout;
    expect(objects).toContain('"/AFRelationship": "/Alternative"');
    expect(objects).toMatch(/"\/AF": \[\s*"\d+ 0 R"\s*\]/);
    expect([0, 3]).toContain(sh("qpdf", ["--check", path]).status);
  });

  it("refuses an invoice with 2b at creation, and a file that is not an invoice at run time", async () => {
    const r = parseJobTasks({ imp: { operation: "import/url", url: "https://example.com/a.pdf" }, xml: { operation: "import/url", url: "https://example.com/i.xml" }, a: { operation: "pdf/a", input: "imp", conformance_level: "2b", invoice: "xml" } }, handlersOf);
    expect("errors" in r && r.errors["tasks.a"]).toEqual(["Task a: invoice: an invoice XML can be attached to PDF/A-3 only; use conformance_level 3b."]);
    const err = await expectTaskError(() => execute("pdf/a", { conformance_level: "3b", invoice: "xml" }, [corpusInput("pdf/gotenberg-pages_12.pdf")], invoiceCtx("<html>no</html>")), "OPEN_FAILED");
    expect(err.message).toContain("invoice.xml");
  });
});

/** The document information Title as pdfinfo prints it at the start of a line (its PDF/X subtype block has an indented "Title:" of its own). */
function docTitle(path: string): string | undefined {
  return sh("pdfinfo", [path]).stdout.split("\n").find((l) => l.startsWith("Title:"))?.slice("Title:".length).trim();
}
