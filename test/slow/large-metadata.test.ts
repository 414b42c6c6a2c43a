/**
 * Issue 49's large `metadata` (the `slow` project, `npm run test:slow`; never in `npm test`): a QuickTime movie of about
 * LARGE_METADATA_BYTES (default 1 GB = 10^9 bytes), made in a second by looping a corpus clip (`ffmpeg -stream_loop N
 * -c copy`: 640×480 Motion JPEG and 8 kHz PCM, its media data first and the movie atom at the end, as a camera writes
 * it) served from loopback goes import/url → metadata through the running Worker, by the official node SDK. The
 * WebAssembly ExifTool reads the stored file by R2 range reads (src/engines/exiftool/ranged.ts: ExifTool's reads
 * become 256 KiB block reads called back over the engine Worker's RPC, at most its 12 MiB budget of them), so it
 * seeks past the 1 GB of media data to the movie atom and never holds the file: the task must finish on `exiftool`,
 * not be handed to the native row.
 *
 * Oracles: Debian's `exiftool -json` (12.57, a separate implementation run on the file on disk) and ffprobe (duration,
 * frame size and rate of the same file) against the task's result.metadata; the resident memory (VmRSS from /proc,
 * every 250 ms) of the service's workerd from before the job until it ended, over the job and over the metadata
 * task's own span.
 */
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { sdk } from "../support/sdk";
import { growthDuring, growthLine, mb, runJob, runSlowJob, secs, slowRig } from "../support/slow-job";

const TARGET = Number(process.env.LARGE_METADATA_BYTES ?? 1e9);
/** The looped clip: 1.5 s of 640×480 Motion JPEG at 10 frame/s and 8 kHz 8-bit PCM, 733 KB (filetype's fixture). */
const CLIP = corpusPath("video/filetype-fixture-mjpeg.mov");
/**
 * Most workerd may grow over its idle size over the job: 40% of the file, the slow project's bound (large-transfer:
 * the import's put passes every chunk through miniflare's R2 simulator's JavaScript digest, +214 MB at 1 GB).
 */
const JOB_GROWTH = 0.4;
/**
 * Most workerd may grow during the metadata task itself, over its size as the task started: 100 MB, what one engine
 * call may hold in an isolate (README "Budgets that hold in a 128 MB isolate"). The ExifTool engine Worker's interpreter
 * is loaded by a warm-up job first; a run then makes its interpreter's memory afresh (39–51 MB, dropped at its end) and
 * holds at most 8 cached blocks of 256 KiB (+45–52 MB measured). A whole-file read shows as +1 GB.
 */
const METADATA_GROWTH = 100e6;
/**
 * The keys compared with Debian's `exiftool -json`: what the file is, its movie and track headers' times, the frame
 * and sound formats, and where the media data lies (read from the atom headers the ranged reads reached).
 */
const KEYS = [
  "FileType",
  "FileTypeExtension",
  "MIMEType",
  "FileSize",
  "MajorBrand",
  "MediaDataSize",
  "MediaDataOffset",
  "TimeScale",
  "Duration",
  "TrackDuration",
  "MediaDuration",
  "ImageWidth",
  "ImageHeight",
  "ImageSize",
  "CompressorID",
  "CompressorName",
  "VideoFrameRate",
  "AudioFormat",
  "AudioSampleRate",
  "AudioChannels",
  "AvgBitrate",
] as const;
const KEY = "key-metadata";
const MB = 1e6;

let source: string;

const rig = slowRig({
  name: "metadata",
  key: KEY,
  user: "metadata",
  generate(dir) {
    source = join(dir, "loop.mov");
    const loops = Math.ceil(TARGET / statSync(CLIP).size) - 1;
    execFileSync("ffmpeg", ["-v", "error", "-stream_loop", String(loops), "-i", CLIP, "-c", "copy", source]);
    const type = "video/quicktime";
    return { "/loop.mov": { path: source, type }, "/clip.mov": { path: CLIP, type } };
  },
});

