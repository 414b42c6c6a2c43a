/**
 * Issue 34: Apple icons (icns), OpenDocument Drawings (odd) and xps → svg (MuPDF) through the real runner and the native
 * ImageMagick row (container/engines/image-extra.ts, odd.ts). Oracles: corpus/facts.json's icns2png listing
 * (the icon sizes), icns2png's own extraction of our icns, identify/compare, pdfinfo, and LibreOffice read
 * separately (`soffice --convert-to`, its own profile) — it renders our odd and writes the odd we read.
 * Hostile: an odd whose picture links a local file (a FIFO the test watches: never opened), a zip bomb
 * named .odd (OVER_BUDGET), broken icns and odd (OPEN_FAILED).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { corpusPath, fact } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { bytesInput, corpusInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

const TMP = mkdtempSync(join(tmpdir(), "native-icns-odd-"));
let native: NativeServer;
beforeAll(async () => {
  native = await startNativeEngine();
}, scaled(120_000));
afterAll(async () => {
  await native?.stop();
  rmSync(TMP, { recursive: true, force: true });
});
const ctx = () => testContext({ engines: native.engines() });
let n = 0;
/** Writes bytes to a fresh file in TMP. */
const save = (data: Uint8Array, ext: string) => {
  const p = join(TMP, `f${++n}.${ext}`);
  writeFileSync(p, data);
  return p;
};
/** identify's format and size. */
const identify = (path: string) => {
  const [format, w, h] = execFileSync("identify", ["-format", "%m %w %h\\n", `${path}[0]`])
    .toString()
    .trim()
    .split(" ");
  return { format, width: Number(w), height: Number(h) };
};
/** Root-mean-square difference of two images (0…1), ImageMagick's compare. */
const rmse = (a: string, b: string) => {
  const r = spawnSync("compare", ["-metric", "RMSE", a, b, "null:"]);
  return Number(/\(([\d.e-]+)\)/.exec(r.stderr.toString())?.[1] ?? NaN);
};
/** LibreOffice's own rendering of a drawing, page 1, as a PNG (soffice --convert-to, its own profile). */
function sofficePng(path: string): string {
  const out = join(TMP, `lo${++n}`);
  mkdirSync(out);
  execFileSync(
    "soffice",
    [
      `-env:UserInstallation=file://${join(TMP, "lo-profile")}`,
      "--headless",
      "--convert-to",
      "png",
      "--outdir",
      out,
      path,
    ],
    { stdio: "ignore", timeout: 180_000 },
  );
  return join(out, readdirSync(out)[0]!);
}

describe("icns: the largest icon in, png2icns out", () => {
  for (const [rel, size] of [
    ["images/tika-testICNS.icns", 32],
    ["images/tika-testICNS_basic.icns", 512],
  ] as const) {
    it(`${rel} → png: the largest icon of its family (facts: ${(fact(rel).icns2png_elements as unknown[] | undefined)?.length} elements), ${size}×${size}`, async () => {
      expect(String(fact(rel).icns2png_elements)).toContain(`${size}x${size}`);
      const r = await execute("convert", { output_format: "png" }, [corpusInput(rel)], ctx());
      expect(r.engine.name).toBe("imagemagick-native");
      expect(identify(save(dataOf(r.out.files[0]!), "png"))).toEqual({ format: "PNG", width: size, height: size });
    });
    it(`${rel} → pdf: one page of the icon`, async () => {
      const r = await execute("convert", { output_format: "pdf" }, [corpusInput(rel)], ctx());
      const info = execFileSync("pdfinfo", [save(dataOf(r.out.files[0]!), "pdf")]).toString();
      expect(info).toMatch(/Pages:\s+1\n/);
    });
  }

  it("tika-testICNS.icns → icns: icns2png lists a 32×32 icon in ours and takes out the same pixels", async () => {
    const r = await execute("convert", { output_format: "icns" }, [corpusInput("images/tika-testICNS.icns")], ctx());
    const ours = save(dataOf(r.out.files[0]!), "icns");
    expect(execFileSync("icns2png", ["-l", ours]).toString()).toMatch(/'il32' 32x32/);
    const dir = join(TMP, "icns-out");
    mkdirSync(dir);
    execFileSync("icns2png", ["-x", "-o", dir, ours]);
    const src = join(TMP, "icns-src");
    mkdirSync(src);
    execFileSync("icns2png", ["-x", "-o", src, corpusPath("images/tika-testICNS.icns")]);
    const pick = (d: string) =>
      join(
        d,
        readdirSync(d).find((f) => f.includes("_32x32"))!,
      );
    expect(rmse(pick(dir), pick(src))).toBeLessThan(0.01);
  });

  it("png (Pillow's hopper photo, 128×128) → icns: the 128×128 icon icns2png takes out is the picture, pixel for pixel", async () => {
    const src = join(TMP, "hopper-src.png");
    execFileSync("convert", [corpusPath("images/pillow-hopper.ppm"), src]);
    const r = await execute("convert", { output_format: "icns" }, [bytesInput("hopper.png", readFileSync(src))], ctx());
    const ours = save(dataOf(r.out.files[0]!), "icns");
    expect(execFileSync("icns2png", ["-l", ours]).toString()).toMatch(/'it32' 128x128/);
    const dir = join(TMP, "png-icns");
    mkdirSync(dir);
    execFileSync("icns2png", ["-x", "-o", dir, ours]);
    const icon = join(
      dir,
      readdirSync(dir).find((f) => f.includes("_128x128"))!,
    );
    expect(rmse(icon, src)).toBe(0);
  });

  it("an icns cut in half → OPEN_FAILED", async () => {
    const whole = readFileSync(corpusPath("images/tika-testICNS_basic.icns"));
    await expectTaskError(
      () =>
        execute(
          "convert",
          { output_format: "png" },
          [bytesInput("cut.icns", whole.subarray(0, whole.length >> 1))],
          ctx(),
        ),
      "OPEN_FAILED",
    );
  });
});

