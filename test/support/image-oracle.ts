/**
 * Outside oracles of image outputs (Debian's identify, exiftool, Ghostscript, ffmpeg's libjxl, poppler, unzip): the
 * format and size an output has by tools that are not our code, for every format the image engines write. Shared
 * by the image engine sweeps (test/engines-heavy/image-formats.test.ts, raw-wasm.test.ts).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { ImageFormat } from "../../src/engines/kinds/image";
import { gsPngArgs } from "./corpus";
import { identify } from "./image-helpers";

/** What exiftool (Debian's, not our code) says of bytes on stdin. */
export function exiftool(data: Uint8Array): {
  FileType: string;
  ImageWidth: number;
  ImageHeight: number;
  [k: string]: unknown;
} {
  return JSON.parse(
    execFileSync("exiftool", ["-j", "-n", "-FileType", "-ImageWidth", "-ImageHeight", "-LayerCount", "-"], {
      input: data,
    }).toString(),
  )[0];
}

/**
 * Format and size of an output by outside tools: identify; for JXL (IM 6 has no JXL coder) the file
 * type by exiftool ("JXL", or "JXL Codestream" for a bare codestream; exiftool 12.57 gives sizes only
 * for the latter) and the size of Debian ffmpeg's (libjxl) decode.
 */
export function oracle(data: Uint8Array, to: ImageFormat): { format: string; width: number; height: number } {
  if (to === "pdf") {
    // issue 47: poppler's pdfinfo (one page, a pixel a point) and pdfimages (the picture embedded at its size)
    return withFiles({ "out.pdf": data }, (p) => {
      const info = execFileSync("pdfinfo", [p("out.pdf")], { encoding: "utf8" });
      const size = /^Page size:\s+([\d.]+) x ([\d.]+) pts/m.exec(info)!;
      const img = execFileSync("pdfimages", ["-list", p("out.pdf")], { encoding: "utf8" })
        .split("\n")[2]!
        .trim()
        .split(/\s+/);
      expect(/^Pages:\s+1$/m.test(info), "one page").toBe(true);
      expect([Number(img[3]), Number(img[4])]).toEqual([Math.round(Number(size[1])), Math.round(Number(size[2]))]);
      return { format: "PDF", width: Math.round(Number(size[1])), height: Math.round(Number(size[2])) };
    });
  }
  if (to === "odd") {
    // issue 47: an ODF package (unzip: `mimetype` first, stored, naming a drawing) whose picture identify reads
    return withFiles({ "out.odd": data }, (p) => {
      const members = execFileSync("unzip", ["-Z1", p("out.odd")], { encoding: "utf8" })
        .trim()
        .split("\n");
      expect(members[0]).toBe("mimetype");
      const mime = execFileSync("unzip", ["-p", p("out.odd"), "mimetype"], { encoding: "utf8" });
      const pic = identify(
        new Uint8Array(execFileSync("unzip", ["-p", p("out.odd"), "Pictures/image.png"], { maxBuffer: 1 << 28 })),
      );
      return {
        format: mime === "application/vnd.oasis.opendocument.graphics" && pic.format === "PNG" ? "ODD" : mime,
        width: pic.width,
        height: pic.height,
      };
    });
  }
  if (to === "eps" || to === "ps") {
    // Debian's ImageMagick policy refuses PostScript: exiftool names it, Ghostscript draws it (72 dpi: a pixel a point)
    const { width, height } = identify(outsideDecode(data, to));
    return { format: exiftool(data).FileType, width, height };
  }
  if (to !== "jxl") return identify(data, to === "ico" ? "ico" : undefined);
  const type = exiftool(data).FileType;
  const { width, height } = identify(outsideDecode(data, "jxl"));
  return { format: type.startsWith("JXL") ? "JXL" : type, width, height };
}

/** Runs `fn` with `files` written into a fresh temporary folder (ffmpeg probes JXL from a file, not from a pipe). */
export function withFiles<T>(files: Record<string, Uint8Array>, fn: (path: (name: string) => string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "image-formats-"));
  try {
    for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data);
    return fn((name) => join(dir, name));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Decodes bytes to a PNG with Debian's tools (ffmpeg's libjxl for JXL, else IM 6's first frame), flattened on white. */
export function outsideDecode(data: Uint8Array, format: ImageFormat): Uint8Array {
  const png =
    format === "eps" || format === "ps"
      ? withFiles({ "in.ps": data }, (p) => execFileSync("gs", gsPngArgs(p("in.ps"), "-"), { maxBuffer: 1 << 28 }))
      : format === "jxl"
        ? withFiles({ "in.jxl": data }, (p) =>
            execFileSync(
              "ffmpeg",
              ["-v", "error", "-i", p("in.jxl"), "-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "-"],
              { maxBuffer: 1 << 28 },
            ),
          )
        : execFileSync("convert", [`${format}:-[0]`, "png:-"], { input: data, maxBuffer: 1 << 28 });
  return new Uint8Array(
    execFileSync("convert", ["png:-", "-background", "white", "-alpha", "remove", "-alpha", "off", "png:-"], {
      input: png,
      maxBuffer: 1 << 28,
    }),
  );
}

/** PSNR (dB) between two PNGs by IM 6's compare (Infinity when identical). */
export function psnr(a: Uint8Array, b: Uint8Array): number {
  const r = withFiles({ "a.png": a, "b.png": b }, (p) =>
    spawnSync("compare", ["-metric", "PSNR", p("a.png"), p("b.png"), "null:"])
      .stderr.toString()
      .trim(),
  );
  return r === "inf" ? Infinity : Number(r);
}