/** ExifTool's "H:MM:SS" (or "S.SS s") duration in seconds. */
const seconds = (d: unknown): number => {
  const hms = /^(\d+):(\d\d):(\d\d)$/.exec(String(d));
  return hms ? Number(hms[1]) * 3600 + Number(hms[2]) * 60 + Number(hms[3]) : parseFloat(String(d));
};

describe(`metadata of a ${(TARGET / MB).toFixed(0)} MB QuickTime movie by range reads`, () => {
  it("import/url → metadata: the WebAssembly ExifTool answers what Debian's exiftool and ffprobe say of the file; workerd does not grow by the file", async () => {
    const size = statSync(source).size;
    // the engine Worker's interpreter loaded first (a job on the clip itself), so the measured job shows the read
    const warm = await runJob(sdk(KEY, rig.server.base), {
      in: { operation: "import/url", url: `${rig.base}/clip.mov` },
      meta: { operation: "metadata", input: "in" },
    });
    expect(warm.task("meta").engine).toBe("exiftool");
    const run = await runSlowJob(
      rig,
      {
        in: { operation: "import/url", url: `${rig.base}/loop.mov` },
        meta: { operation: "metadata", input: "in" },
      },
      { download: false },
    );
    const meta = run.task("meta");
    const imported = run.task("in");
    // the WebAssembly ExifTool by ranges, not the native row (which would take the file whole, streamed)
    expect(meta.engine).toBe("exiftool");
    const got = (meta.result as unknown as { metadata: Record<string, unknown> }).metadata;
    const { workerd } = run.memory;
    const at = (iso?: string | null) => (iso ? Date.parse(iso) : NaN);
    // the metadata task's own span, over workerd's size as it started (after the import's put)
    const during = growthDuring(workerd, meta);
    const metaW = during.peak - during.before;
    console.log(
      `large-metadata: ${mb(size)} MB QuickTime (${CLIP.split("/").pop()} looped; generated in ` +
        `${secs(rig.generateMs)} s); job ${secs(run.jobMs)} s (import ` +
        `${((at(imported.ended_at) - at(imported.created_at)) / 1000).toFixed(0)} s, metadata ` +
        `${((at(meta.ended_at) - at(meta.started_at ?? meta.created_at)) / 1000).toFixed(0)} s); ${growthLine(run.memory)}; workerd during the ` +
        `metadata task +${mb(metaW)} MB over ${mb(during.before)} MB`,
    );
    // Debian's exiftool on the same file: every compared key present and equal
    const [cli] = JSON.parse(execFileSync("exiftool", ["-json", source], { encoding: "utf8" })) as Record<
      string,
      unknown
    >[];
    const pick = (m: Record<string, unknown>) => Object.fromEntries(KEYS.map((k) => [k, m[k]]));
    expect(KEYS.every((k) => cli![k] !== undefined)).toBe(true);
    expect(pick(got)).toEqual(pick(cli!));
    expect(got.FileName).toBe("loop.mov");
    // ffprobe: the duration (whole seconds, as ExifTool prints it), the frame size and rate
    const probe = JSON.parse(
      execFileSync("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", source], {
        encoding: "utf8",
      }),
    ) as {
      format: { duration: string };
      streams: { codec_type: string; width?: number; height?: number; r_frame_rate: string }[];
    };
    const video = probe.streams.find((s) => s.codec_type === "video")!;
    expect(Math.abs(seconds(got.Duration) - Number(probe.format.duration))).toBeLessThan(1);
    expect([got.ImageWidth, got.ImageHeight]).toEqual([video.width, video.height]);
    const [num, den] = video.r_frame_rate.split("/").map(Number);
    expect(Number(got.VideoFrameRate)).toBeCloseTo(num! / den!, 2);
    expect(workerd.peak - workerd.idle).toBeLessThan(JOB_GROWTH * size);
    expect(metaW).toBeLessThan(METADATA_GROWTH);
  });
});
