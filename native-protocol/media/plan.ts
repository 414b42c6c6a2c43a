/**
 * Audio and video with ffmpeg (issue 13): what a {@link MediaRequest} means as ffmpeg argument
 * lists ({@link planRuns}), given what the input is (probe.ts). Pure and shared, so the two ffmpegs
 * build the very same command from the same request: ffmpeg 5.1.4 in WebAssembly
 * (src/engines/ffmpeg, one core instance per call) and Debian's native ffmpeg 5.1 in the native
 * engine (container/engines/ffmpeg.ts).
 *
 * `preset` defaults to `veryfast` (x264's speed/size trade-off that keeps a WebAssembly encode
 * within an engine Worker's CPU limit); the other defaults are formats.ts's.
 */
import {
  AUDIO_CODECS,
  AUDIO_OUTPUTS,
  FONT_FILES,
  PRESETS,
  VIDEO_CODECS,
  defaultAudioCodec,
  defaultVideoCodec,
  type AudioCodec,
  type Fit,
  type MediaOptions,
  type MediaRequest,
  type VideoCodec,
} from "./formats.ts";
import type { MediaProbe } from "./probe.ts";

/** A failure of a plan: its task error code and message (the executors turn it into their error). */
export class MediaPlanError extends Error {
  readonly code: "CONVERSION_FAILED" | "OPEN_FAILED" | "OVER_BUDGET" | "UNSUPPORTED";
  constructor(code: MediaPlanError["code"], message: string) {
    super(message);
    this.name = "MediaPlanError";
    this.code = code;
  }
}

/**
 * ffmpeg's console line when a run decoded nothing it could encode (a file cut short after its
 * headers, noise behind a valid header): the output holds only a container header, so the executors
 * answer CONVERSION_FAILED instead of that file (issue 34's malformed-input sweep).
 */
export const NOTHING_ENCODED = /Output file is empty, nothing was encoded/;

const round = (n: number) => Math.round(n * 1000) / 1000;
const secs = (n: number) => String(round(n));

/** Where the executor put the files of one call (paths in its file system). */
export interface PlanPaths {
  input: string;
  output: string;
  /** The watermark image, when the request has one. */
  image?: string;
  /** A UTF-8 file holding the watermark text (drawtext reads it unexpanded). */
  textFile?: string;
  /** Directory holding the {@link FONT_FILES}. */
  fontDir?: string;
}

/**
 * The scale filter for a box (width × height, either optional) and a fit; `even` keeps both sides
 * even (4:2:0 encoders need it). Null when nothing changes the size.
 */
export function scaleFilter(
  width: number | undefined,
  height: number | undefined,
  fit: Fit,
  even: boolean,
): string | null {
  const div = even ? ":force_divisible_by=2" : "";
  const auto = even ? -2 : -1;
  if (!width && !height) return even ? "scale=trunc(iw/2)*2:trunc(ih/2)*2" : null;
  if (!width || !height) {
    const w = width ? (fit === "max" ? `'min(${width},iw)'` : String(width)) : String(auto);
    const h = height ? (fit === "max" ? `'min(${height},ih)'` : String(height)) : String(auto);
    return `scale=w=${w}:h=${h}`;
  }
  switch (fit) {
    case "scale":
      return `scale=w=${width}:h=${height}`;
    case "crop":
      return `scale=w=${width}:h=${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`;
    case "pad":
      return `scale=w=${width}:h=${height}:force_original_aspect_ratio=decrease${div},pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2`;
    default:
      return `scale=w='min(${width},iw)':h='min(${height},ih)':force_original_aspect_ratio=decrease${div}`;
  }
}

