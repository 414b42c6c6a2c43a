/**
 * Audio and video with ffmpeg (issue 13): what a request means as an ffmpeg argument list, what a
 * file is (ffprobe's JSON read into {@link MediaProbe}) and whether it fits a budget. Pure and
 * shared, so the two ffmpegs build the very same command from the same request: ffmpeg 5.1.4 in
 * WebAssembly (src/engines/ffmpeg, one core instance per call) and Debian's native ffmpeg 5.1 in
 * the native engine (container/engines/ffmpeg.ts). It lives under container/ because the native
 * engine's image holds only this folder (container/Dockerfile); it imports nothing.
 *
 * Defaults follow what CloudConvert users expect of a conversion (contract §6 "video (ffmpeg)"):
 * H.264 + AAC in mp4/m4v/mov/mkv, VP9 + Opus in webm, MPEG-4 Part 2 + MP3 in avi, a palette GIF,
 * and per audio format its usual codec; `preset` defaults to `veryfast` (x264's speed/size
 * trade-off that keeps a WebAssembly encode within an engine Worker's CPU limit).
 */

/** Video containers convert writes. */
export const VIDEO_OUTPUTS = ["mp4", "webm", "mkv", "mov", "avi", "m4v", "gif"] as const;
/** Audio formats convert writes. */
export const AUDIO_OUTPUTS = ["mp3", "wav", "ogg", "opus", "flac", "aac", "m4a"] as const;
/** Video inputs (read by ffmpeg's demuxers; an animated GIF counts as video). */
export const VIDEO_INPUTS = ["mp4", "webm", "mkv", "mov", "avi", "m4v", "mpg", "mpeg", "3gp", "3g2", "flv", "wmv", "ogv", "ts", "mts", "m2ts", "vob", "gif"] as const;
/** Audio inputs. */
export const AUDIO_INPUTS = ["mp3", "wav", "ogg", "oga", "opus", "flac", "aac", "m4a", "aiff", "aif", "au", "wma", "amr", "mka", "ac3", "weba"] as const;
/** Thumbnail outputs of a video. */
export const THUMBNAIL_OUTPUTS = ["png", "jpg", "webp"] as const;

export type VideoOutput = (typeof VIDEO_OUTPUTS)[number];
export type AudioOutput = (typeof AUDIO_OUTPUTS)[number];
export type MediaOutput = VideoOutput | AudioOutput;

/** Codec names of the `video_codec` option (CloudConvert's) → ffmpeg encoder. */
export const VIDEO_CODECS = { x264: "libx264", h264: "libx264", x265: "libx265", h265: "libx265", vp8: "libvpx", vp9: "libvpx-vp9", mpeg4: "mpeg4", copy: "copy" } as const;
/** Codec names of the `audio_codec` option → ffmpeg encoder ("none" drops the audio). */
export const AUDIO_CODECS = { aac: "aac", mp3: "libmp3lame", opus: "libopus", vorbis: "libvorbis", flac: "flac", pcm_s16le: "pcm_s16le", pcm_s24le: "pcm_s24le", copy: "copy", none: "" } as const;
/** x264's presets, slowest last; VP8/VP9 map them onto deadline + cpu-used. */
export const PRESETS = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"] as const;

export type VideoCodec = keyof typeof VIDEO_CODECS;
export type AudioCodec = keyof typeof AUDIO_CODECS;
export type Fit = "max" | "crop" | "scale" | "pad";

/** Which video codecs each container takes (a mismatch is refused at task creation). */
export const CONTAINER_VIDEO_CODECS: Record<Exclude<VideoOutput, "gif">, readonly VideoCodec[]> = {
  mp4: ["x264", "h264", "x265", "h265", "vp9", "mpeg4", "copy"],
  m4v: ["x264", "h264", "x265", "h265", "mpeg4", "copy"],
  mov: ["x264", "h264", "x265", "h265", "mpeg4", "copy"],
  mkv: ["x264", "h264", "x265", "h265", "vp8", "vp9", "mpeg4", "copy"],
  webm: ["vp8", "vp9", "copy"],
  avi: ["mpeg4", "x264", "h264", "copy"],
};
/** Which audio codecs each output takes. */
export const CONTAINER_AUDIO_CODECS: Record<MediaOutput, readonly AudioCodec[]> = {
  mp4: ["aac", "mp3", "opus", "flac", "copy", "none"], m4v: ["aac", "mp3", "copy", "none"], mov: ["aac", "mp3", "pcm_s16le", "pcm_s24le", "copy", "none"],
  mkv: ["aac", "mp3", "opus", "vorbis", "flac", "pcm_s16le", "pcm_s24le", "copy", "none"], webm: ["opus", "vorbis", "copy", "none"], avi: ["mp3", "aac", "pcm_s16le", "copy", "none"], gif: ["none"],
  mp3: ["mp3", "copy"], wav: ["pcm_s16le", "pcm_s24le"], ogg: ["vorbis", "opus", "flac", "copy"], opus: ["opus", "copy"], flac: ["flac", "copy"], aac: ["aac", "copy"], m4a: ["aac", "copy"],
};

