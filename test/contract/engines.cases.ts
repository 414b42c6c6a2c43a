/**
 * One contract suite per engine kind (DESIGN.md principle 8, like Hono's router/common.case.test.ts):
 * every engine of the host's engine set that offers a method runs the same cases, in Node
 * (test/engines/engine-contract.test.ts) and in workerd (test/worker/engine-contract.test.ts). Inputs
 * are built in the test (workerd has no file system); outputs are judged by another engine than
 * the one under test where one exists (PDFium renders what pdf-lib wrote; pdf-lib counts what
 * ImageMagick never touched) and by format headers parsed here.
 */
import { DEFAULT_EXIFTOOL_BUDGET } from "../../src/engines/exiftool/budget";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { EngineKinds } from "../../src/engines/kinds";
import type { PdfData, PdfEngine } from "../../src/engines/kinds/pdf";
import type { CadEngine } from "../../src/engines/kinds/cad";
import { ALL_PERMISSIONS } from "../support/pdf-permissions";
import { ENGINES, type EngineInstances, type EngineRow } from "../../src/engines/registry";
import { heldBytes } from "../../src/operations/kit";

/** A PDF whose pages have the given sizes in points, each page showing its number. */
export async function pdfOf(sizes: [number, number][], title = "Contract"): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  sizes.forEach(([w, h], i) => doc.addPage([w, h]).drawText(`Page ${i + 1}`, { x: 20, y: 20, size: 18, font }));
  return doc.save();
}

/** An uncompressed 24-bit BMP of w×h (rows bottom-up, padded to 4 bytes). `declared` overrides the header's size (a bomb). */
export function bmpOf(w: number, h: number, declared?: [number, number]): Uint8Array {
  const row = Math.ceil((w * 3) / 4) * 4;
  const out = new Uint8Array(54 + row * h);
  const v = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  v.setUint32(2, out.length, true);
  v.setUint32(10, 54, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, declared?.[0] ?? w, true);
  v.setInt32(22, declared?.[1] ?? h, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, 24, true);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out.set([x % 256, y % 256, 128], 54 + y * row + x * 3);
  return out;
}

/** A 16-bit PCM WAV of a `hz` sine, `seconds` long, mono 8 kHz. */
export function wavOf(seconds: number, hz = 440): Uint8Array {
  const rate = 8000;
  const n = Math.round(seconds * rate);
  const out = new Uint8Array(44 + n * 2);
  const v = new DataView(out.buffer);
  const text = (o: number, str: string) => [...str].forEach((c, i) => (out[o + i] = c.charCodeAt(0)));
  text(0, "RIFF");
  v.setUint32(4, 36 + n * 2, true);
  text(8, "WAVE");
  text(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  text(36, "data");
  v.setUint32(40, n * 2, true);
  for (let i = 0; i < n; i++) v.setInt16(44 + i * 2, Math.round(12000 * Math.sin((2 * Math.PI * hz * i) / rate)), true);
  return out;
}

/** Width and height of a PNG from its IHDR chunk. */
export function pngSize(png: Uint8Array): [number, number] {
  expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return [v.getUint32(16), v.getUint32(20)];
}

/** Width and height of a JPEG from its first SOFn marker. */
export function jpegSize(jpg: Uint8Array): [number, number] {
  expect([jpg[0], jpg[1]]).toEqual([0xff, 0xd8]);
  for (let i = 2; i < jpg.length;) {
    const marker = jpg[i + 1];
    const len = (jpg[i + 2] << 8) | jpg[i + 3];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return [(jpg[i + 7] << 8) | jpg[i + 8], (jpg[i + 5] << 8) | jpg[i + 6]];
    }
    i += 2 + len;
  }
  throw new Error("no SOF marker");
}

/** A word every office sample holds (its output must too). */
const TOKEN = "Zebrafinch";

/** Office inputs built here, each holding {@link TOKEN}, by format. */
const OFFICE_SAMPLES: Record<string, string> = {
  md: `# Title\n\nA ${TOKEN} sings.\n`,
  txt: `A ${TOKEN} sings.\n`,
  rst: `Title\n=====\n\nA ${TOKEN} sings.\n`,
  tex: `\\documentclass{article}\\begin{document}A ${TOKEN} sings.\\end{document}\n`,
  html: `<!doctype html><html><head><title>T</title></head><body><p>A ${TOKEN} sings.</p></body></html>`,
  csv: `name,bird\n1,${TOKEN}\n`,
};

