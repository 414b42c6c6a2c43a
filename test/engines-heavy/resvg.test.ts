/**
 * The WebAssembly SVG renderer (issue 33; issue 31 "SVG with text"): resvg draws the corpus's Inkscape
 * SVGs and SVGs with text in Latin, Greek, Cyrillic, Arabic, Hebrew, Japanese, Chinese and Korean
 * as Inkscape does, within the raster oracle's tolerance (test/support/raster-oracle.ts: ink within
 * 1 px, under 0.1 extra and 0.1 missing). Oracle: Inkscape 1.2 with a fontconfig holding exactly the
 * shipped faces (test/support/svg-oracle.ts); librsvg likewise for the small text SVGs. It is the
 * default route for SVG (a local job's convert and thumbnail report engine "resvg"), fetches nothing
 * and ends hostile SVGs in coded errors.
 */
import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLocalJob } from "../../src/browser/local-job";
import type { ImageRunRequest } from "../../src/engines/kinds/image";
import { createResvgEngine } from "../../src/engines/resvg/engine";
import { nodeEngines } from "../../src/runtime/node/engines";
import { loadResvgWasm, nodeResvgEngine } from "../../src/runtime/node/resvg";
import { corpus, identify } from "../support/image-helpers";
import { inkDiff, matches, rgb } from "../support/raster-oracle";
import { FIXTURES } from "../support/catalogue-fixtures";
import { candidatesOf, handlersOf } from "../../src/operations/registry";
import { inkscapePng, rsvgPng } from "../support/svg-oracle";

const enc = (s: string) => new TextEncoder().encode(s);
const engine = nodeResvgEngine();

async function run(input: Uint8Array | string, req: Partial<ImageRunRequest> = {}, e = engine) {
  return e.run({
    op: "convert",
    inputFormat: "svg",
    outputFormat: "png",
    options: {},
    ...req,
    input: typeof input === "string" ? enc(input) : input,
  } as ImageRunRequest);
}

async function out(input: Uint8Array | string, req: Partial<ImageRunRequest> = {}) {
  const r = await run(input, req);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.outputs[0];
}

const CORPUS_SVGS = ["vector/inkscape-i18n.svg", "vector/inkscape-text-on-path.svg", "vector/inkscape-gradient.svg"];

/** The issue 31 example, a logo in the three generic families, and text in eight scripts. */
const ISSUE = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="60"><text x="10" y="40" font-family="sans-serif" font-size="28">Hello SVG</text></svg>`;
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="160" viewBox="0 0 320 160">
  <rect width="320" height="160" fill="#eef3fb"/>
  <text x="160" y="56" text-anchor="middle" font-family="sans-serif" font-weight="bold" font-size="32" fill="#1d4ed8">Acme Corp</text>
  <text x="20" y="100" font-family="Times New Roman" font-size="22" fill="#333333">Serif: Quality since 1999</text>
  <text x="20" y="136" style="font-family:'Courier New', monospace;font-size:18px;fill:#008800">mono: 0123456789</text>
</svg>`;
const SCRIPTS = `<svg xmlns="http://www.w3.org/2000/svg" width="460" height="300">
  <text x="16" y="36" style="font-family:sans-serif;font-size:22px">Ünïcödé Ελληνικά Кириллица</text>
  <text x="16" y="76" style="font-family:sans-serif;font-size:22px">日本語のテキスト、東京</text>
  <text x="16" y="116" style="font-family:sans-serif;font-size:22px">简体中文：这是一个测试</text>
  <text x="16" y="156" style="font-family:sans-serif;font-size:22px">한국어 텍스트입니다</text>
  <text x="16" y="196" style="font-family:sans-serif;font-size:22px">עברית: שלום עולם</text>
  <text x="16" y="236" style="font-family:sans-serif;font-size:22px">नमस्ते दुनिया</text>
  <text x="16" y="276" style="font-family:'Noto Naskh Arabic';font-size:22px">مرحبا بالعالم</text>
</svg>`;

/**
 * KNOWN (issue 44): since the Bengali, Gujarati, Kannada and Thai faces are shipped, Inkscape draws
 * inkscape-i18n.svg's Indic lines shaped (conjuncts, pre-base vowel signs, bold where asked) and
 * resvg-wasm 2.6.2 draws them with its letters unjoined and its fallback faces regular: measured
 * extra 0.10 / missing 0.17 (convert) and 0.06 / 0.14 (thumbnail). The bounds hold those numbers
 * so that a regression shows; the lines' ink is asserted below.
 */