/** Video encoder arguments for one codec and the options. */
function videoCodecArgs(codec: VideoCodec, o: MediaOptions): string[] {
  const enc = VIDEO_CODECS[codec];
  if (enc === "copy") return ["-c:v", "copy"];
  const preset = o.preset ?? "veryfast";
  const speed = PRESETS.indexOf(preset); // 0 fastest … 8 slowest
  switch (enc) {
    case "libx264":
    case "libx265":
      return [
        "-c:v",
        enc,
        "-preset",
        preset,
        "-crf",
        String(o.crf ?? (enc === "libx264" ? 23 : 28)),
        "-pix_fmt",
        "yuv420p",
        ...(o.profile ? ["-profile:v", o.profile] : []),
        ...(enc === "libx265" ? ["-tag:v", "hvc1"] : []),
      ];
    case "libvpx-vp9":
    case "libvpx": {
      // faster presets: realtime deadline with a high cpu-used; slower ones: good deadline, lower cpu-used
      const realtime = speed <= 4;
      const cpu = realtime ? 8 - speed : Math.max(0, 8 - speed);
      const rate = enc === "libvpx" ? ["-b:v", "2M"] : ["-b:v", "0"];
      return [
        "-c:v",
        enc,
        "-crf",
        String(o.crf ?? (enc === "libvpx" ? 10 : 32)),
        ...rate,
        "-deadline",
        realtime ? "realtime" : "good",
        "-cpu-used",
        String(cpu),
        "-pix_fmt",
        "yuv420p",
      ];
    }
    default:
      // MPEG-4 Part 2, and Windows Media Video 8 (wmv2, the ASF family's encoder in ffmpeg) quality-scaled like it
      return [
        "-c:v",
        enc === "wmv2" ? "wmv2" : "mpeg4",
        "-q:v",
        String(o.crf !== undefined ? Math.max(1, Math.min(31, Math.round(o.crf / 2))) : 4),
        "-pix_fmt",
        "yuv420p",
      ];
  }
}

/** Audio encoder arguments for one codec, the source and the options. */
function audioCodecArgs(codec: AudioCodec, source: MediaProbe["audio"], o: MediaOptions): string[] {
  const enc = AUDIO_CODECS[codec];
  if (!enc) return ["-an"];
  if (enc === "copy") return ["-c:a", "copy"];
  const args = ["-c:a", enc];
  const channels =
    o.audio_channels ??
    // MP3, and WMA (wmav2 takes at most 2 channels), downmix more; Opus does by default here
    (source && source.channels > 2 && ["libmp3lame", "libopus", "wmav2"].includes(enc) ? 2 : undefined);
  if (channels) args.push("-ac", String(channels));
  if (enc === "libopus" && (channels ?? source?.channels ?? 2) > 2) args.push("-mapping_family", "1");
  let rate = o.audio_frequency;
  if (enc === "libopus" && !rate && source && ![48000, 24000, 16000, 12000, 8000].includes(source.sampleRate))
    rate = 48000;
  if (rate) args.push("-ar", String(rate));
  if (enc.startsWith("pcm") || enc === "flac") return args;
  if (o.audio_bitrate) args.push("-b:a", `${o.audio_bitrate}k`);
  else if (o.audio_qscale !== undefined) args.push("-q:a", String(o.audio_qscale));
  else if (enc === "libmp3lame") args.push("-q:a", "2");
  else if (enc === "libvorbis") args.push("-q:a", "5");
  else args.push("-b:a", enc === "libopus" ? "128k" : "192k");
  return args;
}

/** Muxer arguments of an output format. */
function muxArgs(format: string): string[] {
  if (["mp4", "m4v", "mov", "m4a"].includes(format)) return ["-movflags", "+faststart"];
  if (format === "gif") return ["-loop", "0"];
  if (format === "aac") return ["-f", "adts"];
  return [];
}

/**
 * The ffmpeg runs of one request (each an argument list without the program name), given what the
 * input is: one run, or two for GIF (the palette first, then the frames with it: one run with
 * `split` would hold every frame in memory — 100 MB of WebAssembly memory for 10 s of 320×180
 * against 40 MB in two runs, measured, same bytes out and the same time).
 * @throws MediaPlanError CONVERSION_FAILED when the input lacks what the request needs (no video
 *   for a video output or thumbnail, no audio for an audio output, a timestamp past the end)
 */