/** The options of `convert` on audio and video (contract §6 "video (ffmpeg)", "audio (ffmpeg)"); times in seconds. */
export interface MediaOptions {
  video_codec?: VideoCodec;
  /** Constant rate factor: 0–51 for x264/x265, 0–63 for VP8/VP9 (lower is better). */
  crf?: number;
  preset?: (typeof PRESETS)[number];
  /** H.264 profile (baseline, main, high) or H.265 (main). */
  profile?: "baseline" | "main" | "high";
  width?: number;
  height?: number;
  /** max (default): inside the box, never enlarged; crop: fill and crop; scale: exactly; pad: inside and padded to the box. */
  fit?: Fit;
  /** Output frame rate, frames per second. */
  fps?: number;
  audio_codec?: AudioCodec;
  /** kbit/s. */
  audio_bitrate?: number;
  /** Encoder quality scale (VBR) of mp3/vorbis/aac. */
  audio_qscale?: number;
  /** Hz. */
  audio_frequency?: number;
  audio_channels?: number;
  trim_start?: number;
  trim_end?: number;
}

/** The options of `thumbnail` of a video. */
export interface ThumbnailOptions {
  /** Seconds into the video; default min(5 s, 10 % of the duration). */
  timestamp?: number;
  width?: number;
  height?: number;
  fit?: Exclude<Fit, "pad">;
}

/** The options of `watermark` on a video: a text, or an image file sent beside the request. */
export interface WatermarkOptions {
  text?: string;
  font_size?: number;
  /** #RRGGBB or #RRGGBBAA. */
  font_color?: string;
  /** A shipped DejaVu face ("DejaVu Sans", …); {@link FONT_FILES}. */
  font_name?: string;
  image_width?: number;
  image_width_percent?: number;
  position_vertical?: "top" | "center" | "bottom";
  position_horizontal?: "left" | "center" | "right";
  margin_vertical?: number;
  margin_horizontal?: number;
  /** 0–100. */
  opacity?: number;
}

/** The shipped font faces → file name (wasm/fonts in the engine Worker; Debian's fonts-dejavu-core natively). */
export const FONT_FILES: Record<string, string> = {
  "DejaVu Sans": "DejaVuSans.ttf",
  "DejaVu Sans Bold": "DejaVuSans-Bold.ttf",
  "DejaVu Serif": "DejaVuSerif.ttf",
  "DejaVu Sans Mono": "DejaVuSansMono.ttf",
};

/** One file of a request. */
export interface MediaFile {
  data: Uint8Array;
  filename: string;
}

/** What the media kind's `run` does: one input in, one file out. */
export type MediaRequest =
  | { op: "convert"; input: MediaFile; outputFormat: MediaOutput; options: MediaOptions }
  | { op: "thumbnail"; input: MediaFile; outputFormat: (typeof THUMBNAIL_OUTPUTS)[number]; options: ThumbnailOptions }
  | { op: "watermark"; input: MediaFile; outputFormat: VideoOutput; options: WatermarkOptions; image?: MediaFile };

/** A file as ffprobe sees it; numbers in seconds, pixels, frames per second, Hz. */
export interface MediaProbe {
  /** Container name(s), e.g. "mov,mp4,m4a,3gp,3g2,mj2". */
  container: string;
  /** Duration of the file; null when the container does not say. */
  duration: number | null;
  video: { codec: string; width: number; height: number; fps: number; attachedPic: boolean } | null;
  audio: { codec: string; sampleRate: number; channels: number } | null;
}

/** The ffprobe arguments whose output {@link parseProbe} reads (one input path last). */
export const PROBE_ARGS = ["-v", "error", "-print_format", "json", "-show_format", "-show_streams"] as const;