const KNOWN_DIFF: Record<string, { convert: [number, number]; thumbnail: [number, number] }> = {
  "vector/inkscape-i18n.svg": { convert: [0.12, 0.2], thumbnail: [0.08, 0.17] },
};

/** matches() within the oracle's tolerance, or within a KNOWN_DIFF bound. */
function expectLikeInkscape(ours: ReturnType<typeof rgb>, ref: ReturnType<typeof rgb>, known?: [number, number]) {
  if (!known) {
    const m = matches(ours, ref);
    expect(m.ok, m.why).toBe(true);
    return;
  }
  const d = inkDiff(ours, ref);
  expect(d.extra, JSON.stringify(d)).toBeLessThan(known[0]);
  expect(d.missing, JSON.stringify(d)).toBeLessThan(known[1]);
}

describe("resvg draws what Inkscape draws (same faces)", () => {
  it.each(CORPUS_SVGS)("convert %s → png", async (rel) => {
    const svg = corpus(rel);
    const ours = await out(svg);
    expectLikeInkscape(rgb(ours.data), rgb(inkscapePng(svg)), KNOWN_DIFF[rel]?.convert);
  });

  it.each(CORPUS_SVGS)("thumbnail of %s, 600 px wide", async (rel) => {
    const svg = corpus(rel);
    const ours = await out(svg, { op: "thumbnail", options: { width: 600 } });
    expect(ours.width).toBe(600);
    expectLikeInkscape(rgb(ours.data), rgb(inkscapePng(svg, { width: 600 })), KNOWN_DIFF[rel]?.thumbnail);
  });

  it("inkscape-i18n.svg (issue 44): each of its nine script lines has ink, within a factor 2 of Inkscape's", async () => {
    const svg = corpus("vector/inkscape-i18n.svg");
    const ours = rgb((await out(svg)).data);
    const ref = rgb(inkscapePng(svg));
    // each line sits above its red label (the label tspans' y, user units = px at 96 dpi): a band 44 px to 14 px above it
    const labels = [
      ...new TextDecoder()
        .decode(svg)
        .matchAll(/y="([\d.]+)"[^>]*>(Arabic|Bengali|Gujarati|Hebrew|Hindi|Japanese|Kannada|Russian|Thai)</g),
    ];
    expect(labels.map((m) => m[2]).sort()).toEqual([
      "Arabic",
      "Bengali",
      "Gujarati",
      "Hebrew",
      "Hindi",
      "Japanese",
      "Kannada",
      "Russian",
      "Thai",
    ]);
    const ink = (r: ReturnType<typeof rgb>, y0: number, y1: number) => {
      let n = 0;
      for (let y = Math.round(y0); y < Math.round(y1); y++)
        for (let x = 0; x < 1000 && x < r.w; x++) {
          const p = (y * r.w + x) * 3;
          if (Math.min(r.px[p], r.px[p + 1], r.px[p + 2]) < 100 && r.px[p] < 100) n++; // dark, not the red labels
        }
      return n;
    };
    for (const [, y, script] of labels) {
      const band: [number, number] = [Number(y) - 44, Number(y) - 14];
      const row = { script, ours: ink(ours, ...band), inkscape: ink(ref, ...band) };
      expect(row.inkscape, JSON.stringify(row)).toBeGreaterThan(500);
      expect(row.ours / row.inkscape, JSON.stringify(row)).toBeGreaterThan(0.5);
      expect(row.ours / row.inkscape, JSON.stringify(row)).toBeLessThan(2);
    }
  });

  it.each([
    ["the issue 31 example", ISSUE],
    ["a logo: sans bold, Times New Roman, Courier New", LOGO],
    ["Latin, Greek, Cyrillic, Japanese, Chinese, Korean, Hebrew, Devanagari, Arabic", SCRIPTS],
  ])("text: %s, against Inkscape and librsvg", async (_, svg) => {
    const ours = rgb((await out(svg)).data);
    for (const ref of [inkscapePng(svg), rsvgPng(svg)]) {
      const m = matches(ours, rgb(ref));
      expect(m.ok, m.why).toBe(true);
    }
  });

  it("the oracle rejects a blank picture, a text without its CJK line and another text", async () => {
    const ref = rgb(inkscapePng(SCRIPTS));
    expect(inkDiff({ ...ref, px: new Uint8Array(ref.px.length).fill(255) }, ref).missing).toBe(1);
    const noCjk = rgb((await out(SCRIPTS.replace("日本語のテキスト、東京", ""))).data);
    expect(matches(noCjk, ref).ok).toBe(false);
    const other = rgb((await out(ISSUE.replace("Hello SVG", "Hallo SVX"))).data);
    expect(matches(other, rgb(inkscapePng(ISSUE))).ok).toBe(false);
  });
});

