/**
 * Issue 34 end to end through the official SDK under `npm start` (wrangler dev, the 7-Zip and ffmpeg
 * engine Workers, the native engine as a local process): corpus files written by others, one per new
 * family — a camera raw demosaiced by LibRaw, a Debian package and an RPM unpacked by 7-Zip, an EPS
 * rendered by Ghostscript, video/audio to the new wmv/wma outputs, an Apple icon to png and odd, an ISO to
 * tar.lzo and an ALZip archive (patool's test file) unpacked natively. Oracles: identify and LibRaw's
 * own dcraw_emu output, bsdtar, 7z, lzop, unalz, LibRaw, LibreOffice with pdfinfo, facts.json, ffprobe.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { nativeExtract } from "../support/archive-oracle";
import { corpusPath, fact } from "../support/corpus";
import { runCorpusJob, runFileJob } from "../support/jobs";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

const TMP = mkdtempSync(join(tmpdir(), "sdk-formats34-"));
const states = (job: { tasks: { name?: string; status?: string; message?: string | null }[] }) =>
  JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]));
const identify = (path: string) => {
  const [w, h, sd] = execFileSync("identify", ["-format", "%w %h %[fx:standard_deviation]", `${path}[0]`], {
    encoding: "utf8",
  }).split(" ");
  return { width: Number(w), height: Number(h), stddev: Number(sd) };
};
const ffprobe = (path: string) =>
  JSON.parse(
    execFileSync("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path], {
      encoding: "utf8",
    }),
  ) as { format: { format_name: string; duration: string }; streams: { codec_name: string }[] };

describe("issue 34 through the SDK", () => {
  it("a Nikon NEF → jpg: LibRaw's demosaiced sensor image (3039×2014 per facts.json), close to dcraw_emu's own", async () => {
    const rel = "raw/exiftool-Nikon.nef";
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      jpg: { operation: "convert", input: "in", output_format: "jpg", quality: 95 },
    });
    expect(job.status, states(job)).toBe("finished");
    expect(task("jpg")).toMatchObject({ engine: "libraw" });
    const out = files.jpg![0]!;
    expect(out.filename).toBe("exiftool-Nikon.jpg");
    const [w, h] = fact(rel).dcraw_decoded_wh as [number, number];
    const id = identify(out.path);
    expect(id).toMatchObject({ width: w, height: h });
    expect(id.stddev).toBeGreaterThan(0.004); // not a flat grey frame
    const src = join(TMP, "nikon.nef");
    copyFileSync(corpusPath(rel), src);
    execFileSync("dcraw_emu", ["-w", "-o", "1", "-q", "3", "-T", "-Z", `${src}.tiff`, src]);
    const cmp = execFileSync("sh", ["-c", `compare -metric RMSE "${out.path}" "${src}.tiff" null: 2>&1 || true`], {
      encoding: "utf8",
    });
    expect(Number(/\(([\d.e-]+)\)/.exec(cmp)?.[1])).toBeLessThan(0.02);
  });

  it("a Debian package → files: every ar member as bsdtar extracts it, debian-binary included (issue 44)", async () => {
    const rel = "archives/debian-fonts-inconsolata_001.010-6_all.deb";
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      x: { operation: "convert", input: "in", output_format: "files" },
    });
    expect(job.status, states(job)).toBe("finished");
    expect(task("x")).toMatchObject({ engine: "7z" });
    const native = nativeExtract(corpusPath(rel), "bsdtar");
    expect(native.has("debian-binary")).toBe(true);
    const ours = files.x!;
    expect(ours.map((f) => f.filename).sort()).toEqual([...native.keys()].sort());
    for (const f of ours) expect(readFileSync(f.path).equals(native.get(f.filename)!), f.filename).toBe(true);
  });

  it("an RPM → zip: the files of its cpio payload, byte for byte as bsdtar extracts them from the RPM", async () => {
    const rel = "archives/libarchive-test_read_format_cpio_svr4_gzip_rpm.rpm";
    const { job, files } = await runCorpusJob(server.base, rel, {
      zip: { operation: "convert", input: "in", output_format: "zip" },
    });
    expect(job.status, states(job)).toBe("finished");
    const fromZip = nativeExtract(files.zip![0]!.path, "bsdtar");
    const fromRpm = nativeExtract(corpusPath(rel), "bsdtar");
    expect([...fromZip.keys()].sort()).toEqual([...fromRpm.keys()].sort());
    for (const [k, v] of fromRpm) expect(fromZip.get(k)!.equals(v), k).toBe(true);
  });

  it("an EPS → png at 72 ppi: Ghostscript's rendering size (facts.json)", async () => {
    const rel = "vector/ghostscript-golfer.eps";
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      png: { operation: "convert", input: "in", input_format: "eps", output_format: "png", pixel_density: 72 },
    });
    expect(job.status, states(job)).toBe("finished");
    expect(task("png").engine).toBeTruthy();
    const [w, h] = fact(rel).gs_png16m_r72_EPSCrop_wh as [number, number];
    expect(identify(files.png![0]!.path)).toMatchObject({ width: w, height: h });
  });

  it("a video → wmv and its audio → wma: wmv2 + wmav2 in ASF, the source's duration (ffprobe)", async () => {
    const rel = "video/tika-en-US_Hi.mp4";
    const { job, files } = await runCorpusJob(server.base, rel, {
      wmv: { operation: "convert", input: "in", output_format: "wmv" },
      wma: { operation: "convert", input: "in", output_format: "wma" },
    });
    expect(job.status, states(job)).toBe("finished");
    const d = Number(ffprobe(corpusPath(rel)).format.duration);
    const wmv = ffprobe(files.wmv![0]!.path);
    expect(wmv.format.format_name).toBe("asf");
    expect(wmv.streams.map((s) => s.codec_name)).toEqual(["wmv2", "wmav2"]);
    expect(Math.abs(Number(wmv.format.duration) - d)).toBeLessThan(0.2);
    const wma = ffprobe(files.wma![0]!.path);
    expect(wma.streams.map((s) => s.codec_name)).toEqual(["wmav2"]);
    expect(Math.abs(Number(wma.format.duration) - d)).toBeLessThan(0.2);
  });
  it("an Apple icon (Tika's ICNS, one 512×512 ic09) → png and odd: the icon, and a drawing LibreOffice reads at its size", async () => {
    const rel = "images/tika-testICNS_basic.icns";
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      png: { operation: "convert", input: "in", output_format: "png" },
      odd: { operation: "convert", input: "in", output_format: "odd" },
    });
    expect(job.status, states(job)).toBe("finished");
    expect(task("png")).toMatchObject({ engine: "imagemagick-native" });
    expect(String(fact(rel).icns2png_elements)).toContain("512x512");
    expect(identify(files.png![0]!.path)).toMatchObject({ width: 512, height: 512 });
    const odd = join(TMP, "icon.odd");
    copyFileSync(files.odd![0]!.path, odd);
    execFileSync(
      "soffice",
      [`-env:UserInstallation=file://${join(TMP, "lo")}`, "--headless", "--convert-to", "pdf", "--outdir", TMP, odd],
      {
        stdio: "ignore",
        timeout: 180_000,
      },
    );
    // 512 px at 96 px/in = 384 pt (LibreOffice rounds the page to its 1/100 mm: 384.009)
    const size = /Page size:\s+([\d.]+) x ([\d.]+)/.exec(
      execFileSync("pdfinfo", [join(TMP, "icon.pdf")], { encoding: "utf8" }),
    )!;
    expect(Math.abs(Number(size[1]) - 384)).toBeLessThan(0.5);
    expect(Math.abs(Number(size[2]) - 384)).toBeLessThan(0.5);
  });

  it("an ISO → tar.lzo (the catalogue's disk-image pair): lzop's tar holds what 7z extracts from the ISO", async () => {
    const rel = "archives/libarchive-test_read_format_iso_joliet_rockridge.iso";
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      t: { operation: "convert", input: "in", output_format: "tar.lzo" },
    });
    expect(job.status, states(job)).toBe("finished");
    expect(task("t")).toMatchObject({ engine: "archive-native" });
    const tar = join(TMP, "iso.tar");
    writeFileSync(tar, execFileSync("lzop", ["-dc", files.t![0]!.path]));
    const ours = nativeExtract(tar, "bsdtar");
    const theirs = nativeExtract(corpusPath(rel), "7z");
    expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
    for (const [k, v] of theirs) expect(ours.get(k)!.equals(v), k).toBe(true);
  });

  it("an ALZip archive (patool's t.alz) → files: the member unalz extracts, path kept", async () => {
    const alz = join(import.meta.dirname, "../fixtures/archives/patool-t.alz");
    const { job, files, task } = await runFileJob(server.base, alz, {
      x: { operation: "convert", input: "in", output_format: "files" },
    });
    expect(job.status, states(job)).toBe("finished");
    expect(task("x")).toMatchObject({ engine: "archive-native" });
    const dir = mkdtempSync(join(TMP, "unalz-"));
    execFileSync("unalz", ["-d", dir, alz]);
    expect(files.x!.map((f) => f.filename)).toEqual(["t.txt"]);
    expect(readFileSync(files.x![0]!.path).equals(readFileSync(join(dir, "t", "t.txt")))).toBe(true);
  });
});