/** A failure of a plan: its task error code and message (the executors turn it into their error). */
export class MediaPlanError extends Error {
  readonly code: "CONVERSION_FAILED" | "OPEN_FAILED" | "OVER_BUDGET" | "UNSUPPORTED";
  constructor(code: MediaPlanError["code"], message: string) {
    super(message);
    this.name = "MediaPlanError";
    this.code = code;
  }
}

const num = (v: unknown): number => {
  if (typeof v === "number") return v;
  if (typeof v !== "string") return NaN;
  const m = /^(\d+)\/(\d+)$/.exec(v);
  return m ? (Number(m[2]) ? Number(m[1]) / Number(m[2]) : NaN) : Number(v);
};

/**
 * Reads ffprobe's JSON (`-print_format json -show_format -show_streams`). The first video stream
 * that is not an attached picture (cover art) is the video, unless the file has only a picture.
 * @returns the probe, or null when ffprobe found no format or no audio/video stream
 */
export function parseProbe(json: string): MediaProbe | null {
  let doc: { format?: Record<string, unknown>; streams?: Record<string, unknown>[] };
  try {
    doc = JSON.parse(json);
  } catch {
    return null;
  }
  if (!doc.format || !Array.isArray(doc.streams)) return null;
  const streams = doc.streams;
  const isPic = (s: Record<string, unknown>) => (s.disposition as Record<string, number> | undefined)?.attached_pic === 1;
  const videos = streams.filter((s) => s.codec_type === "video" && num(s.width) > 0);
  const v = videos.find((s) => !isPic(s)) ?? videos[0];
  const a = streams.find((s) => s.codec_type === "audio");
  if (!v && !a) return null;
  const durations = [num(doc.format.duration), ...streams.map((s) => num(s.duration))].filter((d) => Number.isFinite(d) && d > 0);
  const fps = v ? [num(v.avg_frame_rate), num(v.r_frame_rate)].find((f) => Number.isFinite(f) && f > 0 && f <= 1000) ?? 25 : 0;
  return {
    container: String(doc.format.format_name ?? ""),
    duration: durations.length ? durations[0]! : null,
    video: v ? { codec: String(v.codec_name ?? ""), width: num(v.width), height: num(v.height), fps, attachedPic: isPic(v) } : null,
    audio: a ? { codec: String(a.codec_name ?? ""), sampleRate: num(a.sample_rate) || 0, channels: num(a.channels) || 0 } : null,
  };
}

/** A budget of one WebAssembly call (the native engine has none of its own beyond its time limit). */
export interface MediaBudget {
  /** Largest input file, bytes. */
  maxBytes: number;
  /** Decoded video work: duration × fps × width × height of what is decoded and encoded. */
  maxPixelFrames: number;
  /** Largest frame decoded, pixels (width × height). */
  maxFramePixels: number;
  /** Largest frame encoded with x264, MPEG-4 or GIF, pixels (x264's lookahead holds frames of this size). */
  maxEncodePixels: number;
  /** Largest frame encoded with VP8, VP9 or x265, pixels (they hold more per frame than x264). */
  maxEncodePixelsHeavy: number;
  /** Longest audio, seconds. */
  maxSeconds: number;
  /** Largest estimated output, bytes (PCM outputs grow with duration). */
  maxOutputBytes: number;
}

const mb = (n: number) => `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)}`;

/**
 * The work of `req` on a file described by `probe` against `budget`: a message naming the numbers
 * when over (the caller answers OVER_BUDGET, and routing passes the task to the native engine), or
 * null. Thumbnails decode a single frame, so only the frame size counts for them.
 */
