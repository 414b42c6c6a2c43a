/**
 * Vector drawings through the native engine's Inkscape (issue 33): every corpus/vector file converted
 * to pdf and png with an oracle outside the engine (pdfinfo, pdftotext against corpus/facts.json, Debian's
 * identify, ink on the page), svg to each vector output (rsvg-convert, Ghostscript, the EMF/WMF/DXF
 * headers), the options pixel_density, width/height and text_to_path (identify, pdffonts), and hostile
 * SVG/EPS inputs (a counting loopback server, a local file's marker, entity bombs, huge sizes). Issue 49: corpus
 * drawings streamed (thresholds lowered) and a generated 68 MB Illustrator file over 64 MiB reach Inkscape as files in
 * its call's folder, their outputs streamed back (pdfimages: every pixel of its picture kept); a dense drawing past the
 * tool's memory limit and an SVG over the 64 MiB read to make it safe are OVER_BUDGET.
 */
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { nativeEngineForFile, startNativeEngine, type NativeServer } from "../support/native-engine";
import {
  bytesInput,
  corpusInput,
  dataOf,
  expectTaskError,
  FACTS,
  pdfinfo,
  pdftotext,
  testContext,
  tmpFile,
} from "../support/pdf-helpers";
import { inkDiff, rgb } from "../support/raster-oracle";
import { createHash } from "node:crypto";
import { isStreamed } from "../../native-protocol/frame";
import { heldBytes } from "../../src/operations/kit";
import { writePicturePdf } from "../support/picture-pdf";
import { scaled } from "../support/time-scale";

const native = nativeEngineForFile();

const ctx = () => testContext({ engines: native.engines() });
const utf8 = (s: string) => new TextEncoder().encode(s);
const scratch = mkdtempSync(join(tmpdir(), "native-inkscape-"));

/** The one output of a convert pinned to Inkscape. */
async function convert(input: ReturnType<typeof bytesInput>, params: Record<string, unknown>) {
  const r = await execute("convert", { engine: "inkscape", ...params }, [input], ctx());
  expect(r.out.engine?.name).toBe("inkscape");
  return dataOf(r.out.files[0] as never);
}

/** What a convert ended in: bytes, or its error code and message. */
async function outcome(input: ReturnType<typeof bytesInput>, params: Record<string, unknown>) {
  try {
    return { data: await convert(input, params) };
  } catch (err) {
    return { code: (err as { code?: string }).code ?? "threw", message: (err as Error).message };
  }
}

/** What Debian's identify says: format, width, height of the first image. */
function identify(data: Uint8Array, ext: string): { format: string; width: number; height: number } {
  const [format, w, h] = execFileSync("identify", ["-format", "%m %w %h\n", `${tmpFile(data, ext)}[0]`], {
    encoding: "utf8",
  })
    .split("\n")[0]
    .split(" ");
  return { format, width: Number(w), height: Number(h) };
}

/** Share of the picture's pixels with ink (darkest channel under 200 on white). */
function inkShare(png: Uint8Array): number {
  const { w, h, px } = rgb(png);
  let ink = 0;
  for (let i = 0; i < w * h; i++) if (Math.min(px[3 * i], px[3 * i + 1], px[3 * i + 2]) < 200) ink++;
  return ink / (w * h);
}

/**
 * Words of the drawing's straight lines in text-on-path.svg: pdftotext cannot join glyphs set along a
 * curve, which is what the facts' samples of that file are.
 */
const STRAIGHT_WORDS: Record<string, string[]> = {
  "vector/inkscape-text-on-path.svg": ["invisible", "select", "press"],
};

/** Words the corpus facts say a drawing holds (the text LibreOffice or libvisio found), a few of them. */
function expectedWords(rel: string): string[] {
  if (STRAIGHT_WORDS[rel]) return STRAIGHT_WORDS[rel];
  const f = FACTS[rel] as {
    libvisio_vsd2text?: string;
    libreoffice_7_4_convert_to_pdf?: { text_excerpt?: string };
    svg_text_sample?: string[];
  };
  const text: string =
    f.libvisio_vsd2text ??
    f.libreoffice_7_4_convert_to_pdf?.text_excerpt ??
    (f.svg_text_sample ?? []).slice(0, 2).join(" ");
  return text
    .split(/\s+/)
    .filter((w) => /^[A-Za-z]{4,}$/.test(w))
    .slice(0, 4);
}

