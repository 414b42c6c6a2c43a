/**
 * Creation-time validation of the audio/video operations (issue 13): every option a CloudConvert
 * user passes is checked with a clear 422 message naming it — a codec the output container cannot
 * hold, values out of range, option combinations that contradict — and the command policy refuses
 * lines reaching outside /input and /output. Also: the catalogue's options per output format come
 * from the same schemas, and `command` without `engine` stays ImageMagick's.
 */
import { describe, expect, it } from "vitest";
import { parseJobTasks } from "../../src/graph/parse";
import { handlersOf, route } from "../../src/operations/registry";
import { TASK_CATALOG } from "../../src/operations/validate";
import { z } from "zod";

const job = (task: Record<string, unknown>, url = "https://example.com/clip.mp4") =>
  parseJobTasks({ imp: { operation: "import/url", url }, t: { input: "imp", ...task } }, TASK_CATALOG);
const errorsOf = (task: Record<string, unknown>, url?: string): string[] => {
  const r = job(task, url);
  return "errors" in r ? (r.errors["tasks.t"] ?? []) : [];
};
const paramsOf = (task: Record<string, unknown>, url?: string): Record<string, unknown> => {
  const r = job(task, url);
  if ("errors" in r) throw new Error(JSON.stringify(r.errors));
  return r.specs.find((s: { name: string }) => s.name === "t")!.params;
};

describe("convert options", () => {
  it("accepts CloudConvert's video options and turns times into seconds", () => {
    const p = paramsOf({
      operation: "convert",
      output_format: "mp4",
      video_codec: "x264",
      crf: 20,
      preset: "fast",
      profile: "high",
      width: 640,
      height: 360,
      fit: "pad",
      fps: 24,
      audio_codec: "aac",
      audio_bitrate: 128,
      audio_frequency: 44100,
      audio_channels: 2,
      trim_start: "00:00:01.5",
      trim_end: "1:02",
    });
    expect(p).toMatchObject({ crf: 20, trim_start: 1.5, trim_end: 62, fit: "pad" });
  });

  it("refuses a codec the container cannot hold, naming the ones it takes", () => {
    expect(errorsOf({ operation: "convert", output_format: "webm", video_codec: "x264" })[0]).toMatch(
      /^Task t: video_codec: .*"vp8"\|"vp9"\|"copy"/,
    );
    expect(errorsOf({ operation: "convert", output_format: "webm", audio_codec: "aac" })[0]).toMatch(
      /^Task t: audio_codec: .*"opus"\|"vorbis"/,
    );
    expect(errorsOf({ operation: "convert", output_format: "wav", audio_codec: "mp3" })[0]).toMatch(/audio_codec/);
  });

  it("refuses out-of-range values and contradictions with the option's name", () => {
    expect(errorsOf({ operation: "convert", output_format: "mp4", crf: 70 })[0]).toMatch(/^Task t: crf: /);
    expect(errorsOf({ operation: "convert", output_format: "mp4", video_codec: "x264", crf: 60 })).toEqual([
      "Task t: crf: x264 takes 0–51.",
    ]);
    expect(errorsOf({ operation: "convert", output_format: "mp4", preset: "ludicrous" })[0]).toMatch(
      /^Task t: preset: /,
    );
    // issue 31: encoder options beside copy are accepted and ignored (result.warnings), not refused
    expect(paramsOf({ operation: "convert", output_format: "mp4", video_codec: "copy", width: 320 })).toMatchObject({
      video_codec: "copy",
      $ignored: [{ key: "width", why: expect.stringMatching(/video_codec copy/) }],
    });
    // issue 44: fit with one side keeps the aspect ratio, as CloudConvert does; crop (no box to fill) is warned
    expect(errorsOf({ operation: "convert", output_format: "mp4", fit: "scale", width: 320 })).toEqual([]);
    expect(paramsOf({ operation: "convert", output_format: "mp4", fit: "scale", width: 320 })).not.toHaveProperty(
      "$ignored",
    );
    expect(paramsOf({ operation: "convert", output_format: "mp4", fit: "crop", width: 320 })).toMatchObject({
      $ignored: [{ key: "fit", why: expect.stringMatching(/needs both width and height.*aspect ratio/) }],
    });
    expect(errorsOf({ operation: "convert", output_format: "mp3", audio_channels: 6 })[0]).toMatch(
      /^Task t: audio_channels: /,
    );
    expect(errorsOf({ operation: "convert", output_format: "opus", audio_frequency: 44100 })).toEqual([
      "Task t: audio_frequency: opus takes 8000, 12000, 16000, 24000 or 48000.",
    ]);
    expect(errorsOf({ operation: "convert", output_format: "mp3", audio_frequency: 12345 })[0]).toMatch(
      /audio_frequency: must be one of/,
    );
    expect(errorsOf({ operation: "convert", output_format: "mp4", trim_start: 5, trim_end: 2 })).toEqual([
      "Task t: trim_end must be after trim_start.",
    ]);
    expect(errorsOf({ operation: "convert", output_format: "mp4", trim_start: "1:2:3:4" })[0]).toMatch(
      /trim_start: must be seconds or HH:MM:SS/,
    );
    // issue 31: wav has no bitrate option; CloudConvert accepts it, so it is ignored with a warning
    expect(paramsOf({ operation: "convert", output_format: "wav", audio_bitrate: 128 })).toMatchObject({
      $ignored: [{ key: "audio_bitrate" }],
    });
  });

  it("routes audio and video to the media engines, WebAssembly first", () => {
    expect(route("convert", { output_format: "mp3" }, "song.wav").map((c) => c.engine.name)).toEqual([
      "ffmpeg",
      "ffmpeg-native",
    ]);
    expect(route("convert", { output_format: "mp4" }, "anim.gif").map((c) => c.engine.name)).toEqual([
      "ffmpeg",
      "ffmpeg-native",
    ]);
    // a GIF to GIF or PNG stays an image conversion
    expect(route("convert", { output_format: "png" }, "anim.gif").map((c) => c.engine.name)).not.toContain("ffmpeg");
    expect(() => route("convert", { output_format: "mp4" }, "song.mp3")).toThrow(
      expect.objectContaining({ code: "INVALID_CONVERSION_TYPE" }),
    );
  });
});