export function overBudget(req: { op: string; outputFormat?: string; options?: object }, probe: MediaProbe, bytes: number, budget: MediaBudget): string | null {
  if (bytes > budget.maxBytes) return `the input is ${mb(bytes)} MB; ffmpeg in WebAssembly takes files up to ${mb(budget.maxBytes)} MB`;
  const audioOut = AUDIO_OUTPUTS.includes(req.outputFormat as AudioOutput);
  // an audio output of a file without audio is planRuns' clear error, not a budget matter; audio
  // outputs never decode the video (-vn)
  if (audioOut && !probe.audio) return null;
  const v = audioOut ? null : probe.video;
  if (v && !v.attachedPic && v.width * v.height > budget.maxFramePixels) {
    return `its frames are ${v.width}×${v.height} (${mb(v.width * v.height)} MP); ffmpeg in WebAssembly takes frames up to ${mb(budget.maxFramePixels)} MP`;
  }
  if (req.op === "thumbnail") return null;
  const o: MediaOptions = req.op === "convert" ? (req.options ?? {}) : {};
  const span = Math.max(0, Math.min(probe.duration ?? 0, o.trim_end ?? Infinity) - (o.trim_start ?? 0));
  const videoOut = !audioOut;
  if (v && !v.attachedPic && videoOut) {
    const work = span * v.fps * v.width * v.height;
    if (work > budget.maxPixelFrames) {
      return `${span.toFixed(1)} s of ${v.width}×${v.height} at ${round(v.fps)} fps is ${mb(work)} M pixel-frames to decode and encode; ffmpeg in WebAssembly takes up to ${mb(budget.maxPixelFrames)} M`;
    }
  }
  if (v && !v.attachedPic && videoOut) {
    // the encoder's memory grows with the frame it encodes: the output's size, after width/height/fit
    const [w, h] = outputSize(v.width, v.height, o);
    // a command's encoder is unknown: judged as x264's
    const codec = req.op === "command" ? "ffmpeg" : req.outputFormat === "gif" ? "gif" : (o.video_codec ?? defaultVideoCodec(req.outputFormat ?? "mp4"));
    const heavy = ["vp8", "vp9", "x265", "h265"].includes(codec);
    const max = heavy ? budget.maxEncodePixelsHeavy : budget.maxEncodePixels;
    if (codec !== "copy" && w * h > max) {
      return `encoding ${w}×${h} frames with ${codec} needs more memory than ffmpeg in WebAssembly has (up to ${mb(max)} MP a frame${heavy ? ` for ${codec}` : ""}; a smaller width/height fits)`;
    }
  }
  if (span > budget.maxSeconds) return `${span.toFixed(0)} s of media is more than ffmpeg in WebAssembly takes (${budget.maxSeconds} s)`;
  const pcm = ["wav", "flac"].includes(req.outputFormat ?? "") || (o.audio_codec ?? "").startsWith("pcm");
  if (pcm && probe.audio) {
    const estimate = span * (o.audio_frequency ?? probe.audio.sampleRate) * (o.audio_channels ?? Math.max(1, probe.audio.channels)) * 3;
    if (estimate > budget.maxOutputBytes) return `its uncompressed audio would be about ${mb(estimate)} MB; ffmpeg in WebAssembly writes up to ${mb(budget.maxOutputBytes)} MB`;
  }
  return null;
}

/** The size of the frames written for a source of w × h and the options' box and fit (as scaleFilter sizes them). */
export function outputSize(w: number, h: number, o: { width?: number; height?: number; fit?: Fit }): [number, number] {
  const fit = o.fit ?? "max";
  if (!o.width && !o.height) return [w, h];
  if (o.width && o.height && fit !== "max") return [o.width, o.height];
  const scale = Math.min(o.width ? o.width / w : Infinity, o.height ? o.height / h : Infinity);
  const k = fit === "max" ? Math.min(1, scale) : scale;
  return [Math.round(w * k), Math.round(h * k)];
}

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
export function scaleFilter(width: number | undefined, height: number | undefined, fit: Fit, even: boolean): string | null {
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

/** The default video codec of a container. */
function defaultVideoCodec(format: string): VideoCodec {
  return format === "webm" ? "vp9" : format === "avi" ? "mpeg4" : "x264";
}

/** The default audio codec of an output. */
export function defaultAudioCodec(format: MediaOutput): AudioCodec {
  const map: Record<MediaOutput, AudioCodec> = {
    mp4: "aac", m4v: "aac", mov: "aac", mkv: "aac", webm: "opus", avi: "mp3", gif: "none",
    mp3: "mp3", wav: "pcm_s16le", ogg: "vorbis", opus: "opus", flac: "flac", aac: "aac", m4a: "aac",
  };
  return map[format];
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
      return ["-c:v", enc, "-preset", preset, "-crf", String(o.crf ?? (enc === "libx264" ? 23 : 28)), "-pix_fmt", "yuv420p", ...(o.profile ? ["-profile:v", o.profile] : []), ...(enc === "libx265" ? ["-tag:v", "hvc1"] : [])];
    case "libvpx-vp9":
    case "libvpx": {
      // faster presets: realtime deadline with a high cpu-used; slower ones: good deadline, lower cpu-used
      const realtime = speed <= 4;
      const cpu = realtime ? 8 - speed : Math.max(0, 8 - speed);
      const rate = enc === "libvpx" ? ["-b:v", "2M"] : ["-b:v", "0"];
      return ["-c:v", enc, "-crf", String(o.crf ?? (enc === "libvpx" ? 10 : 32)), ...rate, "-deadline", realtime ? "realtime" : "good", "-cpu-used", String(cpu), "-pix_fmt", "yuv420p"];
    }
    default:
      return ["-c:v", "mpeg4", "-q:v", String(o.crf !== undefined ? Math.max(1, Math.min(31, Math.round(o.crf / 2))) : 4), "-pix_fmt", "yuv420p"];
  }
}

