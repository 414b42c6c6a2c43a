/**
 * native-protocol/media/ (plan, probe, budget) and the ffmpeg word policy of
 * native-protocol/command-args.ts, pure (issue 13): parseProbe on what Debian's native ffprobe
 * prints for corpus files (facts.json as the oracle), overBudget's arithmetic and messages,
 * scaleFilter's strings (and what native ffmpeg makes of them), and checkFfmpegWords' refusals.
 * No WebAssembly here.
 */
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { checkFfmpegWords, splitArguments } from "../../native-protocol/command-args";
import { outputSize, overBudget, type MediaBudget } from "../../native-protocol/media/budget";
import type { MediaOptions } from "../../native-protocol/media/formats";
import { MediaPlanError, planRuns, scaleFilter } from "../../native-protocol/media/plan";
import { parseProbe, type MediaProbe } from "../../native-protocol/media/probe";
import { DEFAULT_MEDIA_BUDGET } from "../../src/engines/ffmpeg/budget";
import { corpusPath, fact } from "../support/corpus";
import { ffprobeJsonText, imageSize, tempDir } from "../support/media-helpers";

const tmp = tempDir("media-plan-");
afterAll(() => tmp.cleanup());

describe("parseProbe reads native ffprobe's JSON", () => {
  const probe = (rel: string) => parseProbe(ffprobeJsonText(corpusPath(rel)));

  it("an H.264 + AAC mp4 (tika-testVideoMp4.mp4)", () => {
    const rel = "video/tika-testVideoMp4.mp4";
    const f = fact(rel);
    expect(probe(rel)).toEqual({
      container: f.container,
      duration: f.duration_s,
      video: { codec: "h264", width: f.width, height: f.height, fps: 15, attachedPic: false },
      audio: { codec: "aac", sampleRate: 48000, channels: 6 },
    });
  });

  it("a VP9 webm without audio (Big Buck Bunny) and an MPEG-1 stream at 30000/1001 fps", () => {
    const bbb = probe("video/ffmpegwasm-Big_Buck_Bunny_180_10s.webm")!;
    expect(bbb).toMatchObject({
      container: "matroska,webm",
      duration: 10,
      video: { codec: "vp9", width: 320, height: 180, fps: 30, attachedPic: false },
      audio: null,
    });
    const mpg = probe("video/filetype-fixture2.mpg")!;
    expect(mpg.video).toMatchObject({ codec: "mpeg1video", width: 320, height: 240 });
    expect(mpg.video!.fps).toBeCloseTo(29.97, 2);
    expect(mpg.duration).toBeCloseTo(fact("video/filetype-fixture2.mpg").duration_s as number, 2);
  });

  it("the cover art of an mp3 (attached picture) is not the video", () => {
    const p = probe("audio/tika-testMP3_coverArt.mp3")!;
    expect(p.audio).toEqual({ codec: "mp3", sampleRate: 44100, channels: 1 });
    expect(p.duration).toBeCloseTo(2.4555, 4);
    // the picture is reported, marked as such; nothing treats it as a video
    expect(p.video === null || p.video.attachedPic).toBe(true);
    const paths = { input: "/in/a.mp3", output: "/out/o.mp4" };
    const input = { data: new Uint8Array(), filename: "a.mp3" };
    expect(() => planRuns({ op: "convert", input, outputFormat: "mp4", options: {} }, p, paths)).toThrow(
      /no video stream/,
    );
    expect(() => planRuns({ op: "thumbnail", input, outputFormat: "png", options: {} }, p, paths)).toThrow(
      /no video stream/,
    );
    expect(
      overBudget({ op: "convert", outputFormat: "mp4" }, p, 40_000, {
        ...DEFAULT_MEDIA_BUDGET,
        maxFramePixels: 0,
        maxPixelFrames: 0,
      }),
    ).toBeNull();
    // to an audio format it maps the audio only
    const [run] = planRuns({ op: "convert", input, outputFormat: "mp3", options: {} }, p, {
      input: "/in/a.mp3",
      output: "/out/o.mp3",
    });
    expect(run).toEqual(expect.arrayContaining(["-map", "0:a:0", "-vn"]));
  });

  it("and the same mp3 without cover art has no video at all", () => {
    expect(probe("audio/tika-testMP3id3v2.mp3")!.video).toBeNull();
  });

  it("answers null for what is not media", () => {
    expect(parseProbe("")).toBeNull();
    expect(parseProbe("not json")).toBeNull();
    expect(parseProbe("{}")).toBeNull();
    expect(
      parseProbe(
        JSON.stringify({ format: { format_name: "srt" }, streams: [{ codec_type: "subtitle", codec_name: "subrip" }] }),
      ),
    ).toBeNull();
    // a "video" stream without a size (what ffprobe prints for a broken image) is no video
    expect(
      parseProbe(
        JSON.stringify({
          format: { format_name: "png_pipe" },
          streams: [{ codec_type: "video", codec_name: "png", width: 0, height: 0 }],
        }),
      ),
    ).toBeNull();
  });
});

