/**
 * Issue 13, end to end through the official SDK under `npm start` (wrangler dev with the ffmpeg
 * engine Worker, and the native engine as a local process): an uploaded video converted to WebM and
 * thumbnailed in WebAssembly; an ffmpeg `command` with captured output; a 1080p clip over the
 * WebAssembly budget handed to native ffmpeg; the metadata of a video from ExifTool. Oracles:
 * Debian's ffprobe and ImageMagick's identify, and the corpus facts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { identify, run, tempFile } from "../support/native";
import { runCorpusJob } from "../support/jobs";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

/** ffprobe's format and streams of a file. */
function probe(path: string): {
  duration: number;
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
} {
  const j = JSON.parse(
    run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path]).out,
  );
  return { duration: Number(j.format.duration), streams: j.streams };
}

describe("audio and video through the SDK", () => {
  it("uploads a video, converts it to WebM and takes a thumbnail, in the ffmpeg engine Worker", async () => {
    const { job, files, task } = await runCorpusJob(server.base, "video/tika-testVideoMp4.mp4", {
      webm: { operation: "convert", input: "in", output_format: "webm" },
      thumb: { operation: "thumbnail", input: "in", output_format: "png", width: 160 },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
    expect(task("webm")).toMatchObject({ engine: "ffmpeg", engine_version: "5.1.4" });
    const webm = probe(files.webm[0].path);
    expect(files.webm[0].filename).toBe("tika-testVideoMp4.webm");
    expect(webm.streams.map((s) => s.codec_name)).toEqual(["vp9", "opus"]);
    expect(webm.streams[0]).toMatchObject({ width: 320, height: 240 });
    expect(Math.abs(webm.duration - 13.696)).toBeLessThan(0.1);
    const thumb = identify(files.thumb[0].path);
    expect(thumb).toMatchObject({ format: "PNG", width: 160, height: 120 });
    const spread = Number(run("identify", ["-format", "%[fx:standard_deviation]", files.thumb[0].path]).out);
    expect(spread).toBeGreaterThan(0.05); // a picture, not a blank frame
  });

  it("runs an ffmpeg command with captured output and returns the file it wrote", async () => {
    const { job, files, task } = await runCorpusJob(server.base, "video/tika-testVideoMp4.mp4", {
      cmd: {
        operation: "command",
        input: "in",
        engine: "ffmpeg",
        command: "ffmpeg",
        arguments: "-i /input/in/tika-testVideoMp4.mp4 -vn -ac 2 -b:a 96k /output/sound.mp3",
        capture_output: true,
      },
    });
    expect(job.status, JSON.stringify(task("cmd"))).toBe("finished");
    const cmd = task("cmd");
    expect(cmd.engine).toBe("ffmpeg");
    expect(cmd.result).toMatchObject({
      command: "ffmpeg -i /input/in/tika-testVideoMp4.mp4 -vn -ac 2 -b:a 96k /output/sound.mp3",
    });
    const output = (cmd.result as { output: string }).output;
    expect(output).toContain("Stream #0:1 -> #0:0 (aac (native) -> mp3 (libmp3lame))");
    expect(files.cmd[0].filename).toBe("sound.mp3");
    const mp3 = probe(files.cmd[0].path);
    expect(mp3.streams.map((s) => s.codec_name)).toEqual(["mp3"]);
    expect(Math.abs(mp3.duration - 13.696)).toBeLessThan(0.1);
  });

  it("hands a 1080p clip over the WebAssembly budget to native ffmpeg", async () => {
    const { job, files, task } = await runCorpusJob(server.base, "video/filetype-fixture-null.webm", {
      mp4: { operation: "convert", input: "in", output_format: "mp4", crf: 30 },
    });
    expect(job.status, JSON.stringify(task("mp4"))).toBe("finished");
    expect(task("mp4").engine).toBe("ffmpeg-native");
    expect(task("mp4").engine_version).toMatch(/^5\.1/);
    const mp4 = probe(files.mp4[0].path);
    expect(mp4.streams[0]).toMatchObject({ codec_name: "h264", width: 1920, height: 1080 });
    // the source holds 36 frames with gaps over 4.24 s; mp4 is constant-rate: the oracle is Debian's ffmpeg on the same file
    const ref = tempFile("ref.mp4", new Uint8Array());
    run("ffmpeg", [
      "-v",
      "error",
      "-y",
      "-i",
      corpusPath("video/filetype-fixture-null.webm"),
      "-c:v",
      "libx264",
      "-preset",
      "veryfast",
      ref,
    ]);
    expect(Math.abs(mp4.duration - probe(ref).duration)).toBeLessThan(0.1);
  });

  it("reads a video's duration, codec and size with the metadata operation (ExifTool)", async () => {
    const { job, task } = await runCorpusJob(server.base, "video/ffmpegwasm-Big_Buck_Bunny_180_10s.webm", {
      _meta: { operation: "metadata", input: "in" },
    });
    expect(job.status).toBe("finished");
    expect(task("meta").result!.metadata).toMatchObject({
      Duration: "00:00:10.000000000",
      ImageWidth: 320,
      ImageHeight: 180,
      CodecID: "V_VP9",
      VideoFrameRate: 30,
    });
  });

  it("lists the media rows with their options, and the whole catalogue in one answer unless paged", async () => {
    const get = async (q: string) =>
      (await (await fetch(`${server.base}/v2/operations${q}`)).json()) as {
        data: { operation: string; engine: string; options: { name: string; type: string }[] }[];
        links: { next: string | null };
      };
    const webm = await get(
      "?filter[operation]=convert&filter[input_format]=mp4&filter[output_format]=webm&include=options",
    );
    expect(webm.data.map((o) => o.engine)).toEqual(["ffmpeg", "ffmpeg-native"]);
    const opts = Object.fromEntries(webm.data[0]!.options.map((o) => [o.name, o]));
    expect(opts.video_codec).toMatchObject({ type: "enum", possible_values: ["vp8", "vp9", "copy"] });
    expect(opts.trim_start.type).toBe("float");
    const all = await get("");
    expect(all.data.length).toBeGreaterThan(1000); // audio/video × two ffmpegs made the catalogue longer than one page of 1000
    expect(all.links.next).toBeNull();
    expect(all.data.some((o) => o.operation === "pdf/a")).toBe(true);
    const paged = await get("?per_page=100");
    expect(paged.data).toHaveLength(100);
    expect(paged.links.next).toContain("page=2");
  });
});
