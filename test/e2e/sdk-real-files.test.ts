/**
 * Issue 44's cases end to end through the official node SDK under `npm start`, each on real files written by others
 * (test/fixtures, ../shared/corpus): a semicolon-separated Latin-1 CSV → xlsx and → pdf (every CSV input ended
 * OPEN_FAILED), a bzip2 and a gzip stream → zip keeping their member's name (was `archive~`), a video converted with
 * `fit: "scale"` and only `width` (was refused), a 5-page fax-like scan over the image engine's all-pages budget → pdf
 * (was OVER_BUDGET), html → docx with `engine: "office"` (was refused). Oracles: Python's csv module, zipfile + ElementTree (xlsx cells),
 * pdftotext, bsdtar's listing, bzip2 -dc, gzip -lN, ffprobe. Also: a cpio with a hard link and a .deb repacked with every
 * member (bsdtar extracts both sides), an AutoCAD 2000 DWG → png with ink (ImageMagick), x264 baseline (ffprobe).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { runCorpusJob, runFileJob } from "../support/jobs";
import { xlsxCells } from "../support/office-oracles";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(() => {
  server = sharedServer("guarded");
});

const fixture = (rel: string) => join(import.meta.dirname, "..", "fixtures", rel);
const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20 });
/** Width and height of the first video stream, as ffprobe reads them. */
const videoSize = (path: string) =>
  sh("ffprobe", [
    "-v",
    "error",
    "-select_streams",
    "v:0",
    "-show_entries",
    "stream=width,height",
    "-of",
    "csv=p=0",
    path,
  ])
    .trim()
    .split(",")
    .map(Number);