const VECTOR_FILES = [
  "vector/ghostscript-colorcir.ps",
  "vector/ghostscript-golfer.eps",
  "vector/inkscape-gradient.svg",
  "vector/inkscape-i18n.svg",
  "vector/inkscape-text-on-path.svg",
  "vector/pillow-drawing.emf",
  "vector/pillow-drawing.wmf",
  "vector/tika-testEMF.emf",
  "vector/tika-testVISIO.vsd",
  "vector/tika-testVISIO.vsdx",
  "vector/tika-testWMF.wmf",
  "vector/twenzel-CGM-techdraw.cgm",
  "vector/xapian-test1.cdr",
  "vector/xmp-BlueSquare.ai",
];

describe("every corpus/vector file through Inkscape", () => {
  it.each(VECTOR_FILES)(
    "%s → pdf: one page or more, its words found by pdftotext",
    async (rel) => {
      const pdf = await convert(corpusInput(rel), { output_format: "pdf" });
      expect(Number(pdfinfo(pdf).Pages)).toBeGreaterThanOrEqual(1);
      const text = pdftotext(pdf).replace(/\s+/g, " ");
      for (const w of expectedWords(rel)) expect(text).toContain(w);
    },
    180_000,
  );

  it.each(VECTOR_FILES)(
    "%s → png: a PNG with ink on it",
    async (rel) => {
      const png = await convert(corpusInput(rel), { output_format: "png" });
      const id = identify(png, "png");
      expect(id.format).toBe("PNG");
      expect(id.width).toBeGreaterThan(10);
      expect(inkShare(png)).toBeGreaterThan(0.001);
    },
    180_000,
  );
});

/** A small SVG with text and shapes. */
const DRAWING = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120" viewBox="0 0 300 120">
  <rect x="10" y="10" width="280" height="100" fill="#dde8ff" stroke="#1d4ed8" stroke-width="4"/>
  <text x="150" y="72" text-anchor="middle" font-family="DejaVu Sans" font-size="30">Vector Hello</text>
