/**
 * Watermark text in Korean and simplified Chinese through the Workers as deployed (issue 16): the
 * faces live in the fonts Worker (wasm/fonts), which the image engine Worker (image watermarks)
 * and the api Worker (PDF watermarks) reach over their FONTS bindings. Oracles from the outputs'
 * own bytes: the BMP's pixels (ink where the text is, none in the corners) and the PDF's font
 * dictionaries (a subset of the Noto face named by its PostScript name, ISO 32000-1 §9.6.4).
 */
import { describe, expect, it } from "vitest";
import { type ApiJob, b64, createJob, taskByName, waitJob, whiteBmp } from "./helpers";

/** Dark pixels (all channels < 128) of a bottom-up 24/32-bit BMP inside the box [x0,x1)×[y0,y1) (y from the top). */
function darkPixels(bmp: Uint8Array, x0: number, y0: number, x1: number, y1: number): number {
  const v = new DataView(bmp.buffer, bmp.byteOffset);
  const off = v.getUint32(10, true),
    w = v.getInt32(18, true),
    h = Math.abs(v.getInt32(22, true)),
    bpp = v.getUint16(28, true) / 8;
  const topDown = v.getInt32(22, true) < 0,
    row = Math.ceil((w * bpp) / 4) * 4;
  let n = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const p = off + (topDown ? y : h - 1 - y) * row + x * bpp;
      if (bmp[p] < 128 && bmp[p + 1] < 128 && bmp[p + 2] < 128) n++;
    }
  return n;
}

/** A one-page PDF (A5, empty page) written by hand: header, four objects, xref and trailer. */
function blankPdf(): string {
  const objs = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Contents 4 0 R >>",
    "<< /Length 0 >>\nstream\n\nendstream",
  ];
  let out = "%PDF-1.7\n";
  const at: number[] = [];
  objs.forEach((o, i) => {
    at.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${at.map((a) => `${String(a).padStart(10, "0")} 00000 n \n`).join("")}`;
  return out + `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
}

async function download(job: ApiJob, name: string): Promise<Uint8Array> {
  const url = taskByName(job, name).result.files[0].url as string;
  const { exports } = await import("cloudflare:workers");
  return new Uint8Array(await (await exports.default.fetch(url)).arrayBuffer());
}

describe("watermark text in Korean and Chinese through the fonts Worker", () => {
  it("an image watermark draws Hangul and simplified Han in the image engine Worker", async () => {
    const job = await createJob({
      in: { operation: "import/base64", file: b64(whiteBmp(480, 240)), filename: "in.bmp" },
      ko: { operation: "watermark", input: "in", text: "기밀 문서", font_size: 64, font_color: "#000000" },
      zh: { operation: "watermark", input: "in", text: "这是机密", font_size: 64, font_color: "#000000" },
      kob: { operation: "convert", input: "ko", output_format: "bmp" },
      zhb: { operation: "convert", input: "zh", output_format: "bmp" },
      oko: { operation: "export/url", input: "kob" },
      ozh: { operation: "export/url", input: "zhb" },
    });
    const done = await waitJob(job.id);
    for (const t of ["ko", "zh", "kob", "zhb"])
      expect(taskByName(done, t), JSON.stringify(taskByName(done, t))).toMatchObject({ status: "finished" });
    for (const t of ["oko", "ozh"]) {
      const bmp = await download(done, t);
      // the text is centred: ink in the middle band, none in the corners
      expect(darkPixels(bmp, 80, 70, 400, 170), t).toBeGreaterThan(1500);
      expect(darkPixels(bmp, 0, 0, 40, 40) + darkPixels(bmp, 440, 200, 480, 240), t).toBe(0);
    }
  });

  it("a PDF watermark embeds subsets of Noto Sans KR and Noto Sans SC from the fonts Worker", async () => {
    const job = await createJob({
      in: { operation: "import/raw", file: blankPdf(), filename: "in.pdf" },
      wm: { operation: "watermark", input: "in", text: "기밀\n这是机密" },
      out: { operation: "export/url", input: "wm" },
    });
    const done = await waitJob(job.id);
    expect(taskByName(done, "wm"), JSON.stringify(taskByName(done, "wm"))).toMatchObject({
      status: "finished",
      engine: "pdflib",
    });
    const pdf = new TextDecoder("latin1").decode(await download(done, "out"));
    const bases = [...pdf.matchAll(/\/BaseFont\s*\/([A-Z]{6}\+[\w-]+)/g)].map((m) => m[1].slice(7));
    expect(new Set(bases)).toEqual(new Set(["NotoSansKR-Regular", "NotoSansHans-Regular"]));
  });
});