describe("outputs, sizes and options", () => {
  it.each([
    ["jpg", "JPEG"],
    ["webp", "WEBP"],
    ["gif", "GIF"],
    ["tiff", "TIFF"],
  ] as const)("svg → %s through the encoder, the picture kept", async (format, name) => {
    const o = await out(LOGO, { outputFormat: format, options: { quality: 95 } });
    expect(identify(o.data)).toMatchObject({ format: name, width: 320, height: 160 });
    const png = new Uint8Array(
      (await import("node:child_process")).execFileSync("convert", [`${format}:-`, "png:-"], { input: o.data }),
    );
    const m = matches(rgb(png), rgb(inkscapePng(LOGO)));
    expect(m.ok, m.why).toBe(true);
  });

  it("width/height with fit crop and scale give the exact box; max never enlarges", async () => {
    expect(identify((await out(ISSUE, { options: { width: 100, height: 100, fit: "crop" } })).data)).toMatchObject({
      width: 100,
      height: 100,
    });
    expect(identify((await out(ISSUE, { options: { width: 300, height: 30, fit: "scale" } })).data)).toMatchObject({
      width: 300,
      height: 30,
    });
    expect(identify((await out(ISSUE, { options: { width: 480 } })).data)).toMatchObject({ width: 240, height: 60 });
  });

  it("pixel_density scales absolute units and is recorded in the PNG", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1in" height="0.5in"><rect width="100%" height="100%"/></svg>`;
    const o = await out(svg, { options: { pixel_density: 300 } });
    expect(identify(o.data)).toMatchObject({ width: 300, height: 150 });
    const { execFileSync } = await import("node:child_process");
    expect(
      execFileSync("identify", ["-units", "PixelsPerInch", "-format", "%x", "-"], { input: o.data }).toString(),
    ).toMatch(/^300/);
  });

  it("reports its real linear memory: at least the RGBA pixmap of the picture it drew", async () => {
    const w = 2000,
      h = 1500;
    const r = await run(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#123456"/></svg>`,
    );
    if (!r.ok) throw new Error(r.error.code);
    expect(r.wasmMemoryBytes).toBeGreaterThanOrEqual(w * h * 4);
    expect((await engine.info()).wasmMemoryBytes).toBe(r.wasmMemoryBytes);
  });

  it("reads gzipped SVG (svgz bytes)", async () => {
    const o = await out(gzipSync(ISSUE));
    const m = matches(rgb(o.data), rgb(inkscapePng(ISSUE)));
    expect(m.ok, m.why).toBe(true);
  });

  it("an SVG with text and no fonts here answers UNSUPPORTED (the next engine takes it); shapes still render", async () => {
    const bare = createResvgEngine({ loadWasm: () => loadResvgWasm() });
    const r = await run(ISSUE, {}, bare);
    expect(r.ok ? "ok" : r.error.code).toBe("UNSUPPORTED");
    const shapes = await run(
      `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="10" height="10"/></svg>`,
      {},
      bare,
    );
    expect(shapes.ok).toBe(true);
  });

  it("inputs other than SVG, and outputs it cannot write, answer UNSUPPORTED", async () => {
    const a = await run(ISSUE, { inputFormat: "png" });
    const b = await run(ISSUE, { outputFormat: "heic" });
    expect([a.ok ? "ok" : a.error.code, b.ok ? "ok" : b.error.code]).toEqual(["UNSUPPORTED", "UNSUPPORTED"]);
  });
});

describe("the default route for SVG", () => {
  it("a local job's convert and thumbnail of an SVG with text run on resvg", async () => {
    const { job, outputs } = await runLocalJob(
      {
        tasks: {
          up: { operation: "import/upload" },
          big: { operation: "convert", input: "up", output_format: "png" },
          small: { operation: "thumbnail", input: "up", output_format: "jpg", width: 400 },
          out: { operation: "export/url", input: ["big", "small"] },
        },
      },
      {
        engines: nodeEngines(["cloudflare", "resvg", "imagemagick"]),
        files: { up: { name: "text-on-path.svg", data: corpus("vector/inkscape-text-on-path.svg") } },
      },
    );
    expect(job.status).toBe("finished");
    expect(
      job.tasks!.filter((t) => t.operation !== "import/upload" && t.operation !== "export/url").map((t) => t.engine),
    ).toEqual(["resvg", "resvg"]);
    const png = new Uint8Array(await outputs.find((o) => o.filename.endsWith(".png"))!.blob.arrayBuffer());
    const m = matches(rgb(png), rgb(inkscapePng(corpus("vector/inkscape-text-on-path.svg"))));
    expect(m.ok, m.why).toBe(true);
    const jpg = new Uint8Array(await outputs.find((o) => o.filename.endsWith(".jpg"))!.blob.arrayBuffer());
    expect(identify(jpg)).toMatchObject({ format: "JPEG", width: 400 });
  });
});