/** Every regular file bsdtar extracts from `archive`: relative path → sha256. */
function extracted(archive: string): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "sdk-real-files-"));
  try {
    sh("bsdtar", ["-xf", archive, "-C", dir]);
    const out: Record<string, string> = {};
    for (const f of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
      const p = join(dir, f);
      if (statSync(p).isFile()) out[f] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("real files through the SDK (issue 44)", () => {
  it("a European CSV (semicolons, windows-1252, decimal commas) → xlsx and → pdf", async () => {
    const path = fixture("spreadsheet/frictionless-table-with-accents.csv");
    const records: string[][] = JSON.parse(
      sh("python3", [
        "-c",
        "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='cp1252'), delimiter=';'))))",
        path,
      ]),
    );
    const { job, files } = await runFileJob(server.base, path, {
      xlsx: { operation: "convert", input: "in", output_format: "xlsx" },
      pdf: { operation: "convert", input: "in", output_format: "pdf" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
    const cells = xlsxCells(files.xlsx[0]!.path, 1);
    const at = (r: number, c: number) => cells.find((x) => x.row === r && x.col === c)?.value;
    expect(records[0]!.map((_, c) => at(0, c))).toEqual(records[0]); // the header, "Année" included
    expect(at(records.length - 1, 1)).toBe(records[records.length - 1]![1]);
    expect(cells.reduce((n, c) => Math.max(n, c.row), 0) + 1).toBe(records.length);
    const text = sh("pdftotext", [files.pdf[0]!.path, "-"]);
    for (const word of ["Classement", "Quartier", "Année"]) expect(text).toContain(word);
  });

  it("a bzip2 stream → zip holds patool-t.txt with bzip2's bytes; a gzip stream's member takes its header's name", async () => {
    const bz = fixture("archives/patool-t.txt.bz2");
    const a = await runFileJob(server.base, bz, { zip: { operation: "convert", input: "in", output_format: "zip" } });
    expect(a.job.status, JSON.stringify(a.job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
    expect(sh("bsdtar", ["-tf", a.files.zip[0]!.path]).trim().split("\n")).toEqual(["patool-t.txt"]);
    expect(sh("bsdtar", ["-xOf", a.files.zip[0]!.path, "patool-t.txt"])).toBe(sh("bzip2", ["-dc", bz]));
    const rel = "archives/libarchive-test_read_format_raw.data.gz";
    const fname = sh("gzip", ["-lN", corpusPath(rel)])
      .trim()
      .split("\n")
      .pop()!
      .trim()
      .split(/\s+/)
      .pop()!;
    const g = await runCorpusJob(server.base, rel, {
      zip: { operation: "convert", input: "in", output_format: "zip" },
    });
    expect(g.job.status).toBe("finished");
    expect(sh("bsdtar", ["-tf", g.files.zip[0]!.path]).trim().split("\n")).toEqual([fname.split("/").pop()]);
  });

  it("a 5-page A4 G4 scan at 300 ppi (43.6 MP in all) → pdf: five pages, converted one page at a time", async () => {
    const path = fixture("image/twelvemonkeys-fivepages-scan-causingerrors.tif");
    const { job, files, task } = await runFileJob(server.base, path, {
      pdf: { operation: "convert", input: "in", output_format: "pdf" },
    });
    expect(job.status, JSON.stringify(task("pdf"))).toBe("finished");
    const frames = sh("identify", ["-format", "%w %h %x\n", path]).trim().split("\n");
    expect(frames).toHaveLength(5);
    const info = sh("pdfinfo", ["-f", "1", "-l", "99", files.pdf[0]!.path]);
    expect(info).toMatch(/Pages:\s+5\n/);
    const sizes = [...info.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    for (const [i, f] of frames.entries()) {
      const [w, h, ppi] = f.split(" ").map(Number);
      expect(sizes[i]![0]).toBeCloseTo((w! * 72) / ppi!, 0);
      expect(sizes[i]![1]).toBeCloseTo((h! * 72) / ppi!, 0);
    }
  });

  it('html → docx with engine "office": LibreOffice Writer runs it (pandoc, in WebAssembly, stays the default)', async () => {
    const rel = "html/gotenberg-pages-3.html";
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      office: { operation: "convert", input: "in", output_format: "docx", engine: "office" },
      plain: { operation: "convert", input: "in", output_format: "docx" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
    expect(task("office").engine).toBe("libreoffice");
    expect(task("plain").engine).toBe("pandoc-wasm");
    const xml = sh("unzip", ["-p", files.office[0]!.path, "word/document.xml"]);
    expect(xml).toMatch(/<w:document/);
  });

  it('a video with fit "scale" and only width keeps its aspect ratio, as CloudConvert does', async () => {
    const rel = "video/tika-testVideoMp4.mp4";
    const [w, h] = videoSize(corpusPath(rel));
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      mp4: { operation: "convert", input: "in", output_format: "mp4", fit: "scale", width: 160, video_codec: "x264" },
    });
    expect(job.status, JSON.stringify(task("mp4"))).toBe("finished");
    const out = videoSize(files.mp4[0]!.path);
    // the height follows the width (even, as 4:2:0 needs)
    expect(out[0]).toBe(160);
    expect(Math.abs(out[1]! - (160 * h!) / w!)).toBeLessThanOrEqual(2);
  });
  it("a cpio with a hard link and a .deb → zip and tar.gz keep every member: names and bytes as bsdtar extracts them", async () => {
    for (const rel of [
      "archives/libarchive-test_compat_cpio_1.cpio",
      "archives/debian-fonts-inconsolata_001.010-6_all.deb",
    ]) {
      const src = corpusPath(rel);
      const members = sh("bsdtar", ["-tf", src]).trim().split("\n").sort();
      const want = extracted(src);
      const { job, files } = await runCorpusJob(server.base, rel, {
        zip: { operation: "convert", input: "in", output_format: "zip" },
        tgz: { operation: "convert", input: "in", output_format: "tar.gz" },
      });
      expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
      for (const out of [files.zip[0]!.path, files.tgz[0]!.path]) {
        expect(sh("bsdtar", ["-tf", out]).trim().split("\n").sort(), `${rel} → ${out}`).toEqual(members);
        // extracted by bsdtar, a hard link (bar2 → bar1 in the cpio) is a file with its target's bytes either way
        expect(extracted(out), `${rel} → ${out}`).toEqual(want);
      }
    }
  });

  it("an AutoCAD 2000 (AC1015) DWG written by others → png: the drawing's size, with ink (it was a blank 2 × 2 image)", async () => {
    const path = fixture("cad/libredwg-example_2000.dwg");
    const { job, files, task } = await runFileJob(server.base, path, {
      png: { operation: "convert", input: "in", output_format: "png" },
    });
    expect(job.status, JSON.stringify(task("png"))).toBe("finished");
    const [w, h, mean] = sh("convert", [
      files.png[0]!.path,
      "-background",
      "white",
      "-flatten",
      "-colorspace",
      "gray",
      "-format",
      "%w %h %[fx:mean]",
      "info:",
    ])
      .trim()
      .split(" ")
      .map(Number);
    expect(Math.min(w!, h!)).toBeGreaterThan(100);
    expect(mean).toBeLessThan(0.995); // not all white: lines were drawn
  });

  it('video_codec "x264" with profile "baseline" on a 4:2:0 full-range MJPEG → an H.264 Constrained Baseline mp4', async () => {
    const rel = "video/filetype-fixture-mjpeg.mov";
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      mp4: { operation: "convert", input: "in", output_format: "mp4", video_codec: "x264", profile: "baseline" },
    });
    expect(job.status, JSON.stringify(task("mp4"))).toBe("finished");
    const [codec, profile, pix] = sh("ffprobe", [
      "-v",
      "error",
      "-select_streams",
      "v:0",
      "-show_entries",
      "stream=codec_name,profile,pix_fmt",
      "-of",
      "csv=p=0",
      files.mp4[0]!.path,
    ])
      .trim()
      .split(",");
    expect([codec, pix]).toEqual(["h264", "yuv420p"]);
    expect(profile).toMatch(/Baseline/);
  });
  it("Inkscape's i18n sample → png (resvg and the fonts Worker): each of its nine script lines has ink, Bengali, Gujarati, Kannada and Thai included", async () => {
    const rel = "vector/inkscape-i18n.svg";
    const svg = readFileSync(corpusPath(rel), "utf8");
    const labels = [
      ...svg.matchAll(/y="([\d.]+)"[^>]*>(Arabic|Bengali|Gujarati|Hebrew|Hindi|Japanese|Kannada|Russian|Thai)</g),
    ];
    expect(labels).toHaveLength(9);
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      png: { operation: "convert", input: "in", output_format: "png" },
    });
    expect(job.status, JSON.stringify(task("png"))).toBe("finished");
    expect(task("png").engine).toBe("resvg");
    for (const [, y, script] of labels) {
      // the line's band, 44 px to 14 px above its red label; ink = the red channel's darkness (the labels are red)
      const crop = `1000x30+0+${Math.round(Number(y) - 44)}`;
      const mean = Number(
        sh("convert", [
          files.png[0]!.path,
          "-background",
          "white",
          "-flatten",
          "-crop",
          crop,
          "+repage",
          "-channel",
          "R",
          "-separate",
          "-format",
          "%[fx:mean]",
          "info:",
        ]),
      );
      expect(1 - mean, `${script}: ink in its band`).toBeGreaterThan(0.01);
    }
  });

  it("a .tif and a .jpeg (CloudConvert's own names of TIFF and JPEG) → png and jpg, by extension and by input_format; listed under those names", async () => {
    const dims = (path: string) => sh("identify", ["-format", "%w×%h;", path]).split(";")[0];
    const dir = mkdtempSync(join(tmpdir(), "sdk-real-files-alias-"));
    try {
      const jpeg = join(dir, "landscape.jpeg");
      copyFileSync(corpusPath("images/exif-orientation-Landscape_1.jpg"), jpeg);
      for (const path of [corpusPath("images/pillow-hopper.tif"), jpeg]) {
        const { job, files } = await runFileJob(server.base, path, {
          png: { operation: "convert", input: "in", output_format: "png" },
          jpg: { operation: "convert", input: "in", output_format: "jpg" },
          named: {
            operation: "convert",
            input: "in",
            input_format: path.endsWith(".tif") ? "tif" : "jpeg",
            output_format: "webp",
          },
        });
        expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
        for (const name of ["png", "jpg", "named"]) expect(dims(files[name]![0]!.path), name).toBe(dims(path));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    for (const input of ["tif", "jpeg", "jfif"]) {
      const listed = (await (
        await fetch(`${server.base}/v2/operations?filter[operation]=convert&filter[input_format]=${input}`)
      ).json()) as { data: { output_format: string }[] };
      expect(
        listed.data.map((r) => r.output_format),
        input,
      ).toEqual(expect.arrayContaining(["png", "jpg", "webp"]));
    }
  });
});