describe("thumbnail and watermark options", () => {
  it("thumbnail takes a timestamp, refuses a video's `count`", () => {
    expect(paramsOf({ operation: "thumbnail", output_format: "jpg", timestamp: "0:03", width: 200 })).toMatchObject({
      timestamp: 3,
      width: 200,
    });
    expect(errorsOf({ operation: "thumbnail", output_format: "gif" })[0]).toMatch(/thumbnail.*to gif is not supported/);
  });

  it("watermark needs text or image, and takes rotation on video (not applied: a warning at run time)", () => {
    expect(errorsOf({ operation: "watermark" })).toEqual([
      "Task t: text or image is required: the watermark text, or the name of the task holding the watermark image.",
    ]);
    expect(paramsOf({ operation: "watermark", text: "x", rotation: 45 })).toMatchObject({ rotation: 45 });
    expect(
      paramsOf({
        operation: "watermark",
        text: "© 2026",
        font_name: "Arial",
        position_vertical: "bottom",
        opacity: 50,
      }),
    ).toMatchObject({ text: "© 2026", opacity: 50 });
  });
});

describe("command with engine ffmpeg", () => {
  it("accepts ffmpeg and ffprobe lines and keeps ImageMagick the default engine", () => {
    expect(
      paramsOf({
        operation: "command",
        engine: "ffmpeg",
        command: "ffprobe",
        arguments: "-hide_banner /input/imp/clip.mp4",
        capture_output: true,
      }),
    ).toMatchObject({ engine: "ffmpeg", command: "ffprobe" });
    expect(paramsOf({ operation: "command", arguments: "/input/imp/a.png /output/b.jpg" })).toMatchObject({
      engine: "imagemagick",
      command: "convert",
    });
    expect(route("command", { engine: "ffmpeg" }).map((c) => c.engine.name)).toEqual(["ffmpeg", "ffmpeg-native"]);
    expect(route("command", { engine: "imagemagick" }).map((c) => c.engine.name)).toEqual(["native-command"]);
  });

  it("refuses paths outside /input and /output, protocols, devices and script options at creation", () => {
    const bad = {
      "-i /etc/passwd /output/x.mp4": /only files under \/input\/ and \/output\//,
      "-i /input/imp/clip.mp4 -vf movie=/etc/shadow /output/x.mp4": /only files under/,
      "-i https://example.com/x.mp4 /output/x.mp4": /the https: protocol is not allowed/,
      "-f lavfi -i testsrc /output/x.mp4": /devices and lavfi sources are not allowed/,
      "-f concat -safe 0 -i /input/imp/list.txt /output/x.mp4": /"-safe": this option is not allowed/,
      "-i /input/imp/clip.mp4 -filter_complex_script /input/imp/f.txt /output/x.mp4": /this option is not allowed/,
      "-i '/input/imp/clip.mp4 /output/x.mp4": /a single quote is not closed/,
    };
    for (const [args, message] of Object.entries(bad)) {
      expect(errorsOf({ operation: "command", engine: "ffmpeg", command: "ffmpeg", arguments: args })[0], args).toMatch(
        message,
      );
    }
    expect(errorsOf({ operation: "command", engine: "ffmpeg", command: "convert", arguments: "x" })[0]).toMatch(
      /^Task t: command: /,
    );
  });
});

describe("the catalogue lists per output format exactly what its schema takes", () => {
  it("webm offers vp8/vp9/copy and opus/vorbis; mp4 offers x264 and the trim times", () => {
    const [webm] = handlersOf("convert")!.filter(
      (h) => h.kind === "media" && h.formats.some((f) => f.output === "webm"),
    );
    // what GET /v2/operations?include=options prints (src/api/options.ts optionsOf reads the same JSON schema)
    const opts = (
      z.toJSONSchema(webm!.params, { io: "input", unrepresentable: "any" }) as {
        properties: Record<string, { enum?: string[] }>;
      }
    ).properties;
    expect(opts.video_codec!.enum).toEqual(["vp8", "vp9", "copy"]);
    expect(opts.audio_codec!.enum).toEqual(["opus", "vorbis", "copy", "none"]);
    expect(Object.keys(opts)).toEqual(
      expect.arrayContaining([
        "crf",
        "preset",
        "width",
        "height",
        "fit",
        "fps",
        "audio_bitrate",
        "audio_frequency",
        "audio_channels",
        "trim_start",
        "trim_end",
      ]),
    );
  });
});