export function planRuns(req: MediaRequest, probe: MediaProbe, paths: PlanPaths): string[][] {
  const head = ["-hide_banner", "-nostdin", "-y", "-nostats"];
  const v = probe.video && !probe.video.attachedPic ? probe.video : null;
  if (req.op === "thumbnail") {
    if (!v)
      throw new MediaPlanError(
        "CONVERSION_FAILED",
        `${req.input.filename} has no video stream to take a thumbnail of.`,
      );
    const d = probe.duration;
    const at = req.options.timestamp ?? (d ? Math.min(5, d * 0.1) : 0);
    if (d !== null && at >= d)
      throw new MediaPlanError(
        "CONVERSION_FAILED",
        `timestamp ${secs(at)} s is at or past the end of ${req.input.filename} (${secs(d)} s).`,
      );
    const scale = scaleFilter(req.options.width, req.options.height, req.options.fit ?? "max", false);
    const enc =
      req.outputFormat === "jpg"
        ? ["-q:v", "2"]
        : req.outputFormat === "webp"
          ? ["-c:v", "libwebp", "-quality", "85"]
          : [];
    return [
      [
        ...head,
        ...(at > 0 ? ["-ss", secs(at)] : []),
        "-i",
        paths.input,
        "-map",
        "0:v:0",
        "-frames:v",
        "1",
        ...(scale ? ["-vf", scale] : []),
        ...enc,
        "-update",
        "1",
        paths.output,
      ],
    ];
  }
  const o: MediaOptions = req.op === "convert" ? req.options : {};
  const out = req.outputFormat;
  const audioOut = (AUDIO_OUTPUTS as readonly string[]).includes(out);
  const trimIn = o.trim_start ? ["-ss", secs(o.trim_start)] : [];
  const trimOut = o.trim_end !== undefined ? ["-t", secs(o.trim_end - (o.trim_start ?? 0))] : [];
  if (o.trim_end !== undefined && o.trim_end <= (o.trim_start ?? 0))
    throw new MediaPlanError("CONVERSION_FAILED", "trim_end must be after trim_start.");
  if (o.trim_start !== undefined && probe.duration !== null && o.trim_start >= probe.duration) {
    throw new MediaPlanError(
      "CONVERSION_FAILED",
      `trim_start ${secs(o.trim_start)} s is at or past the end of ${req.input.filename} (${secs(probe.duration)} s).`,
    );
  }
  if (audioOut) {
    if (!probe.audio)
      throw new MediaPlanError("CONVERSION_FAILED", `${req.input.filename} has no audio stream to convert to ${out}.`);
    const codec = o.audio_codec ?? defaultAudioCodec(out);
    return [
      [
        ...head,
        ...trimIn,
        "-i",
        paths.input,
        ...trimOut,
        "-map",
        "0:a:0",
        "-vn",
        "-sn",
        "-dn",
        ...audioCodecArgs(codec, probe.audio, o),
        ...muxArgs(out),
        paths.output,
      ],
    ];
  }
  if (!v)
    throw new MediaPlanError("CONVERSION_FAILED", `${req.input.filename} has no video stream to convert to ${out}.`);
  if (out === "gif") {
    const fps = o.fps ?? Math.min(v.fps, 15);
    const scale = scaleFilter(o.width, o.height, o.fit ?? "max", false);
    // start_time=0: the fps filter's frames counted from 0, so a one-frame video (a WMV whose only frame is at 0.046 s)
    // still gives one; without it the filter emits nothing, no palette is written and the second run fails (ffmpeg 5.1,
    // native and WebAssembly); a video starting at 0 keeps the same frames (measured on the corpus' webm, mpg and m2ts)
    const chain = [`fps=${round(fps)}:start_time=0`, ...(scale ? [scale + ":flags=lanczos"] : [])].join(",");
    const palette = paths.output.replace(/[^/]+$/, "palette.png");
    return [
      // -t before -i: palettegen waits for the end of its input, so the input itself must end at trim_end
      [
        ...head,
        ...trimIn,
        ...trimOut,
        "-i",
        paths.input,
        "-vf",
        `${chain},palettegen=stats_mode=diff`,
        "-an",
        "-frames:v",
        "1",
        "-update",
        "1",
        palette,
      ],
      [
        ...head,
        ...trimIn,
        "-i",
        paths.input,
        "-i",
        palette,
        ...trimOut,
        "-filter_complex",
        `[0:v:0]${chain}[x];[x][1:v]paletteuse=dither=bayer:bayer_scale=5`,
        "-an",
        ...muxArgs(out),
        paths.output,
      ],
    ];
  }
  const vcodec = o.video_codec ?? defaultVideoCodec(out);
  const copy = vcodec === "copy";
  const filters: string[] = [];
  if (req.op === "watermark") filters.push(...watermarkFilters(req, v, paths));
  // the frame rate as the fps filter, not the output option -r: ffmpeg 5.1 with -r ends the video
  // two frames late (10 s at fps 10 → 10.2 s, 102 frames; measured natively, same in WebAssembly)
  const post = copy
    ? null
    : [o.fps ? `fps=${secs(o.fps)}` : null, scaleFilter(o.width, o.height, o.fit ?? "max", true)]
        .filter(Boolean)
        .join(",") || null;
  const acodec =
    o.audio_codec ?? (req.op === "watermark" && sameFamily(req.input.filename, out) ? "copy" : defaultAudioCodec(out));
  const audio = probe.audio ? ["-map", "0:a:0?", ...audioCodecArgs(acodec, probe.audio, o)] : [];
  const inputs = [
    "-i",
    paths.input,
    ...(req.op === "watermark" && req.image && paths.image ? ["-i", paths.image] : []),
  ];
  let video: string[];
  if (filters.length) {
    // watermark: one filter graph from [0:v:0] to [v], the size fix for 4:2:0 last
    const last = filters.length - 1;
    const graph = post
      ? [...filters, `[wm0]${post}[v]`]
      : filters.map((f, i) => (i === last ? f.replace(/\[wm0\]$/, "[v]") : f));
    video = ["-filter_complex", graph.join(";"), "-map", "[v]"];
  } else {
    video = ["-map", "0:v:0", ...(post ? ["-vf", post] : [])];
  }
  return [
    [
      ...head,
      ...trimIn,
      ...inputs,
      ...trimOut,
      ...video,
      ...audio,
      ...videoCodecArgs(vcodec, o),
      "-sn",
      "-dn",
      ...muxArgs(out),
      paths.output,
    ],
  ];
}