/**
 * The text of an output: a zip package's members inflated and joined, a compound file (xls) read as Latin-1 and as
 * UTF-16LE (BIFF8 stores a string in either), anything else as Latin-1.
 */
function textOf(data: Uint8Array): string {
  if (data[0] === 0xd0 && data[1] === 0xcf)
    return `${new TextDecoder("latin1").decode(data)}\n${new TextDecoder("utf-16le").decode(data)}`;
  if (data[0] === 0x50 && data[1] === 0x4b)
    return Object.values(unzipSync(data))
      .map((m) => new TextDecoder("latin1").decode(m))
      .join("\n");
  return new TextDecoder("latin1").decode(data);
}

/** The PDF method that does each operation (operations/pdf/*), or the methods one of which does it. */
const OPERATION_METHOD: Record<string, keyof PdfEngine | (keyof PdfEngine)[]> = {
  merge: "merge",
  "pdf/split-pages": "split",
  "pdf/extract-pages": "extract",
  "pdf/rotate-pages": "rotate",
  "pdf/encrypt": "encrypt",
  "pdf/decrypt": "decrypt",
  watermark: "watermark",
  convert: "rasterize",
  thumbnail: "rasterize",
  // with pageInfo: the text layer of pdf/ocr (the OCR engine recognises); or the whole PDF OCRed (issue 49, OCRmyPDF)
  "pdf/ocr": ["textLayer", "ocr"],
};

const namesOf = (engines: EngineInstances, kind: keyof EngineKinds) =>
  ENGINES.filter((e) => e.kind === kind && (engines as Record<string, unknown>)[e.name]).map((e) => e.name);
const get = <K extends keyof EngineKinds>(engines: EngineInstances, name: string) =>
  (engines as Record<string, unknown>)[name] as EngineKinds[K];

