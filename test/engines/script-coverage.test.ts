/**
 * Issue 44 "text in some scripts vanishes": one line per script in common use through every
 * WebAssembly text path — an SVG → png by resvg, a PDF watermark (pdf-lib), an image watermark
 * (ImageMagick) — and ink found on each line. Oracles outside our code: ImageMagick's `convert`
 * decodes the pixels; Inkscape 1.2 with the same shipped faces (test/support/svg-oracle.ts) draws
 * the same SVG, so a line drawn as .notdef boxes or nothing shows as a ratio far from its ink;
 * poppler's pdftotext -bbox-layout places each watermark line, pdftoppm draws it and pdffonts lists
 * the embedded face of each script. The native paths (Chromium, LibreOffice) are in
 * test/native/native-script-coverage.test.ts.
 */
import { execFileSync } from "node:child_process";
import { PDFDocument } from "@cantoo/pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { createPdfLibEngine } from "../../src/engines/pdflib/engine";
import { watermarkPdf } from "../../src/operations/pdf/watermark";
import { nodeFontSource } from "../../src/runtime/node/imagemagick";
import { nodeImageMagickEngine } from "../../src/runtime/node/imagemagick";
import { nodeResvgEngine } from "../../src/runtime/node/resvg";
import { bytesInput, dataOf, testContext, tmpFile } from "../support/pdf-helpers";
import { inkscapePng } from "../support/svg-oracle";

/** One line per script: a few words of the UDHR's article 1, and the PostScript name of the face that has it (fc-scan). */
export const SCRIPT_LINES = [
  { script: "Latin", text: "Tous les êtres humains naissent libres", face: "NotoSans-Regular" },
  { script: "Greek", text: "Όλοι οι άνθρωποι γεννιούνται ελεύθεροι", face: "NotoSans-Regular" },
  { script: "Cyrillic", text: "Все люди рождаются свободными", face: "NotoSans-Regular" },
  { script: "Arabic", text: "يولد جميع الناس أحرارًا", face: "NotoNaskhArabic" },
  { script: "Hebrew", text: "כל בני אדם נולדו בני חורין", face: "NotoSansHebrew" },
  { script: "Devanagari", text: "सभी मनुष्यों को गौरव", face: "NotoSans-Regular" },
  { script: "Bengali", text: "সমস্ত মানুষ স্বাধীনভাবে", face: "NotoSansBengali-Regular" },
  { script: "Gurmukhi", text: "ਸਾਰਾ ਮਨੁੱਖੀ ਪਰਿਵਾਰ", face: "NotoSansGurmukhi-Regular" },
  { script: "Gujarati", text: "પ્રતિષ્ઠા અને અધિકારોની", face: "NotoSansGujarati-Regular" },
  { script: "Oriya", text: "ସମସ୍ତ ମନୁଷ୍ୟ ଜନ୍ମକାଳରୁ", face: "NotoSansOriya-Regular" },
  { script: "Tamil", text: "மனிதப் பிறிவியினர் சகலரும்", face: "NotoSansTamil-Regular" },
  { script: "Telugu", text: "ప్రతిపత్తిస్వత్వముల విషయమున", face: "NotoSansTelugu-Regular" },
  { script: "Kannada", text: "ಎಲ್ಲಾ ಮಾನವರೂ ಸ್ವತಂತ್ರರಾಗಿಯೇ", face: "NotoSansKannada-Regular" },
  { script: "Malayalam", text: "മനുഷ്യരെല്ലാവരും തുല്യാവകാശങ്ങളോടും", face: "NotoSansMalayalam-Regular" },
  { script: "Sinhala", text: "සියලු මනුෂ්‍යයෝ නිදහස්ව උපත", face: "NotoSansSinhala-Regular" },
  { script: "Thai", text: "มนุษย์ทั้งหลายเกิดมามีอิสระ", face: "NotoSansThai-Regular" },
  { script: "Lao", text: "ມະນຸດທັງຫລາຍເກີດມາມີສິດເສລີພາບ", face: "NotoSansLao-Regular" },
  { script: "Khmer", text: "មនុស្សទាំងអស់ កើតមកមានសេរីភាព", face: "NotoSansKhmer-Regular" },
  { script: "Myanmar", text: "လူတိုင်းသည် တူညီ လွတ်လပ်သော", face: "NotoSansMyanmar-Regular" },
  { script: "Georgian", text: "ყველა ადამიანი იბადება თავისუფალი", face: "NotoSansGeorgian-Regular" },
  { script: "Armenian", text: "Բոլոր մարդիկ ծնվում են ազատ", face: "NotoSansArmenian-Regular" },
  { script: "Ethiopic", text: "የሰው ልጅ ሁሉሲወለድ ነጻና", face: "NotoSansEthiopic-Regular" },
  { script: "Japanese", text: "すべての人間は、生まれながらにして自由", face: "NotoSansJP-Regular" },
  { script: "Chinese (simplified)", text: "人人生而自由，在尊严和权利上一律平等", face: "NotoSansHans-Regular" },
  { script: "Korean", text: "모든 인간은 태어날 때부터 자유로우며", face: "NotoSansKR-Regular" },
] as const;