const sameFamily = (filename: string, out: string) => {
  const ext = filename.toLowerCase().split(".").pop() ?? "";
  return ext === out || (["mp4", "m4v", "mov"].includes(ext) && ["mp4", "m4v", "mov"].includes(out));
};

/** #RRGGBB[AA] and an opacity (0–100) as ffmpeg's color@alpha. */
function color(hex: string | undefined, opacity: number | undefined): string {
  const h = (hex ?? "#000000").replace("#", "");
  const alpha = (h.length === 8 ? parseInt(h.slice(6), 16) / 255 : 1) * ((opacity ?? 100) / 100);
  return `0x${h.slice(0, 6)}@${round(alpha)}`;
}

/**
 * The watermark's filter graph, ending in the label [wm0]: the image scaled and faded with
 * `overlay`, or the text drawn with `drawtext` (read from a file, unexpanded, so no character of
 * it is syntax). Placement as on images: top/center/bottom × left/center/right with margins.
 */
function watermarkFilters(
  req: Extract<MediaRequest, { op: "watermark" }>,
  v: NonNullable<MediaProbe["video"]>,
  paths: PlanPaths,
): string[] {
  const o = req.options;
  const mh = o.margin_horizontal ?? 0;
  const mv = o.margin_vertical ?? 0;
  const pos = (W: string, w: string, H: string, h: string) => ({
    x:
      o.position_horizontal === "left"
        ? `${mh}`
        : o.position_horizontal === "right"
          ? `${W}-${w}-${mh}`
          : `(${W}-${w})/2`,
    y: o.position_vertical === "top" ? `${mv}` : o.position_vertical === "bottom" ? `${H}-${h}-${mv}` : `(${H}-${h})/2`,
  });
  if (req.image && paths.image) {
    const width =
      o.image_width ??
      (o.image_width_percent ? Math.max(1, Math.round((v.width * o.image_width_percent) / 100)) : undefined);
    const alpha = (o.opacity ?? 100) / 100;
    const mark = [
      "format=rgba",
      ...(width ? [`scale=${width}:-1`] : []),
      ...(alpha < 1 ? [`colorchannelmixer=aa=${round(alpha)}`] : []),
    ].join(",");
    const { x, y } = pos("main_w", "overlay_w", "main_h", "overlay_h");
    return [`[1:v]${mark}[mark]`, `[0:v:0][mark]overlay=x=${x}:y=${y}:format=auto:eof_action=repeat[wm0]`];
  }
  if (!paths.textFile || !paths.fontDir)
    throw new MediaPlanError("UNSUPPORTED", "a text watermark needs the text and a font.");
  const font = `${paths.fontDir}/${FONT_FILES[o.font_name ?? "DejaVu Sans"] ?? FONT_FILES["DejaVu Sans"]}`;
  const { x, y } = pos("w", "text_w", "h", "text_h");
  return [
    `[0:v:0]drawtext=fontfile='${font}':textfile='${paths.textFile}':expansion=none:fontsize=${o.font_size ?? 40}:fontcolor=${color(o.font_color, o.opacity)}:x=${x}:y=${y}[wm0]`,
  ];
}