describe("svgz (issue 47): the fixtures inflated and drawn at the edge as their SVG is", () => {
  /** test/fixtures/vector's svgz files (written by Apache Tika's and Xapian's authors) and rsvg-convert's size of each (facts.json). */
  const facts = JSON.parse(readFileSync(join(FIXTURES, "vector", "facts.json"), "utf8")) as Record<
    string,
    { rsvg_convert_2_54_png_px: [number, number] }
  >;
  const SVGZ = Object.keys(facts).filter((k) => k.endsWith(".svgz"));

  it("routes svgz → raster to resvg first and keeps Inkscape (the vector row) as the fallback", () => {
    expect(SVGZ).toHaveLength(2);
    for (const output of ["png", "jpg", "webp", "gif", "tiff", "bmp", "ico", "psd"]) {
      const names = candidatesOf(handlersOf("convert")!, { input: "svgz", output }).map((c) => c.engine.name);
      expect(names[0]).toBe("resvg");
      expect(names).toContain("inkscape");
    }
    // vector outputs stay Inkscape's: resvg draws pixels only; Chrome prints svgz → pdf only as the fallback after
    // Inkscape (issue 47, operations/web/svg.ts)
    expect(candidatesOf(handlersOf("convert")!, { input: "svgz", output: "pdf" }).map((c) => c.engine.name)).toEqual([
      "inkscape",
      "chrome",
    ]);
  });

  it.each(SVGZ)(
    "%s: a local job's convert to png and jpg runs on resvg; the png is the SVG path's, at rsvg-convert's size",
    async (rel) => {
      const svgz = new Uint8Array(readFileSync(join(FIXTURES, rel)));
      const svg = new Uint8Array(gunzipSync(svgz)); // Node's zlib, not the engine's inflater
      const name = rel.split("/").pop()!;
      const convert = async (file: string, data: Uint8Array) => {
        const { job, outputs } = await runLocalJob(
          {
            tasks: {
              up: { operation: "import/upload" },
              png: { operation: "convert", input: "up", output_format: "png" },
              jpg: { operation: "convert", input: "up", output_format: "jpg" },
              out: { operation: "export/url", input: ["png", "jpg"] },
            },
          },
          { engines: nodeEngines(["cloudflare", "resvg", "imagemagick"]), files: { up: { name: file, data } } },
        );
        expect(job.status).toBe("finished");
        expect(job.tasks!.filter((t) => t.operation === "convert").map((t) => t.engine)).toEqual(["resvg", "resvg"]);
        const bytes = async (ext: string) =>
          new Uint8Array(await outputs.find((o) => o.filename.endsWith(ext))!.blob.arrayBuffer());
        return { png: await bytes(".png"), jpg: await bytes(".jpg") };
      };
      const z = await convert(name, svgz);
      const plain = await convert(name.replace(/\.svgz$/, ".svg"), svg);
      expect(Buffer.from(z.png).equals(Buffer.from(plain.png))).toBe(true);
      const [w, h] = facts[rel].rsvg_convert_2_54_png_px;
      for (const [data, format] of [
        [z.png, "PNG"],
        [z.jpg, "JPEG"],
      ] as const) {
        const id = identify(data);
        expect(id.format).toBe(format);
        expect(Math.abs(id.width - w)).toBeLessThanOrEqual(1);
        expect(Math.abs(id.height - h)).toBeLessThanOrEqual(1);
      }
      // the picture is Inkscape's (an outside renderer of the inflated SVG, the shipped faces), within the oracle's tolerance
      const ours = identify(z.png);
      const m = matches(rgb(z.png), rgb(inkscapePng(svg, { width: ours.width, height: ours.height })));
      expect(m.ok, m.why).toBe(true);
    },
    60_000,
  );
});