describe("odd: OpenDocument Drawings out (the picture on a page its size) and in (LibreOffice Draw)", () => {
  it(
    "jpg (Pillow's hopper, 128×128) → odd: LibreOffice renders one page of 128×128 showing the picture",
    async () => {
      const src = join(TMP, "hopper.png");
      execFileSync("convert", [corpusPath("images/pillow-hopper.ppm"), "-quality", "95", join(TMP, "hopper.jpg")]);
      execFileSync("convert", [join(TMP, "hopper.jpg"), src]);
      const r = await execute(
        "convert",
        { output_format: "odd" },
        [bytesInput("hopper.jpg", readFileSync(join(TMP, "hopper.jpg")))],
        ctx(),
      );
      const odd = save(dataOf(r.out.files[0]!), "odd");
      expect(execFileSync("unzip", ["-p", odd, "mimetype"]).toString()).toBe(
        "application/vnd.oasis.opendocument.graphics",
      );
      const png = sofficePng(odd);
      expect(identify(png)).toMatchObject({ width: 128, height: 128 });
      expect(rmse(png, src)).toBeLessThan(0.02);
    },
    scaled(240_000),
  );

  it(
    "an odd LibreOffice wrote (a picture on an A4 page) → png and tiff: the page as LibreOffice itself renders it",
    async () => {
      const dir = join(TMP, "lo-odd");
      mkdirSync(dir);
      copyFileSync(corpusPath("images/pngsuite-basi3p08.png"), join(dir, "pic.png"));
      execFileSync(
        "soffice",
        [
          `-env:UserInstallation=file://${join(TMP, "lo-profile")}`,
          "--headless",
          "--convert-to",
          "odg",
          "--outdir",
          dir,
          join(dir, "pic.png"),
        ],
        { stdio: "ignore", timeout: 180_000 },
      );
      const data = readFileSync(join(dir, "pic.odg"));
      const r = await execute("convert", { output_format: "png" }, [bytesInput("drawing.odd", data)], ctx());
      const ours = save(dataOf(r.out.files[0]!), "png");
      copyFileSync(join(dir, "pic.odg"), join(dir, "same.odd"));
      const theirs = sofficePng(join(dir, "same.odd"));
      // A4 at 96 dpi: 794×1123 (LibreOffice's PNG export renders the page at 96 dpi too)
      expect(identify(ours)).toMatchObject({ width: identify(theirs).width, height: identify(theirs).height });
      expect(rmse(ours, theirs)).toBeLessThan(0.05);
      const t = await execute("convert", { output_format: "tiff" }, [bytesInput("drawing.odd", data)], ctx());
      expect(identify(save(dataOf(t.out.files[0]!), "tiff"))).toMatchObject({
        format: "TIFF",
        width: 794,
        height: 1123,
      });
    },
    scaled(360_000),
  );

  it(
    "an odd whose picture links a local file (a FIFO) by absolute path and file: URL: never opened",
    async () => {
      const fifo = join(TMP, "secret.png");
      execFileSync("mkfifo", [fifo]);
      let opened = "";
      const writer = spawn(
        "sh",
        ["-c", 'cat "$1" > "$0" && echo opened', fifo, corpusPath("images/pngsuite-basi3p08.png")],
        {
          stdio: ["ignore", "pipe", "ignore"],
        },
      );
      writer.stdout!.on("data", (d) => (opened += d));
      const closed = new Promise((r) => writer.once("close", r));
      const enc = new TextEncoder();
      const ns =
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2"';
      const frame = (href: string, y: string) =>
        `<draw:frame svg:x="1cm" svg:y="${y}" svg:width="3cm" svg:height="3cm"><draw:image xlink:href="${href}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame>`;
      const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns}><office:body><office:drawing><draw:page draw:name="p1">${frame(fifo, "1cm")}${frame(`file://${fifo}`, "5cm")}</draw:page></office:drawing></office:body></office:document-content>`;
      const manifest = `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.graphics"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`;
      const odd = zipSync(
        {
          mimetype: [enc.encode("application/vnd.oasis.opendocument.graphics"), { level: 0 }],
          "content.xml": enc.encode(content),
          "META-INF/manifest.xml": enc.encode(manifest),
        },
        {},
      );
      try {
        await execute("convert", { output_format: "png" }, [bytesInput("links.odd", odd)], ctx());
      } catch {
        // converted or refused: either way the linked file must not have been opened
      }
      if (writer.exitCode === null) writer.kill();
      await closed;
      expect(opened).toBe("");
      expect(existsSync(fifo)).toBe(true);
    },
    scaled(240_000),
  );

  it(
    "a zip bomb named .odd (one 64 MiB member named 17 times: 1.06 GiB declared) → OVER_BUDGET before LibreOffice opens it",
    async () => {
      // an overlapping-entries bomb: one deflated member of 64 MiB of zeros, and a central directory naming it 17
      // times (1.06 GiB declared, past the 1 GiB a document may expand to: libreoffice.ts MAX_EXPANDED_BYTES)
      const one = Buffer.from(zipSync({ "Pictures/00.bin": new Uint8Array(64 * 1024 * 1024) }, { level: 1 }));
      const eocd = one.length - 22;
      const cdAt = one.readUInt32LE(eocd + 16);
      const entry = one.subarray(cdAt, eocd);
      const copies = Array.from({ length: 17 }, (_, i) => {
        const e = Buffer.from(entry);
        e.write(String(i).padStart(2, "0"), 46 + "Pictures/".length, "latin1");
        return e;
      });
      const end = Buffer.from(one.subarray(eocd));
      end.writeUInt16LE(17, 8);
      end.writeUInt16LE(17, 10);
      end.writeUInt32LE(entry.length * 17, 12);
      const bomb = Buffer.concat([one.subarray(0, cdAt), ...copies, end]);
      expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
      // unzip's listing (the oracle) totals what the 17 names declare
      const listed = execFileSync("unzip", ["-l", save(bomb, "zip")])
        .toString()
        .trim()
        .split("\n")
        .pop()!;
      expect(Number(listed.trim().split(/\s+/)[0])).toBeGreaterThan(1024 ** 3);
      await expectTaskError(
        () => execute("convert", { output_format: "png" }, [bytesInput("bomb.odd", bomb)], ctx()),
        "OVER_BUDGET",
      );
    },
    scaled(120_000),
  );

  it("an odd that is not a package (a PNG renamed) → OPEN_FAILED", async () => {
    await expectTaskError(
      () =>
        execute(
          "convert",
          { output_format: "png" },
          [bytesInput("fake.odd", readFileSync(corpusPath("images/pngsuite-basi3p08.png")))],
          ctx(),
        ),
      "OPEN_FAILED",
    );
  });
});

describe("xps → svg (MuPDF's mutool)", () => {
  it("Tika's XPS slide → svg: rsvg-convert draws it as libgxps's xpstopng renders the page (720×540 at 72 ppi)", async () => {
    const rel = "office/tika-testPPT.xps";
    const r = await execute("convert", { output_format: "svg" }, [corpusInput(rel)], ctx());
    expect(r.engine.name).toBe("imagemagick-native");
    const svg = save(dataOf(r.out.files[0]!), "svg");
    execFileSync("rsvg-convert", ["-d", "72", "-p", "72", "-b", "white", svg, "-o", `${svg}.png`]);
    const page = join(TMP, "xps-page");
    execFileSync("xpstopng", ["-f", "1", "-l", "1", "-r", "72", corpusPath(rel), page]);
    execFileSync("convert", [`${page}-1.png`, "-background", "white", "-flatten", `${page}.png`]);
    expect(identify(`${svg}.png`)).toMatchObject({ width: 720, height: 540 });
    expect(rmse(`${svg}.png`, `${page}.png`)).toBeLessThan(0.05);
  });
});