</svg>`;

describe("svg → each vector output", () => {
  it("svg: a plain SVG librsvg draws, with the text kept", async () => {
    const svg = await convert(bytesInput("d.svg", utf8(DRAWING)), { output_format: "svg" });
    const text = new TextDecoder().decode(svg);
    expect(text).toContain("Vector Hello");
    expect(text).not.toContain("sodipodi:");
    const png = new Uint8Array(execFileSync("rsvg-convert", [tmpFile(svg, "svg")]));
    expect(inkShare(png)).toBeGreaterThan(0.05);
  });

  it.each(["eps", "ps"])("%s: Ghostscript draws it and finds the text", async (format) => {
    const out = await convert(bytesInput("d.svg", utf8(DRAWING)), { output_format: format });
    const pdf = join(scratch, `out-${format}.pdf`);
    execFileSync("gs", [
      "-dSAFER",
      "-dBATCH",
      "-dNOPAUSE",
      "-q",
      "-sDEVICE=pdfwrite",
      `-sOutputFile=${pdf}`,
      tmpFile(out, format),
    ]);
    expect(pdftotext(new Uint8Array(readFileSync(pdf)))).toContain("Vector Hello");
  });

  it("emf and wmf: the metafiles' own headers (EMR_HEADER ' EMF' signature; placeable WMF key)", async () => {
    const emf = await convert(bytesInput("d.svg", utf8(DRAWING)), { output_format: "emf" });
    expect(new DataView(emf.buffer, emf.byteOffset).getUint32(0, true)).toBe(1); // EMR_HEADER
    expect(new TextDecoder().decode(emf.subarray(40, 44))).toBe(" EMF");
    const wmf = await convert(bytesInput("d.svg", utf8(DRAWING)), { output_format: "wmf" });
    expect(new DataView(wmf.buffer, wmf.byteOffset).getUint32(0, true)).toBe(0x9ac6cdd7);
  });

  it("dxf: an AutoCAD DXF with ENTITIES and EOF (text as outlines)", async () => {
    const dxf = new TextDecoder().decode(await convert(bytesInput("d.svg", utf8(DRAWING)), { output_format: "dxf" }));
    expect(dxf).toMatch(/SECTION\s+2\s+ENTITIES/);
    expect(dxf.trim()).toMatch(/EOF$/);
    expect(dxf).toMatch(/LWPOLYLINE|POLYLINE|LINE/);
  });

  it.each([
    ["jpg", "JPEG"],
    ["webp", "WEBP"],
    ["gif", "GIF"],
    ["tiff", "TIFF"],
    ["bmp", "BMP"],
    ["ico", "ICO"],
    ["psd", "PSD"],
  ])("emf → %s: identify reads it at the drawing's size", async (format, name) => {
    const out = await convert(corpusInput("vector/tika-testEMF.emf"), { output_format: format });
    const id = identify(out, format);
    expect(id.format).toBe(name);
    expect(id.width).toBeGreaterThan(10);
  });
});

describe("options", () => {
  it("pixel_density and width/height size the raster output", async () => {
    const at96 = identify(await convert(bytesInput("d.svg", utf8(DRAWING)), { output_format: "png" }), "png");
    expect(at96).toMatchObject({ width: 300, height: 120 });
    const at192 = identify(
      await convert(bytesInput("d.svg", utf8(DRAWING)), { output_format: "png", pixel_density: 192 }),
      "png",
    );
    expect(at192).toMatchObject({ width: 600, height: 240 });
    const w = identify(await convert(bytesInput("d.svg", utf8(DRAWING)), { output_format: "png", width: 150 }), "png");
    expect(w).toMatchObject({ width: 150, height: 60 });
  });

  it("text_to_path: the PDF has no fonts and no text, without it both", async () => {
    const withText = await convert(bytesInput("d.svg", utf8(DRAWING)), { output_format: "pdf" });
    const outlined = await convert(bytesInput("d.svg", utf8(DRAWING)), { output_format: "pdf", text_to_path: true });
    const fonts = (pdf: Uint8Array) =>
      execFileSync("pdffonts", [tmpFile(pdf)], { encoding: "utf8" })
        .split("\n")
        .slice(2)
        .filter(Boolean);
    expect(fonts(withText).length).toBeGreaterThan(0);
    expect(pdftotext(withText)).toContain("Vector Hello");
    expect(fonts(outlined)).toEqual([]);
    expect(pdftotext(outlined).trim()).toBe("");
  });
});

describe("hostile drawings (issue 33): nothing fetched, nothing of the host embedded, coded errors", () => {
  let server: Server;
  let hits = 0;
  let port = 0;
  const secretPng = join(scratch, "secret.png");
  beforeAll(async () => {
    // a local picture the hostile SVGs name: solid red, so any of it in an output shows
    execFileSync("convert", ["-size", "300x120", "xc:#ff0000", secretPng]);
    server = createServer((_, res) => {
      hits++;
      res.writeHead(200, { "content-type": "image/png" }).end(readFileSync(secretPng));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const doc = (body: string, doctype = "") =>
    `<?xml version="1.0"?>${doctype}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" width="300" height="120"><rect width="300" height="120" fill="white"/>${body}</svg>`;
  /** Share of pure-red pixels (the secret picture's colour). */
  const red = (png: Uint8Array) => {
    const { w, h, px } = rgb(png);
    let n = 0;
    for (let i = 0; i < w * h; i++) if (px[3 * i] > 200 && px[3 * i + 1] < 60 && px[3 * i + 2] < 60) n++;
    return n / (w * h);
  };

  // each beside its twin naming a file that does not exist: Inkscape draws its broken-image mark for both
  const missing = (tag: string) => doc(`<image width="300" height="120" ${tag}="/nonexistent/none.png"/>`);
  it.each([
    [
      "<image> of file://",
      () => doc(`<image width="300" height="120" xlink:href="file://${secretPng}"/>`),
      missing("xlink:href"),
    ],
    [
      "<image> of a bare path",
      () => doc(`<image width="300" height="120" xlink:href="${secretPng}"/>`),
      missing("xlink:href"),
    ],
    [
      "sodipodi:absref",
      () => doc(`<image width="300" height="120" xlink:href="x.png" sodipodi:absref="${secretPng}"/>`),
      missing("xlink:href"),
    ],
    [
      "<image> of a loopback URL",
      () => doc(`<image width="300" height="120" href="http://127.0.0.1:${port}/s.png"/>`),
      missing("href"),
    ],
    [
      "fill url() of a loopback document",
      () => doc(`<rect width="300" height="120" fill="url(http://127.0.0.1:${port}/p.svg#g)"/>`),
      doc(`<rect width="300" height="120" fill="url(#none)"/>`),
    ],
    [
      "CSS @import of a loopback sheet",
      () => doc(`<style>@import url(http://127.0.0.1:${port}/s.css);</style>`),
      doc(""),
    ],
  ])("%s: drawn as its twin without the file, no request", async (_, hostile, twin) => {
    const before = hits;
    const r = await outcome(bytesInput("h.svg", utf8(hostile())), { output_format: "png" });
    if (!r.data) throw new Error(`${r.code}: ${r.message}`);
    const ref = await convert(bytesInput("t.svg", utf8(twin)), { output_format: "png" });
    expect(red(r.data)).toBe(red(ref));
    expect(inkDiff(rgb(r.data), rgb(ref))).toEqual({ extra: 0, missing: 0 });
    expect(hits - before).toBe(0);
  });

  it("the oracle sees the picture when it is inline (data: URI)", async () => {
    const b64 = readFileSync(secretPng).toString("base64");
    const png = await convert(
      bytesInput("h.svg", utf8(doc(`<image width="300" height="120" xlink:href="data:image/png;base64,${b64}"/>`))),
      { output_format: "png" },
    );
    expect(red(png)).toBeGreaterThan(0.9);
  });

  it("an SVG with plain-text entities (as Illustrator writes its namespaces) is read", async () => {
    const svg = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY ns_svg "http://www.w3.org/2000/svg"><!ENTITY word "Entitled">]><svg xmlns="&ns_svg;" width="200" height="50"><text x="5" y="30" font-size="20">&word;</text></svg>`;
    expect(pdftotext(await convert(bytesInput("e.svg", utf8(svg)), { output_format: "pdf" }))).toContain("Entitled");
  });

  it("an external entity (XXE) naming a local file: OPEN_FAILED, nothing of it in any output", async () => {
    const marker = join(scratch, "xxe.txt");
    writeFileSync(marker, "XXESECRETWORD");
    const r = await outcome(
      bytesInput(
        "x.svg",
        utf8(
          doc(`<text x="5" y="60" font-size="20">&x;</text>`, `<!DOCTYPE svg [<!ENTITY x SYSTEM "file://${marker}">]>`),
        ),
      ),
      { output_format: "pdf" },
    );
    if (r.data) expect(pdftotext(r.data)).not.toContain("XXESECRETWORD");
    else expect(r.code).toBe("OPEN_FAILED");
  });

  it("a billion-laughs entity bomb ends OPEN_FAILED quickly", async () => {
    const lol = [
      `<!ENTITY l0 "lol">`,
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`),
    ];
    const t0 = Date.now();
    const r = await outcome(
      bytesInput("b.svg", utf8(doc(`<text y="20">&l9;</text>`, `<!DOCTYPE svg [${lol.join("")}]>`))),
      {
        output_format: "pdf",
      },
    );
    expect(r.code).toBe("OPEN_FAILED");
    expect(Date.now() - t0).toBeLessThan(60_000);
  });

  it("huge dimensions to a raster output end OVER_BUDGET before drawing", async () => {
    const r = await outcome(
      bytesInput(
        "huge.svg",
        utf8(
          `<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="10" height="10"/></svg>`,
        ),
      ),
      { output_format: "png" },
    );
    expect(r.code).toBe("OVER_BUDGET");
  });

  it("a malformed EPS ends OPEN_FAILED (Ghostscript -dSAFER)", async () => {
    const eps = `%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 100 100\nnewpath 0 0 moveto 100 100 lineto stroke\n1 0 div\n(unterminated`;
    const r = await outcome(bytesInput("bad.eps", utf8(eps)), { output_format: "pdf" });
    expect(r.code).toBe("OPEN_FAILED");
  });

  it("an EPS that reads a local file under -dSAFER: refused, OPEN_FAILED", async () => {
    const eps = `%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 300 100\n/Helvetica findfont 12 scalefont setfont 10 50 moveto\n(/etc/passwd) (r) file 100 string readstring pop show showpage\n`;
    const r = await outcome(bytesInput("read.eps", utf8(eps)), { output_format: "pdf" });
    if (r.data) expect(pdftotext(r.data)).not.toMatch(/root:/);
    else expect(r.code).toBe("OPEN_FAILED");
  });
});