describe("overBudget", () => {
  // explicit numbers (today's DEFAULT_MEDIA_BUDGET), so these test the arithmetic, not the tuning
  const budget: MediaBudget = {
    ...DEFAULT_MEDIA_BUDGET,
    maxBytes: 16 * 1024 * 1024,
    maxPixelFrames: 150_000_000,
    maxFramePixels: 1920 * 1088,
    maxEncodePixels: 854 * 480,
    maxEncodePixelsHeavy: 640 * 360,
    maxSeconds: 30 * 60,
    maxOutputBytes: 48 * 1024 * 1024,
  };
  const video = (w: number, h: number, duration: number, fps = 30, audio = true): MediaProbe => ({
    container: "matroska,webm",
    duration,
    video: { codec: "vp8", width: w, height: h, fps, attachedPic: false },
    audio: audio ? { codec: "opus", sampleRate: 48000, channels: 2 } : null,
  });
  const audio = (duration: number, sampleRate = 48000, channels = 2): MediaProbe => ({
    container: "wav",
    duration,
    video: null,
    audio: { codec: "pcm_s16le", sampleRate, channels },
  });
  const convert = (outputFormat: string, options: MediaOptions = {}) => ({ op: "convert", outputFormat, options });

  it("video work is duration × fps × width × height, with the numbers in the message", () => {
    // video/filetype-fixture-null.webm: 4.243877 s of 1920×1080 at 30 fps
    const p = video(1920, 1080, 4.243877, 30, false);
    expect(overBudget(convert("mp4"), p, 343_148, budget)).toBe(
      "4.2 s of 1920×1080 at 30 fps is 264 M pixel-frames to decode and encode; ffmpeg in WebAssembly takes up to 150 M",
    );
    expect(overBudget({ op: "watermark", outputFormat: "webm" }, p, 343_148, budget)).toMatch(/264 M pixel-frames/);
    // 10 s of 320×180 at 30 fps is 17.3 M
    expect(overBudget(convert("mp4"), video(320, 180, 10), 225_951, budget)).toBeNull();
    // trimming counts: all 10 s of 1080p30 is 622 M, 2 of them 124 M (and then the frame size counts)
    expect(overBudget(convert("mp4"), video(1920, 1080, 10), 1e6, budget)).toMatch(
      /^10\.0 s of 1920×1080 at 30 fps is 622 M/,
    );
    expect(
      overBudget(convert("mp4", { trim_start: 3, trim_end: 5, width: 640 }), video(1920, 1080, 10), 1e6, budget),
    ).toBeNull();
  });

  it("the encoded frame counts, after width/height/fit, per encoder", () => {
    const p = video(640, 480, 1);
    const heavy =
      "encoding 640×480 frames with vp9 needs more memory than ffmpeg in WebAssembly has (up to 0.2 MP a frame for vp9; a smaller width/height fits)";
    expect(overBudget(convert("webm"), p, 1e6, budget)).toBe(heavy);
    expect(overBudget(convert("mkv", { video_codec: "vp8" }), p, 1e6, budget)).toMatch(
      /^encoding 640×480 frames with vp8/,
    );
    expect(overBudget(convert("mp4", { video_codec: "x265" }), p, 1e6, budget)).toMatch(
      /^encoding 640×480 frames with x265/,
    );
    expect(overBudget(convert("webm", { width: 320 }), p, 1e6, budget)).toBeNull();
    expect(overBudget(convert("mp4"), p, 1e6, budget)).toBeNull(); // x264 takes 854×480
    expect(overBudget(convert("mp4"), video(960, 540, 1), 1e6, budget)).toBe(
      "encoding 960×540 frames with x264 needs more memory than ffmpeg in WebAssembly has (up to 0.4 MP a frame; a smaller width/height fits)",
    );
    expect(overBudget(convert("mp4", { width: 854, height: 480 }), video(960, 540, 1), 1e6, budget)).toBeNull();
    expect(
      overBudget(convert("mp4", { width: 1280, height: 720, fit: "pad" }), video(320, 180, 1), 1e6, budget),
    ).toMatch(/^encoding 1280×720 frames with x264/);
    expect(overBudget(convert("gif"), video(1280, 720, 1), 1e6, budget)).toMatch(/^encoding 1280×720 frames with gif/);
    expect(overBudget(convert("mkv", { video_codec: "copy" }), video(1920, 1080, 1), 1e6, budget)).toBeNull();
    expect(overBudget({ op: "command", outputFormat: "mp4" }, video(1280, 720, 1), 0, budget)).toMatch(
      /^encoding 1280×720 frames with ffmpeg/,
    );
  });

  it("outputSize: the box and fit as scaleFilter sizes them", () => {
    expect(outputSize(1920, 1080, {})).toEqual([1920, 1080]);
    expect(outputSize(1920, 1080, { width: 640 })).toEqual([640, 360]);
    expect(outputSize(320, 180, { width: 640 })).toEqual([320, 180]); // max never enlarges
    expect(outputSize(320, 180, { width: 640, fit: "scale" })).toEqual([640, 360]);
    expect(outputSize(320, 180, { width: 640, height: 100 })).toEqual([178, 100]);
    expect(outputSize(320, 180, { width: 100, height: 100, fit: "crop" })).toEqual([100, 100]);
    expect(outputSize(320, 180, { width: 200, height: 200, fit: "pad" })).toEqual([200, 200]);
  });

  it("thumbnails ignore the duration; only the frame size counts", () => {
    expect(overBudget({ op: "thumbnail", outputFormat: "png" }, video(1920, 1080, 3600), 10e6, budget)).toBeNull();
    expect(overBudget({ op: "thumbnail", outputFormat: "png" }, video(4000, 3000, 1), 1e6, budget)).toBe(
      "its frames are 4000×3000 (12 MP); ffmpeg in WebAssembly takes frames up to 2.1 MP",
    );
  });

  it("audio outputs ignore the video work and the encoded frame", () => {
    const p = video(1920, 1080, 600, 60);
    expect(overBudget(convert("mp4"), p, 1e6, budget)).toMatch(
      /^600\.0 s of 1920×1080 at 60 fps is 74650 M pixel-frames/,
    );
    for (const out of ["mp3", "opus", "aac", "m4a", "ogg"])
      expect(overBudget(convert(out), p, 1e6, budget), out).toBeNull();
  });

  it("PCM outputs (wav, flac, pcm codecs) are estimated at duration × rate × channels × 3 bytes", () => {
    const twentyMinutes = audio(1200);
    const msg = "its uncompressed audio would be about 346 MB; ffmpeg in WebAssembly writes up to 50 MB";
    expect(overBudget(convert("wav"), twentyMinutes, 10e6, budget)).toBe(msg);
    expect(overBudget(convert("flac"), twentyMinutes, 10e6, budget)).toBe(msg);
    expect(
      overBudget(
        convert("mkv", { audio_codec: "pcm_s24le" }),
        { ...twentyMinutes, video: { codec: "h264", width: 16, height: 16, fps: 1, attachedPic: false } },
        10e6,
        budget,
      ),
    ).toBe(msg);
    expect(overBudget(convert("mp3"), twentyMinutes, 10e6, budget)).toBeNull();
    // the requested rate and channels count: 1200 × 8000 × 1 × 3 = 28.8 MB
    expect(
      overBudget(convert("wav", { audio_frequency: 8000, audio_channels: 1 }), twentyMinutes, 10e6, budget),
    ).toBeNull();
    // and the trim: 300 s × 48000 × 2 × 3 = 86 MB, 100 s = 28.8 MB
    expect(overBudget(convert("wav", { trim_end: 300 }), twentyMinutes, 10e6, budget)).toMatch(/about 86 MB/);
    expect(overBudget(convert("wav", { trim_start: 100, trim_end: 200 }), twentyMinutes, 10e6, budget)).toBeNull();
  });

  it("long media and large files", () => {
    expect(overBudget(convert("mp3"), audio(1900), 10e6, budget)).toBe(
      "1900 s of media is more than ffmpeg in WebAssembly takes (1800 s)",
    );
    expect(overBudget(convert("mp3"), audio(60), 30 * 1024 * 1024, budget)).toBe(
      "the input is 31 MB; ffmpeg in WebAssembly takes files up to 17 MB",
    );
    expect(overBudget({ op: "thumbnail", outputFormat: "png" }, video(320, 180, 1), 30 * 1024 * 1024, budget)).toMatch(
      /^the input is 31 MB/,
    );
  });
});