describe("hostile SVGs (issue 33): nothing fetched, nothing embedded, coded errors", () => {
  let server: Server;
  let hits = 0;
  let port = 0;
  beforeAll(async () => {
    server = createServer((_, res) => {
      hits++;
      res.writeHead(200, { "content-type": "image/png" });
      res.end(corpus("images/cloudconvert-input.png"));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const doc = (body: string, doctype = "") =>
    `<?xml version="1.0"?>${doctype}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="40"><rect width="120" height="40" fill="white"/>${body}</svg>`;
  const blank = doc("");

  // each hostile SVG beside its twin without the reference: an unresolvable paint is drawn black (SVG 1.1's
  // rule for a paint server that does not exist and has no fallback), the rest draw nothing
  it.each([
    [
      "an <image> of file:///etc/passwd",
      () => doc(`<image width="120" height="40" xlink:href="file:///etc/passwd"/>`),
      blank,
    ],
    [
      "an <image> of a loopback URL",
      () => doc(`<image width="120" height="40" href="http://127.0.0.1:${port}/a.png"/>`),
      blank,
    ],
    ["a <use> of a loopback document", () => doc(`<use href="http://127.0.0.1:${port}/x.svg#a"/>`), blank],
    [
      "a fill url() of a loopback paint server",
      () => doc(`<rect width="120" height="40" fill="url(http://127.0.0.1:${port}/p.svg#g)"/>`),
      doc(`<rect width="120" height="40" fill="black"/>`),
    ],
    [
      "a CSS @import of a loopback stylesheet",
      () => doc(`<style>@import url(http://127.0.0.1:${port}/s.css);</style>`),
      blank,
    ],
  ])("%s: drawn as its twin without the reference, no request made", async (_, hostile, twin) => {
    const before = hits;
    const r = await run(hostile());
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    expect(inkDiff(rgb(r.outputs[0].data), rgb((await out(twin)).data))).toEqual({ extra: 0, missing: 0 });
    expect(hits - before).toBe(0);
  });

  it("an external entity (XXE) of /etc/passwd: refused (OPEN_FAILED) or drawn without it", async () => {
    const r = await run(
      doc(`<text x="2" y="30" font-size="20">&x;</text>`, `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>`),
    );
    if (r.ok) expect(inkDiff(rgb(r.outputs[0].data), rgb((await out(blank)).data)).extra).toBe(0);
    else expect(r.error.code).toBe("OPEN_FAILED");
  });

  it("a billion-laughs entity bomb ends OPEN_FAILED quickly", async () => {
    const lol = [
      `<!ENTITY l0 "lol">`,
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`),
    ];
    const t0 = performance.now();
    const r = await run(doc(`<text x="2" y="30">&l9;</text>`, `<!DOCTYPE svg [${lol.join("")}]>`));
    expect(r.ok ? "ok" : r.error.code).toBe("OPEN_FAILED");
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  it("huge declared dimensions end OVER_BUDGET before drawing", async () => {
    const r = await run(
      `<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="10" height="10"/></svg>`,
    );
    expect(r.ok ? "ok" : r.error.code).toBe("OVER_BUDGET");
  });

  it("a gzip bomb (svgz inflating past the budget) ends OVER_BUDGET", async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from(blank), Buffer.alloc(40 * 1024 * 1024, 32)]));
    const r = await run(bomb);
    expect(r.ok ? "ok" : r.error.code).toBe("OVER_BUDGET");
  });

  it("issue 47: a gzip bomb named .svgz through a local job's convert ends OVER_BUDGET (resvg), and the task fails with a code", async () => {
    // 64 MiB of spaces after the root element, ~64 KiB gzipped: inflated only to the 1 MiB budget
    const bomb = gzipSync(Buffer.concat([Buffer.from(blank), Buffer.alloc(64 * 1024 * 1024, 32)]));
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const t0 = performance.now();
    const { job } = await runLocalJob(
      {
        tasks: {
          up: { operation: "import/upload" },
          png: { operation: "convert", input: "up", output_format: "png", engine: "resvg" },
        },
      },
      {
        engines: nodeEngines(["cloudflare", "resvg", "imagemagick"]),
        files: { up: { name: "bomb.svgz", data: bomb } },
      },
    );
    const task = job.tasks!.find((t) => t.operation === "convert")!;
    expect(task.status).toBe("error");
    expect(task.code).toBe("OVER_BUDGET");
    expect(performance.now() - t0).toBeLessThan(10_000);
  }, 60_000);

  it.each(["broken/resvg-external-png.svg", "broken/resvg-url-to-png.svg"])(
    "%s (the corpus's external references): no request, a coded outcome",
    async (rel) => {
      const before = hits;
      const r = await run(corpus(rel));
      expect(r.ok || ["OPEN_FAILED", "OVER_BUDGET"].includes(r.error.code)).toBe(true);
      expect(hits - before).toBe(0);
    },
  );
});