/** Registers the contract cases for every engine of `engines()`; `host` names the runtime in the titles. */
export function engineContract(host: string, engines: () => EngineInstances): void {
  const all = engines();
  const pdfEngines = namesOf(all, "pdf");
  // the PDF engine that judges others' output by rendering it
  const renderer = () => pdfEngines.map((n) => get<"pdf">(all, n)).find((e) => e.rasterize)!;
  // a page operation may answer a stream (the native qpdf's, issue 49): read whole here
  const pagesOf = async (answer: PdfData, password?: string) => {
    const pdf = answer instanceof Uint8Array ? answer : new Uint8Array(await new Response(answer.stream).arrayBuffer());
    const r = await renderer().rasterize!({ input: pdf, filename: "out.pdf", density: 72, password });
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.pages.map((p) => [p.width, p.height]);
  };

  describe.each(pdfEngines)(`PDF engine contract (${host}): %s`, (name) => {
    const engine = (): PdfEngine => get<"pdf">(all, name);
    // cases run only for the methods this engine has; the table must not promise more than that
    const offers = (m: keyof PdfEngine) => (get<"pdf">(all, name)[m] ? it : () => undefined);

    it("has a method for every operation its table row offers", () => {
      const row: EngineRow = ENGINES.find((e) => e.name === name)!;
      // a convert that only makes PDFs from images (pdflib's formatsOf) is a merge of image pages
      const makesPdf = (op: string) => row.offers.formatsOf?.[op]?.every((f) => f.output === "pdf");
      const methods = (row.offers.operations ?? []).map((op) =>
        makesPdf(op) ? ["merge" as const] : [OPERATION_METHOD[op] ?? []].flat(),
      );
      expect(methods.filter((ms) => !ms.some((m) => engine()[m]))).toEqual([]);
    });

    offers("merge")("merge keeps every page in input order", async () => {
      const a = await pdfOf([
        [200, 300],
        [210, 300],
      ]);
      const b = await pdfOf([[400, 300]]);
      const r = await engine().merge!({
        inputs: [
          { data: a, filename: "a.pdf" },
          { data: b, filename: "b.pdf" },
        ],
        filename: "m.pdf",
      });
      expect(r.ok).toBe(true);
      if (r.ok)
        expect(await pagesOf(r.data)).toEqual([
          [200, 300],
          [210, 300],
          [400, 300],
        ]);
    });

    offers("split")("split makes one document per page", async () => {
      const r = await engine().split!({
        input: {
          data: await pdfOf([
            [100, 100],
            [200, 100],
            [300, 100],
          ]),
          filename: "s.pdf",
        },
      });
      expect(r.ok).toBe(true);
      if (r.ok)
        expect(await Promise.all(r.parts.map((p) => pagesOf(p)))).toEqual([[[100, 100]], [[200, 100]], [[300, 100]]]);
    });

    offers("extract")("extract keeps the pages asked for, in that order, and names a missing page", async () => {
      const input = {
        data: await pdfOf([
          [100, 100],
          [200, 100],
          [300, 100],
        ]),
        filename: "e.pdf",
      };
      const r = await engine().extract!({ input, pages: "3,1" });
      expect(r.ok).toBe(true);
      if (r.ok)
        expect(await pagesOf(r.data)).toEqual([
          [300, 100],
          [100, 100],
        ]);
      expect(await engine().extract!({ input, pages: "9" })).toMatchObject({
        ok: false,
        error: { code: "INVALID_PAGES" },
      });
    });

    offers("rotate")("rotate turns only the pages asked for", async () => {
      const r = await engine().rotate!({
        input: {
          data: await pdfOf([
            [100, 200],
            [100, 200],
          ]),
          filename: "r.pdf",
        },
        rotation: 90,
        pages: "2",
      });
      expect(r.ok).toBe(true);
      if (r.ok)
        expect(await pagesOf(r.data)).toEqual([
          [100, 200],
          [200, 100],
        ]);
    });

    offers("encrypt")("encrypt needs the password afterwards; decrypt removes it", async () => {
      const perms = ALL_PERMISSIONS;
      const enc = await engine().encrypt!({
        input: { data: await pdfOf([[100, 100]]), filename: "c.pdf" },
        userPassword: "u",
        ownerPassword: "o",
        permissions: perms,
      });
      expect(enc.ok).toBe(true);
      if (!enc.ok) return;
      await expect(pagesOf(enc.data)).rejects.toThrow(/INVALID_PASSWORD/);
      expect(await pagesOf(enc.data, "u")).toEqual([[100, 100]]);
      if (!engine().decrypt) return;
      const dec = await engine().decrypt!({ input: { data: enc.data, filename: "c.pdf", password: "o" } });
      expect(dec.ok).toBe(true);
      if (dec.ok) expect(await pagesOf(dec.data)).toEqual([[100, 100]]);
    });

    offers("watermark")("watermark keeps the pages and answers unsupported text as data", async () => {
      const input = {
        data: await pdfOf([
          [300, 300],
          [300, 300],
        ]),
        filename: "w.pdf",
      };
      const r = await engine().watermark!({ input, mark: { text: "DRAFT", pages: "1" } });
      expect(r.ok).toBe(true);
      if (r.ok)
        expect(await pagesOf(r.data)).toEqual([
          [300, 300],
          [300, 300],
        ]);
    });

    offers("rasterize")("rasterize draws pages at the density asked for and names a missing page", async () => {
      const input = await pdfOf([
        [144, 72],
        [72, 144],
      ]);
      const r = await engine().rasterize!({ input, filename: "p.pdf", density: 144 });
      expect(r.ok).toBe(true);
      if (r.ok)
        expect((await Promise.all(r.pages.map((p) => heldBytes(p.png)))).map(pngSize)).toEqual([
          [288, 144],
          [144, 288],
        ]);
      expect(await engine().rasterize!({ input, filename: "p.pdf", pages: [{ from: 9, to: 9 }] })).toMatchObject({
        ok: false,
        error: { code: "INVALID_PAGES" },
      });
    });

    it("answers a file that is not a PDF with a failure as data, never a throw", async () => {
      const junk = new TextEncoder().encode("not a pdf at all");
      const method = (["rasterize", "extract", "rotate"] as const).find((m) => engine()[m])!;
      const r =
        method === "rasterize"
          ? await engine().rasterize!({ input: junk, filename: "j.pdf" })
          : method === "extract"
            ? await engine().extract!({ input: { data: junk, filename: "j.pdf" }, pages: "1" })
            : await engine().rotate!({ input: { data: junk, filename: "j.pdf" }, rotation: 90 });
      expect(r).toMatchObject({ ok: false, error: { code: "OPEN_FAILED", retryable: false } });
    });
  });

  describe.each(namesOf(all, "image"))(`image engine contract (${host}): %s`, (name) => {
    const engine = () => get<"image">(all, name);
    it("converts a PNG to a JPEG of the width asked for; a broken file is a failure as data", async () => {
      // an engine whose row reads SVG only (resvg, issue 33; and gzipped SVG, issue 47) gets the same 200 × 100 picture as an SVG
      const svgOnly =
        (ENGINES as readonly EngineRow[])
          .find((e) => e.name === name)
          ?.offers.formats?.every((f) => f.input === "svg" || f.input === "svgz") ?? false;
      let input: Uint8Array;
      if (svgOnly) {
        input = new TextEncoder().encode(
          `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#36c"/></svg>`,
        );
      } else {
        const r = await renderer().rasterize!({ input: await pdfOf([[200, 100]]), filename: "i.pdf", density: 72 });
        if (!r.ok) throw new Error(r.error.message);
        input = await heldBytes(r.pages[0].png);
      }
      const inputFormat = svgOnly ? "svg" : "png";
      const out = await engine().run({
        op: "convert",
        input,
        inputFormat,
        outputFormat: "jpg",
        options: { width: 100 },
      });
      expect(out.ok, out.ok ? "" : `${out.error.code}: ${out.error.message}`).toBe(true);
      if (out.ok) expect(jpegSize(await heldBytes(out.outputs[0].data))).toEqual([100, 50]);
      const bad = await engine().run({
        op: "convert",
        input: input.subarray(0, 60),
        inputFormat,
        outputFormat: "jpg",
        options: {},
      });
      expect(bad).toMatchObject({ ok: false, error: { code: "OPEN_FAILED" } });
    });
  });

  describe.each(namesOf(all, "media"))(`media engine contract (${host}): %s`, (name) => {
    const engine = () => get<"media">(all, name);
    it("converts a WAV to Opus, probes it as ffprobe does, and answers junk with OPEN_FAILED as data", async () => {
      const input = { data: wavOf(1), filename: "tone.wav" };
      const r = await engine().run({ op: "convert", input, outputFormat: "opus", options: {} });
      expect(r).toMatchObject({
        ok: true,
        probe: { duration: 1, video: null, audio: { codec: "pcm_s16le", sampleRate: 8000, channels: 1 } },
      });
      if (r.ok)
        expect(new TextDecoder().decode((r.data as Uint8Array).subarray(0, 64))).toMatch(/^OggS[\s\S]*OpusHead/);
      const bad = await engine().run({
        op: "convert",
        input: { data: new TextEncoder().encode("not audio"), filename: "x.wav" },
        outputFormat: "mp3",
        options: {},
      });
      expect(bad).toMatchObject({ ok: false, error: { code: "OPEN_FAILED", retryable: false } });
      const c = await engine().command({
        command: "ffprobe",
        arguments: "-hide_banner /input/in/tone.wav",
        inputs: [{ task: "in", ...input }],
        capture_output: true,
      });
      expect(c).toMatchObject({ ok: true, command: "ffprobe -hide_banner /input/in/tone.wav" });
      if (c.ok)
        expect(c.output).toContain("Audio: pcm_s16le ([1][0][0][0] / 0x0001), 8000 Hz, 1 channels, s16, 128 kb/s");
    });
  });

  describe.each(namesOf(all, "metadata"))(`metadata engine contract (${host}): %s`, (name) => {
    const engine = () => get<"metadata">(all, name);
    it("reads what pdf-lib wrote, and writes a Title another read sees", async () => {
      const pdf = await pdfOf(
        [
          [100, 100],
          [100, 100],
        ],
        "Quarterly",
      );
      const r = await engine().read({ input: pdf, filename: "q.pdf" });
      expect(r).toMatchObject({ ok: true, metadata: { Title: "Quarterly", PageCount: 2, FileType: "PDF" } });
      if (host === "workerd") {
        // issue 49: the ExifTool engine Worker writes nothing (its writer outgrows a 128 MB isolate at any size:
        // exiftool/budget.ts WORKER_EXIFTOOL_BUDGET); routing hands metadata/write to the native exiftool
        const refused = await engine().write({ input: pdf, filename: "q.pdf", tags: { Title: "Annual" } });
        expect(refused).toMatchObject({ ok: false, error: { code: "OVER_BUDGET" } });
      }
      // the writer itself, at the budget a page and the Node host have
      const w = await engine().write({
        input: pdf,
        filename: "q.pdf",
        tags: { Title: "Annual" },
        budget: { maxWriteBytes: DEFAULT_EXIFTOOL_BUDGET.maxWriteBytes },
      });
      expect(w.ok).toBe(true);
      // the in-Worker engines answer bytes (only the native ExifTool streams a written file back: issue 49)
      if (w.ok) expect(w.data).toBeInstanceOf(Uint8Array);
      if (w.ok && w.data instanceof Uint8Array)
        expect((await PDFDocument.load(w.data, { updateMetadata: false })).getTitle()).toBe("Annual");
    });
  });

  describe.each(namesOf(all, "office"))(`office engine contract (${host}): %s`, (name) => {
    const engine = () => get<"office">(all, name);
    const row = ENGINES.find((e) => e.name === name) as EngineRow;
    const pairs = [...(row.offers.formats ?? []), ...(row.offers.fallbackFormats ?? [])].filter(
      (p) => OFFICE_SAMPLES[p.input] !== undefined,
    );
    it("has pairs this suite can build inputs for", () => expect(pairs.length).toBeGreaterThan(0));
    it.each(pairs.map((p) => [p.input, p.output]))("%s → %s keeps the text", async (input, output) => {
      const r = await engine().convert({
        input: { data: new TextEncoder().encode(OFFICE_SAMPLES[input]), filename: `sample.${input}` },
        format: output,
      });
      expect(r.ok ? "ok" : `${r.error.code}: ${r.error.message}`).toBe("ok");
      // an in-Worker office engine answers bytes (only the native LibreOffice streams: issue 49)
      if (r.ok) expect(textOf(r.data instanceof Uint8Array ? r.data : new Uint8Array())).toContain(TOKEN);
    });
    it("answers a pair it does not offer as data", async () => {
      const r = await engine().convert({
        input: { data: new TextEncoder().encode("x"), filename: "sample.nosuchformat" },
        format: "nosuchformat",
      });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(["UNSUPPORTED", "INVALID_CONVERSION_TYPE", "OPEN_FAILED"]).toContain(r.error.code);
    });
  });

  // CAD engines in process (issue 47: the dxf row); the native inkscape-cad row is held to its oracles in
  // test/native/native-cad.test.ts, where the container runs
  const cadEngines = namesOf(all, "cad").filter((n) => ENGINES.find((e) => e.name === n)?.placement !== "native");
  describe.each(cadEngines)(`CAD engine contract (${host}): %s`, (name) => {
    // in process: bytes in, bytes out (a stream is the native row's, issue 49)
    const engine = () => get<"cad">(all, name) as CadEngine<Uint8Array>;
    // a LINE (0,0)–(10,5), a CIRCLE at (20,5) of radius 2 and a TEXT: drawn extent x 0…22, y 0…7
    const drawing = new TextEncoder().encode(
      [
        ...["0", "SECTION", "2", "ENTITIES"],
        ...["0", "LINE", "8", "0", "10", "0", "20", "0", "30", "0", "11", "10", "21", "5", "31", "0"],
        ...["0", "CIRCLE", "8", "0", "10", "20", "20", "5", "30", "0", "40", "2"],
        ...["0", "TEXT", "8", "0", "10", "0", "20", "8", "30", "0", "40", "1", "1", "label"],
        ...["0", "ENDSEC", "0", "EOF", ""],
      ].join("\n"),
    );
    it("dxf → svg: the drawn extent as viewBox, the line and the circle; an undrawn TEXT is said in warnings", async () => {
      const r = await engine().convert({ input: { data: drawing, filename: "d.dxf" }, format: "svg" });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const svg = new TextDecoder().decode(r.data);
      // SVG's y runs down: the viewBox's top is -(max y)
      expect(/viewBox="([^"]*)"/.exec(svg)?.[1]?.split(/\s+/).map(Number)).toEqual([0, -7, 22, 7]);
      expect(svg.match(/<circle /g)).toHaveLength(1);
      expect(svg.match(/<path /g)).toHaveLength(1);
      expect(svg).not.toContain("label");
      expect(r.warnings?.join(" ")).toMatch(/\b1 TEXT\b/);
    });
    it("dxf → png: a PNG, or an SVG sized in pixels for the operation's image engine (format: svg)", async () => {
      const r = await engine().convert({
        input: { data: drawing, filename: "d.dxf" },
        format: "png",
        raster: { width: 220 },
      });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      if (r.format === "svg") expect(new TextDecoder().decode(r.data)).toMatch(/width="220" height="70"/);
      else expect(pngSize(r.data)).toEqual([220, 70]);
    });
    it("garbage and a truncated drawing end in a coded failure that hands on or says the file is bad, never INTERNAL_ERROR", async () => {
      const garbage = new Uint8Array(4096).map((_, i) => (i * 2654435761) >>> 24);
      for (const data of [garbage, drawing.subarray(0, 25)]) {
        const r = await engine().convert({ input: { data, filename: "d.dxf" }, format: "svg" });
        expect(r.ok).toBe(false);
        if (!r.ok) expect(["UNSUPPORTED", "OPEN_FAILED", "CONVERSION_FAILED"]).toContain(r.error.code);
      }
    });
  });
}