describe("scaleFilter", () => {
  it("builds each fit's filter", () => {
    expect(scaleFilter(undefined, undefined, "max", false)).toBeNull();
    expect(scaleFilter(undefined, undefined, "max", true)).toBe("scale=trunc(iw/2)*2:trunc(ih/2)*2");
    expect(scaleFilter(200, 100, "max", true)).toBe(
      "scale=w='min(200,iw)':h='min(100,ih)':force_original_aspect_ratio=decrease:force_divisible_by=2",
    );
    expect(scaleFilter(200, 100, "max", false)).toBe(
      "scale=w='min(200,iw)':h='min(100,ih)':force_original_aspect_ratio=decrease",
    );
    expect(scaleFilter(200, 100, "crop", true)).toBe(
      "scale=w=200:h=100:force_original_aspect_ratio=increase,crop=200:100",
    );
    expect(scaleFilter(200, 100, "scale", true)).toBe("scale=w=200:h=100");
    expect(scaleFilter(200, 100, "pad", true)).toBe(
      "scale=w=200:h=100:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=200:100:(ow-iw)/2:(oh-ih)/2",
    );
    expect(scaleFilter(200, 100, "pad", false)).toBe(
      "scale=w=200:h=100:force_original_aspect_ratio=decrease,pad=200:100:(ow-iw)/2:(oh-ih)/2",
    );
    expect(scaleFilter(200, undefined, "max", true)).toBe("scale=w='min(200,iw)':h=-2");
    expect(scaleFilter(undefined, 100, "max", false)).toBe("scale=w=-1:h='min(100,ih)'");
    expect(scaleFilter(200, undefined, "scale", true)).toBe("scale=w=200:h=-2");
  });

  it("and native ffmpeg gives the sizes they promise on a 320×180 frame", () => {
    const cases: [number | undefined, number | undefined, "max" | "crop" | "scale" | "pad", boolean, number, number][] =
      [
        [undefined, undefined, "max", true, 320, 180],
        [160, 160, "max", true, 160, 90],
        [640, 640, "max", true, 320, 180], // never enlarged
        [100, undefined, "max", true, 100, 56], // 56.25, even
        [100, undefined, "max", false, 100, 56],
        [undefined, 90, "max", false, 160, 90],
        [1000, undefined, "max", true, 320, 180],
        [100, 100, "crop", true, 100, 100],
        [101, 51, "scale", false, 101, 51],
        [200, 200, "pad", true, 200, 200],
      ];
    for (const [w, h, fit, even, ew, eh] of cases) {
      const filter = scaleFilter(w, h, fit, even);
      const out = tmp.path("png");
      execFileSync("ffmpeg", [
        "-v",
        "error",
        "-y",
        "-f",
        "lavfi",
        "-i",
        "testsrc=s=320x180:d=0.1",
        "-frames:v",
        "1",
        ...(filter ? ["-vf", filter] : []),
        "-update",
        "1",
        out,
      ]);
      expect(imageSize(out), `${w}×${h} ${fit} ${even}: ${filter}`).toMatchObject({ width: ew, height: eh });
      // overBudget's outputSize agrees, up to the even rounding of 4:2:0
      const [ow, oh] = outputSize(320, 180, { width: w, height: h, fit });
      expect(Math.abs(ow - ew) + Math.abs(oh - eh), `outputSize ${w}×${h} ${fit}`).toBeLessThanOrEqual(1);
    }
  });
});

