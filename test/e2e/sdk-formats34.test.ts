/**
 * Issue 34 end to end through the official SDK under `npm start` (wrangler dev, the 7-Zip and ffmpeg
 * engine Workers, the native engine as a local process): corpus files written by others, one per new
 * family — a camera raw demosaiced by LibRaw, a Debian package and an RPM unpacked by 7-Zip, an EPS
 * rendered by Ghostscript, and video/audio to the new wmv/wma outputs. Oracles: identify and LibRaw's
 * own dcraw_emu output, bsdtar, facts.json, ffprobe.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { nativeExtract } from "../support/archive-oracle";
import { corpusPath, fact } from "../support/corpus";
import { runCorpusJob } from "../support/jobs";
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

  it("a Debian package → files: its ar members as bsdtar extracts them (7-Zip leaves out debian-binary)", async () => {
    const rel = "archives/debian-fonts-inconsolata_001.010-6_all.deb";
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      x: { operation: "convert", input: "in", output_format: "files" },
    });
    expect(job.status, states(job)).toBe("finished");
    expect(task("x")).toMatchObject({ engine: "7z" });
    const native = nativeExtract(corpusPath(rel), "bsdtar");
    native.delete("debian-binary");
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
});