/** Grey levels (0 black … 255 white) of an image, rows top to bottom, decoded by ImageMagick's convert. */
function grey(image: Uint8Array, format = "png"): { w: number; h: number; px: Uint8Array } {
  const size = execFileSync("identify", ["-format", "%w %h", `${format}:-`], { input: image })
    .toString()
    .split(" ");
  const px = new Uint8Array(
    execFileSync(
      "convert",
      [`${format}:-`, "-background", "white", "-flatten", "-colorspace", "gray", "-depth", "8", "gray:-"],
      {
        input: image,
        maxBuffer: 1 << 28,
      },
    ),
  );
  return { w: Number(size[0]), h: Number(size[1]), px };
}

/** Dark pixels (grey < 128) in rows [y0, y1). */
function inkRows(g: { w: number; h: number; px: Uint8Array }, y0: number, y1: number): number {
  let n = 0;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(g.h, Math.ceil(y1)); y++)
    for (let x = 0; x < g.w; x++) if (g.px[y * g.w + x] < 128) n++;
  return n;
}

const LINE = 44; // px between baselines of the SVG
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="760" height="${LINE * SCRIPT_LINES.length + 16}">
${SCRIPT_LINES.map((l, i) => `  <text x="8" y="${LINE * (i + 1)}" font-family="sans-serif" font-size="24">${l.text}</text>`).join("\n")}
</svg>`;

describe("every script in common use has ink on every text path (issue 44)", () => {
  it("SVG → png by resvg: each line has ink, within a factor 2 of Inkscape's ink on the same line (same faces)", async () => {
    const r = await nodeResvgEngine().run({
      op: "convert",
      inputFormat: "svg",
      outputFormat: "png",
      options: {},
      input: new TextEncoder().encode(svg),
    } as never);
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    const ours = grey(r.outputs[0].data);
    const ref = grey(inkscapePng(svg));
    const rows = SCRIPT_LINES.map((l, i) => {
      // the band from the line's ascent to its descent: 30 px above the baseline, 12 below
      const band: [number, number] = [LINE * (i + 1) - 30, LINE * (i + 1) + 12];
      return { script: l.script, ours: inkRows(ours, ...band), inkscape: inkRows(ref, ...band) };
    });
    for (const row of rows) {
      expect(row.inkscape, `${row.script}: Inkscape draws the line`).toBeGreaterThan(300);
      expect(row.ours / row.inkscape, `${row.script}: ${JSON.stringify(row)}`).toBeGreaterThan(0.5);
      expect(row.ours / row.inkscape, `${row.script}: ${JSON.stringify(row)}`).toBeLessThan(2);
    }
  });

  describe("watermarks", () => {
    let blank: Uint8Array;
    beforeAll(async () => {
      const doc = await PDFDocument.create();
      doc.addPage([595, 842]);
      blank = await doc.save();
    });

    it("PDF watermark: pdffonts lists each script's face; each line, placed by pdftotext, has ink (pdftoppm)", async () => {
      const ctx = testContext({ engines: { cloudflare: {}, pdflib: createPdfLibEngine({ fonts: nodeFontSource() }) } });
      const { files } = await watermarkPdf.run(
        [bytesInput("blank.pdf", blank)],
        { text: SCRIPT_LINES.map((l) => l.text).join("\n"), font_size: 14, font_align: "left", font_color: "#000000" },
        ctx,
      );
      const pdf = tmpFile(dataOf(files[0]));
      const faces = execFileSync("pdffonts", [pdf], { encoding: "utf8" })
        .split("\n")
        .slice(2)
        .map((l) => l.split(/\s+/)[0].replace(/^[A-Z]{6}\+/, ""));
      for (const l of SCRIPT_LINES) expect(faces, l.script).toContain(l.face);
      // each line's box as poppler places it, and the ink pdftoppm draws in it (72 dpi: 1 px = 1 pt)
      const layout = execFileSync("pdftotext", ["-bbox-layout", pdf, "-"], { encoding: "utf8" });
      const lines = [
        ...layout.matchAll(/<line xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([\s\S]*?)<\/line>/g),
      ].map((m) => ({
        y0: Number(m[1]),
        y1: Number(m[2]),
        words: [...m[3].matchAll(/>([^<]+)<\/word>/g)].map((w) => w[1]),
      }));
      execFileSync("pdftoppm", ["-r", "72", "-gray", "-singlefile", pdf, `${pdf}-page`]);
      const page = grey(new Uint8Array(execFileSync("convert", [`${pdf}-page.pgm`, "png:-"])));
      for (const l of SCRIPT_LINES) {
        // the line whose words share the most characters with the script's text (RTL words come out in visual order)
        const chars = new Set(l.text.replace(/\s/g, ""));
        const line = lines
          .map((x) => ({ x, hits: [...x.words.join("")].filter((c) => chars.has(c)).length }))
          .sort((a, b) => b.hits - a.hits)[0];
        expect(line.hits, `${l.script}: pdftotext finds the line`).toBeGreaterThan(chars.size / 2);
        expect(inkRows(page, line.x.y0, line.x.y1), `${l.script}: ink on the line`).toBeGreaterThan(60);
      }
    });

    it("image watermark: one band of ink per line, in order, each line's band inked", async () => {
      const white = new Uint8Array(execFileSync("convert", ["-size", "760x1400", "xc:white", "png:-"]));
      const r = await nodeImageMagickEngine().run({
        op: "watermark",
        input: white,
        inputFormat: "png",
        outputFormat: "png",
        options: {
          text: SCRIPT_LINES.map((l) => l.text).join("\n"),
          font_size: 22,
          font_align: "left",
          font_color: "#000000",
        },
      });
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      const g = grey(r.outputs[0].data);
      // runs of rows with ink, split by 8 blank rows or more: the lines are spaced by the tallest face's ascent +
      // descent (over 20 px blank between lines at 22 px); a mark above its letters leaves a gap of a few rows only
      const bands: { y0: number; y1: number; ink: number }[] = [];
      for (let y = 0; y < g.h; y++) {
        const ink = inkRows(g, y, y + 1);
        const last = bands[bands.length - 1];
        if (ink === 0) continue;
        if (last && y - last.y1 < 8) ((last.y1 = y + 1), (last.ink += ink));
        else bands.push({ y0: y, y1: y + 1, ink });
      }
      expect(bands.length, JSON.stringify(bands)).toBe(SCRIPT_LINES.length);
      bands.forEach((b, i) => expect(b.ink, SCRIPT_LINES[i].script).toBeGreaterThan(300));
    });
  });
});