describe("checkFfmpegWords", () => {
  const check = (line: string) => {
    const split = splitArguments(line);
    if ("error" in split) throw new Error(split.error);
    return checkFfmpegWords(split.words);
  };

  it("refuses absolute paths outside /input and /output anywhere in a word", () => {
    for (const line of [
      "-i /etc/passwd /output/x.mp4",
      "-i /input/a/x.mp4 /tmp/y.mp4",
      "-i /input/a/x.mp4 -vf movie=/etc/passwd /output/y.mp4",
      "-i /input/a/x.mp4 -vf drawtext=textfile=/proc/self/environ /output/y.mp4",
      "-i /input/a/x.mp4 -vf \"subtitles='/etc/passwd'\" /output/y.mp4",
      "-i /input/a/x.mp4 -vf [in]movie=/dev/zero[m] /output/y.mp4",
      "-i /input/a/x.mp4 -attach /etc/hosts /output/y.mkv",
      "-i /inputs/a/x.mp4 /output/y.mp4",
      "-i /input/a/x.mp4 /outputs/y.mp4",
    ])
      expect(check(line), line).toMatch(/only files under \/input\/ and \/output\//);
  });

  it("refuses .. wherever it appears", () => {
    for (const line of [
      "-i /input/a/../../etc/passwd /output/x.mp4",
      "-i ../x.mp4 /output/y.mp4",
      "-i /input/a/x.mp4 ../y.mp4",
      "-i /input/a/../b/x.mp4 /output/y.mp4",
      "-i /input/a/x.mp4 -vf movie=../../etc/passwd /output/y.mp4",
    ]) {
      expect(check(line), line).not.toBeNull();
    }
  });

  it("refuses protocols, also inside filter arguments and in any case", () => {
    for (const line of [
      "-i http://x/y.mp4 /output/a.mp4",
      "-i HTTPS://x/y.mp4 /output/a.mp4",
      "-i file:/etc/passwd /output/a.mp4",
      "-i file:x.mp4 /output/a.mp4",
      "-i concat:/input/a/x.mp4|/input/a/y.mp4 /output/a.mp4",
      "-i tcp://127.0.0.1:1234 /output/a.mp4",
      "-i pipe:0 /output/a.mp4",
      "-i data:text/plain;base64,AAAA /output/a.mp4",
      "-i /input/a/x.mp4 -vf movie=http://x/y.png /output/a.mp4",
      "-i /input/a/x.mp4 -f mp4 tcp://1.2.3.4:5",
    ])
      expect(check(line), line).toMatch(/protocol is not allowed|only files under/);
  });

  // Inside a filter argument ffmpeg unescapes "\/" to "/" and "\:" to ":", so a check of the written
  // form cannot see these paths (native ffmpeg 5.1 drew this machine's host name from
  // `-vf 'drawtext=fontfile=…:textfile=\/etc\/hostname'`): every backslash is refused.
  const escaped = [
    "-i /input/a/x.mp4 -vf drawtext=textfile=\\\\/etc\\\\/hostname /output/y.mp4",
    "-i /input/a/x.mp4 -vf movie=\\\\/etc\\\\/passwd /output/y.mp4",
    "-i /input/a/x.mp4 -vf movie=file\\\\:x.png /output/y.mp4",
  ];
  it("(the escaped lines reach ffmpeg with one backslash, as `-vf 'movie=\\/etc\\/passwd'` would)", () => {
    for (const line of escaped)
      expect(splitArguments(line), line).toMatchObject({
        words: expect.arrayContaining([expect.stringMatching(/=(file)?\\[/:]/)]),
      });
  });
  for (const line of escaped) {
    it(`refuses the backslash-escaped ${line}`, () => {
      expect(check(line)).toMatch(/backslash escapes are not allowed/);
    });
  }

  it("refuses device and lavfi inputs, script options, -safe and protocol lists", () => {
    expect(check("-f lavfi -i testsrc /output/x.mp4")).toMatch(/lavfi/);
    expect(check("-f LAVFI -i testsrc /output/x.mp4")).toMatch(/not allowed/);
    expect(check("-f v4l2 -i /input/a/video0 /output/x.mp4")).toMatch(/v4l2/);
    expect(check("-f x11grab -i :0 /output/x.mp4")).toMatch(/not allowed/);
    expect(check("-i /input/a/x.mp4 -filter_complex_script /input/a/f.txt /output/y.mp4")).toMatch(
      /option is not allowed/,
    );
    expect(check("-i /input/a/x.mp4 -filter_script:v /input/a/f.txt /output/y.mp4")).toMatch(/option is not allowed/);
    expect(check("-f concat -safe 0 -i /input/a/list.txt /output/y.mp4")).toMatch(/"-safe"/);
    expect(check("-protocol_whitelist file,http -i /input/a/x.m3u8 /output/y.mp4")).toMatch(/"-protocol_whitelist"/);
    expect(check("-i /input/a/x.mp4 -dump_attachment:t:0 /output/f.ttf")).toMatch(/option is not allowed/);
  });

  it("accepts ordinary lines", () => {
    for (const line of [
      "-i /input/a/x.mp4 -vf scale=320:-2 -c:v libx264 /output/y.mp4",
      "-ss 00:00:01.5 -i /input/a/x.mp4 -frames:v 1 /output/t.png",
      "-i /input/a/x.mp4 -vf subtitles='/input/a/s.srt' /output/y.mp4",
      "-i /input/a/x.mp4 -vf \"scale=w='min(320,iw)':h=-2,fps=10\" -c:a aac -b:a 128k -movflags +faststart /output/y.mp4",
      "-i /input/a/x.mp4 -i /input/b/logo.png -filter_complex [0:v][1:v]overlay=10:10[v] -map [v] -map 0:a? /output/y.mp4",
      "-i /input/a/x.mp4 -vn y.mp3",
      "-i /input/a/x.mp4 -map 0:a:0 -c:a copy -f adts /output/y.aac",
      "-i /input/a/x.mp4 -f null -",
      "-i /input/a/x.mp4 -metadata title=AC/DC /output/clip..final.mp4",
      "-hide_banner -show_streams /input/a/x.mp4",
    ])
      expect(check(line), line).toBeNull();
  });
});

describe("planRuns: the frame rate is a filter", () => {
  it("fps becomes fps=N before the scale (not -r, which made ffmpeg 5.1 write two frames too many)", () => {
    const bbb: MediaProbe = {
      container: "matroska,webm",
      duration: 10,
      video: { codec: "vp9", width: 320, height: 180, fps: 30, attachedPic: false },
      audio: null,
    };
    const [run] = planRuns(
      {
        op: "convert",
        input: { data: new Uint8Array(), filename: "a.webm" },
        outputFormat: "mp4",
        options: { fps: 10, width: 160 },
      },
      bbb,
      { input: "/in/a.webm", output: "/out/o.mp4" },
    );
    expect(run).not.toContain("-r");
    expect(run![run!.indexOf("-vf") + 1]).toBe("fps=10,scale=w='min(160,iw)':h=-2");
    const [copy] = planRuns(
      {
        op: "convert",
        input: { data: new Uint8Array(), filename: "a.webm" },
        outputFormat: "mkv",
        options: { fps: 10, video_codec: "copy" },
      },
      bbb,
      { input: "/in/a.webm", output: "/out/o.mkv" },
    );
    expect(copy).not.toContain("-vf");
    expect(copy).not.toContain("-r");
  });
});

describe("planRuns refuses what the input cannot give", () => {
  const input = { data: new Uint8Array(), filename: "clip.webm" };
  const bbb: MediaProbe = {
    container: "matroska,webm",
    duration: 10,
    video: { codec: "vp9", width: 320, height: 180, fps: 30, attachedPic: false },
    audio: null,
  };
  const paths = { input: "/in/input.webm", output: "/out/output.mp3" };
  const err = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof MediaPlanError ? `${e.code} ${e.message}` : `other ${e}`;
    }
    return "no error";
  };

  it("no audio, a timestamp or trim past the end, trim_end before trim_start", () => {
    expect(err(() => planRuns({ op: "convert", input, outputFormat: "mp3", options: {} }, bbb, paths))).toBe(
      "CONVERSION_FAILED clip.webm has no audio stream to convert to mp3.",
    );
    expect(
      err(() => planRuns({ op: "thumbnail", input, outputFormat: "png", options: { timestamp: 10 } }, bbb, paths)),
    ).toBe("CONVERSION_FAILED timestamp 10 s is at or past the end of clip.webm (10 s).");
    expect(
      err(() => planRuns({ op: "convert", input, outputFormat: "mp4", options: { trim_start: 12 } }, bbb, paths)),
    ).toMatch(/^CONVERSION_FAILED trim_start 12 s is at or past the end/);
    expect(
      err(() =>
        planRuns({ op: "convert", input, outputFormat: "mp4", options: { trim_start: 5, trim_end: 2 } }, bbb, paths),
      ),
    ).toBe("CONVERSION_FAILED trim_end must be after trim_start.");
  });
});