/** Audio encoder arguments for one codec, the source and the options. */
function audioCodecArgs(codec: AudioCodec, source: MediaProbe["audio"], o: MediaOptions): string[] {
  const enc = AUDIO_CODECS[codec];
  if (!enc) return ["-an"];
  if (enc === "copy") return ["-c:a", "copy"];
  const args = ["-c:a", enc];
  const channels = o.audio_channels ?? (source && source.channels > 2 && ["libmp3lame", "libopus"].includes(enc) ? 2 : undefined);
  if (channels) args.push("-ac", String(channels));
  if (enc === "libopus" && (channels ?? source?.channels ?? 2) > 2) args.push("-mapping_family", "1");
  let rate = o.audio_frequency;
  if (enc === "libopus" && !rate && source && ![48000, 24000, 16000, 12000, 8000].includes(source.sampleRate)) rate = 48000;
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
    if (!v) throw new MediaPlanError("CONVERSION_FAILED", `${req.input.filename} has no video stream to take a thumbnail of.`);
    const d = probe.duration;
    const at = req.options.timestamp ?? (d ? Math.min(5, d * 0.1) : 0);
    if (d !== null && at >= d) throw new MediaPlanError("CONVERSION_FAILED", `timestamp ${secs(at)} s is at or past the end of ${req.input.filename} (${secs(d)} s).`);
    const scale = scaleFilter(req.options.width, req.options.height, req.options.fit ?? "max", false);
    const enc = req.outputFormat === "jpg" ? ["-q:v", "2"] : req.outputFormat === "webp" ? ["-c:v", "libwebp", "-quality", "85"] : [];
    return [[...head, ...(at > 0 ? ["-ss", secs(at)] : []), "-i", paths.input, "-map", "0:v:0", "-frames:v", "1", ...(scale ? ["-vf", scale] : []), ...enc, "-update", "1", paths.output]];
  }
  const o: MediaOptions = req.op === "convert" ? req.options : {};
  const out = req.outputFormat;
  const audioOut = (AUDIO_OUTPUTS as readonly string[]).includes(out);
  const trimIn = o.trim_start ? ["-ss", secs(o.trim_start)] : [];
  const trimOut = o.trim_end !== undefined ? ["-t", secs(o.trim_end - (o.trim_start ?? 0))] : [];
  if (o.trim_end !== undefined && o.trim_end <= (o.trim_start ?? 0)) throw new MediaPlanError("CONVERSION_FAILED", "trim_end must be after trim_start.");
  if (o.trim_start !== undefined && probe.duration !== null && o.trim_start >= probe.duration) {
    throw new MediaPlanError("CONVERSION_FAILED", `trim_start ${secs(o.trim_start)} s is at or past the end of ${req.input.filename} (${secs(probe.duration)} s).`);
  }
  if (audioOut) {
    if (!probe.audio) throw new MediaPlanError("CONVERSION_FAILED", `${req.input.filename} has no audio stream to convert to ${out}.`);
    const codec = o.audio_codec ?? defaultAudioCodec(out);
    return [[...head, ...trimIn, "-i", paths.input, ...trimOut, "-map", "0:a:0", "-vn", "-sn", "-dn", ...audioCodecArgs(codec, probe.audio, o), ...muxArgs(out), paths.output]];
  }
  if (!v) throw new MediaPlanError("CONVERSION_FAILED", `${req.input.filename} has no video stream to convert to ${out}.`);
  if (out === "gif") {
    const fps = o.fps ?? Math.min(v.fps, 15);
    const scale = scaleFilter(o.width, o.height, o.fit ?? "max", false);
    const chain = [`fps=${round(fps)}`, ...(scale ? [scale + ":flags=lanczos"] : [])].join(",");
    const palette = paths.output.replace(/[^/]+$/, "palette.png");
    return [
      // -t before -i: palettegen waits for the end of its input, so the input itself must end at trim_end
      [...head, ...trimIn, ...trimOut, "-i", paths.input, "-vf", `${chain},palettegen=stats_mode=diff`, "-an", "-frames:v", "1", "-update", "1", palette],
      [...head, ...trimIn, "-i", paths.input, "-i", palette, ...trimOut, "-filter_complex", `[0:v:0]${chain}[x];[x][1:v]paletteuse=dither=bayer:bayer_scale=5`, "-an", ...muxArgs(out), paths.output],
    ];
  }
  const vcodec = o.video_codec ?? defaultVideoCodec(out);
  const copy = vcodec === "copy";
  const filters: string[] = [];
  if (req.op === "watermark") filters.push(...watermarkFilters(req, v, paths));
  // the frame rate as the fps filter, not the output option -r: ffmpeg 5.1 with -r ends the video
  // two frames late (10 s at fps 10 → 10.2 s, 102 frames; measured natively, same in WebAssembly)
  const post = copy ? null : [o.fps ? `fps=${secs(o.fps)}` : null, scaleFilter(o.width, o.height, o.fit ?? "max", true)].filter(Boolean).join(",") || null;
  const acodec = o.audio_codec ?? (req.op === "watermark" && sameFamily(req.input.filename, out) ? "copy" : defaultAudioCodec(out));
  const audio = probe.audio ? ["-map", "0:a:0?", ...audioCodecArgs(acodec, probe.audio, o)] : [];
  const inputs = ["-i", paths.input, ...(req.op === "watermark" && req.image && paths.image ? ["-i", paths.image] : [])];
  let video: string[];
  if (filters.length) {
    // watermark: one filter graph from [0:v:0] to [v], the size fix for 4:2:0 last
    const last = filters.length - 1;
    const graph = post ? [...filters, `[wm0]${post}[v]`] : filters.map((f, i) => (i === last ? f.replace(/\[wm0\]$/, "[v]") : f));
    video = ["-filter_complex", graph.join(";"), "-map", "[v]"];
  } else {
    video = ["-map", "0:v:0", ...(post ? ["-vf", post] : [])];
  }
  return [[...head, ...trimIn, ...inputs, ...trimOut, ...video, ...audio, ...videoCodecArgs(vcodec, o), "-sn", "-dn", ...muxArgs(out), paths.output]];
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
function watermarkFilters(req: Extract<MediaRequest, { op: "watermark" }>, v: NonNullable<MediaProbe["video"]>, paths: PlanPaths): string[] {
  const o = req.options;
  const mh = o.margin_horizontal ?? 0;
  const mv = o.margin_vertical ?? 0;
  const pos = (W: string, w: string, H: string, h: string) => ({
    x: o.position_horizontal === "left" ? `${mh}` : o.position_horizontal === "right" ? `${W}-${w}-${mh}` : `(${W}-${w})/2`,
    y: o.position_vertical === "top" ? `${mv}` : o.position_vertical === "bottom" ? `${H}-${h}-${mv}` : `(${H}-${h})/2`,
  });
  if (req.image && paths.image) {
    const width = o.image_width ?? (o.image_width_percent ? Math.max(1, Math.round((v.width * o.image_width_percent) / 100)) : undefined);
    const alpha = (o.opacity ?? 100) / 100;
    const mark = ["format=rgba", ...(width ? [`scale=${width}:-1`] : []), ...(alpha < 1 ? [`colorchannelmixer=aa=${round(alpha)}`] : [])].join(",");
    const { x, y } = pos("main_w", "overlay_w", "main_h", "overlay_h");
    return [`[1:v]${mark}[mark]`, `[0:v:0][mark]overlay=x=${x}:y=${y}:format=auto:eof_action=repeat[wm0]`];
  }
  if (!paths.textFile || !paths.fontDir) throw new MediaPlanError("UNSUPPORTED", "a text watermark needs the text and a font.");
  const font = `${paths.fontDir}/${FONT_FILES[o.font_name ?? "DejaVu Sans"] ?? FONT_FILES["DejaVu Sans"]}`;
  const { x, y } = pos("w", "text_w", "h", "text_h");
  return [`[0:v:0]drawtext=fontfile='${font}':textfile='${paths.textFile}':expansion=none:fontsize=${o.font_size ?? 40}:fontcolor=${color(o.font_color, o.opacity)}:x=${x}:y=${y}[wm0]`];
}