describe("drawings streamed to Inkscape (issue 49)", () => {
  /** Inputs and answers over 512 bytes go framed: the path a drawing over 64 MiB takes. */
  const OVER = 512;
  const streaming = () =>
    testContext({ engines: native.engines({ streamOver: OVER }), settings: { nativeStreamBytes: OVER } as never });

  it.each([
    "vector/inkscape-i18n.svg",
    "vector/ghostscript-golfer.eps",
    "vector/xapian-test1.cdr",
    "vector/xmp-BlueSquare.ai",
  ])(
    "%s streamed → pdf: the answer a stream, its words found by pdftotext",
    async (rel) => {
      const r = await execute("convert", { engine: "inkscape", output_format: "pdf" }, [corpusInput(rel)], streaming());
      expect(r.engine.name).toBe("inkscape");
      expect(isStreamed(r.out.files[0]!.data)).toBe(true);
      const pdf = await heldBytes(r.out.files[0]!.data as never);
      expect(Number(pdfinfo(pdf).Pages)).toBeGreaterThanOrEqual(1);
      const text = pdftotext(pdf).replace(/\s+/g, " ");
      for (const w of expectedWords(rel)) expect(text).toContain(w);
    },
    180_000,
  );

  it(
    "a generated 68 MB Illustrator file (one 4750² picture) over 64 MiB → pdf: every pixel of its picture kept (pdfimages)",
    async () => {
      const path = join(scratch, "poster.ai");
      const written = writePicturePdf(path, 4750);
      expect(written.bytes).toBeGreaterThan(64 * 2 ** 20);
      const file = bytesInput("poster.ai", new Uint8Array(readFileSync(path)));
      // the production thresholds: over 64 MiB the input streams, and so does the 68 MB PDF back
      const r = await execute("convert", { output_format: "pdf" }, [file], ctx());
      expect(r.engine.name).toBe("inkscape");
      expect(isStreamed(r.out.files[0]!.data)).toBe(true);
      const pdf = join(scratch, "poster.pdf");
      writeFileSync(pdf, await heldBytes(r.out.files[0]!.data as never));
      const list = execFileSync("pdfimages", ["-list", pdf], { encoding: "utf8" }).split("\n").slice(2).filter(Boolean);
      expect(list.map((l) => l.trim().split(/\s+/).slice(3, 6))).toEqual([["4750", "4750", "rgb"]]);
      execFileSync("pdfimages", [pdf, join(scratch, "poster")]);
      const ppm = readFileSync(join(scratch, "poster-000.ppm"));
      const header = "P6\n4750 4750\n255\n";
      expect(ppm.subarray(0, header.length).toString("latin1")).toBe(header);
      expect(createHash("sha256").update(ppm.subarray(header.length)).digest("hex")).toBe(written.pixelsSha256);
      for (const f of [path, pdf, join(scratch, "poster-000.ppm")]) rmSync(f, { force: true });
    },
    scaled(180_000),
  );

  it("an SVG over the 64 MiB read to make it safe ends OVER_BUDGET before Inkscape runs", async () => {
    const head = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><!--';
    const svg = new Uint8Array(65 * 2 ** 20).fill(0x20);
    svg.set(utf8(head));
    svg.set(utf8("--></svg>"), svg.length - 9);
    const err = await expectTaskError(
      () => execute("convert", { engine: "inkscape", output_format: "pdf" }, [bytesInput("big.svg", svg)], ctx()),
      "OVER_BUDGET",
    );
    expect(err.message).toMatch(/64 MiB/);
  });

  describe("under a 512 MB tool memory limit", () => {
    let tight: NativeServer;
    beforeAll(async () => {
      tight = await startNativeEngine({ NATIVE_MEMORY_MB: "512" });
    }, scaled(120_000));
    afterAll(async () => tight?.stop());

    it(
      "a dense 6.5 MB SVG of 50 000 paths (~1 GB in Inkscape) ends OVER_BUDGET naming the memory limit",
      async () => {
        const paths: string[] = [];
        let s = 1;
        const next = () => ((s = (s * 1103515245 + 12345) % 2 ** 31), s % 2000);
        for (let i = 0; i < 50_000; i++)
          paths.push(
            `<path d="M${next()},${next()} ${Array.from({ length: 8 }, () => `L${next()},${next()}`).join(" ")}" stroke="#${((i * 2654435761) % 0xffffff).toString(16).padStart(6, "0")}" fill="none"/>`,
          );
        const svg = utf8(
          `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000">${paths.join("\n")}</svg>`,
        );
        const err = await expectTaskError(
          () =>
            execute(
              "convert",
              { engine: "inkscape", output_format: "pdf" },
              [bytesInput("dense.svg", svg)],
              testContext({ engines: tight.engines() }),
            ),
          "OVER_BUDGET",
        );
        expect(err.message).toMatch(/memory/i);
      },
      scaled(120_000),
    );
  });
});
