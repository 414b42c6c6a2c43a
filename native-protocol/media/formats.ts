/**
 * The vocabulary of audio and video requests (issue 13): the formats convert, thumbnail and
 * watermark read and write, the codec and preset names of CloudConvert's options and the ffmpeg
 * encoders behind them, which codecs each container takes, the options of each operation and the
 * {@link MediaRequest} both ffmpegs take — ffmpeg 5.1.4 in WebAssembly (src/engines/ffmpeg) and
 * Debian's native ffmpeg 5.1 in the native engine (container/engines/ffmpeg.ts). Pure; imports only the file types of
 * ../frame.ts.
 *
 * Defaults follow what CloudConvert users expect of a conversion (contract §6 "video (ffmpeg)"):
 * H.264 + AAC in mp4/m4v/mov/mkv, VP9 + Opus in webm, MPEG-4 Part 2 + MP3 in avi, a palette GIF,
 * and per audio format its usual codec ({@link defaultVideoCodec}, {@link defaultAudioCodec}).
 */

import type { LocalFile, StreamedBytes } from "../frame.ts";

/** Video containers convert writes. */
export const VIDEO_OUTPUTS = ["mp4", "webm", "mkv", "mov", "avi", "m4v", "gif", "flv", "wmv"] as const;
/** Audio formats convert writes. */
export const AUDIO_OUTPUTS = ["mp3", "wav", "ogg", "opus", "flac", "aac", "m4a", "aiff", "wma"] as const;
/**
 * Video inputs (read by ffmpeg's demuxers; an animated GIF counts as video). Issue 34 added the rest of
 * CloudConvert's list: every one is demuxed and decoded by both ffmpegs (the WebAssembly build's
 * `-demuxers`/`-decoders` list cavsvideo, dv, asf (dvr-ms), mpeg (mod, vob), mpegts (m2ts, mts), mxf,
 * rm (rv10–40, cook), swf, wtv, ogg), so the WebAssembly/native split stays the budget's alone.
 */
export const VIDEO_INPUTS = [
  "mp4",
  "webm",
  "mkv",
  "mov",
  "avi",
  "m4v",
  "mpg",
  "mpeg",
  "3gp",
  "3g2",
  "flv",
  "wmv",
  "ogv",
  "ts",
  "mts",
  "m2ts",
  "vob",
  "gif",
  "3gpp",
  "cavs",
  "dv",
  "dvr",
  "mod",
  "mxf",
  "rm",
  "rmvb",
  "swf",
  "wtv",
  "ogg",
] as const;
/** Audio inputs. */
export const AUDIO_INPUTS = [
  "mp3",
  "wav",
  "ogg",
  "oga",
  "opus",
  "flac",
  "aac",
  "m4a",
  "aiff",
  "aif",
  "au",
  "wma",
  "amr",
  "mka",
  "ac3",
  "weba",
  "aifc",
  "caf",
  "m4b",
  "voc",
] as const;
/** Thumbnail outputs of a video. */
export const THUMBNAIL_OUTPUTS = ["png", "jpg", "webp"] as const;

/** A video container convert writes. */
export type VideoOutput = (typeof VIDEO_OUTPUTS)[number];
/** An audio format convert writes. */
export type AudioOutput = (typeof AUDIO_OUTPUTS)[number];
/** Any output format of convert. */
export type MediaOutput = VideoOutput | AudioOutput;

/** Codec names of the `video_codec` option (CloudConvert's) → ffmpeg encoder. */
export const VIDEO_CODECS = {
  x264: "libx264",
  h264: "libx264",
  x265: "libx265",
  h265: "libx265",
  vp8: "libvpx",
  vp9: "libvpx-vp9",
  mpeg4: "mpeg4",
  wmv2: "wmv2",
  copy: "copy",
} as const;
/** Codec names of the `audio_codec` option → ffmpeg encoder ("none" drops the audio). */
export const AUDIO_CODECS = {
  aac: "aac",
  mp3: "libmp3lame",
  opus: "libopus",
  vorbis: "libvorbis",
  flac: "flac",
  pcm_s16le: "pcm_s16le",
  pcm_s24le: "pcm_s24le",
  pcm_s16be: "pcm_s16be",
  pcm_s24be: "pcm_s24be",
  wma: "wmav2",
  copy: "copy",
  none: "",
} as const;
/** x264's presets, slowest last; VP8/VP9 map them onto deadline + cpu-used. */
export const PRESETS = [
  "ultrafast",
  "superfast",
  "veryfast",
  "faster",
  "fast",
  "medium",
  "slow",
  "slower",
  "veryslow",
] as const;

/** A `video_codec` option value. */
export type VideoCodec = keyof typeof VIDEO_CODECS;
/** An `audio_codec` option value. */
export type AudioCodec = keyof typeof AUDIO_CODECS;
/** How a resize fits the width × height box (see MediaOptions.fit). */
export type Fit = "max" | "crop" | "scale" | "pad";

/** Which video codecs each container takes (a mismatch is refused at task creation). */
export const CONTAINER_VIDEO_CODECS: Record<Exclude<VideoOutput, "gif">, readonly VideoCodec[]> = {
  mp4: ["x264", "h264", "x265", "h265", "vp9", "mpeg4", "copy"],
  m4v: ["x264", "h264", "x265", "h265", "mpeg4", "copy"],
  mov: ["x264", "h264", "x265", "h265", "mpeg4", "copy"],
  mkv: ["x264", "h264", "x265", "h265", "vp8", "vp9", "mpeg4", "copy"],
  webm: ["vp8", "vp9", "copy"],
  avi: ["mpeg4", "x264", "h264", "copy"],
  flv: ["x264", "h264", "copy"],
  wmv: ["wmv2", "copy"],
};
/** Which audio codecs each output takes. */
export const CONTAINER_AUDIO_CODECS: Record<MediaOutput, readonly AudioCodec[]> = {
  mp4: ["aac", "mp3", "opus", "flac", "copy", "none"],
  m4v: ["aac", "mp3", "copy", "none"],
  mov: ["aac", "mp3", "pcm_s16le", "pcm_s24le", "copy", "none"],
  mkv: ["aac", "mp3", "opus", "vorbis", "flac", "pcm_s16le", "pcm_s24le", "copy", "none"],
  webm: ["opus", "vorbis", "copy", "none"],
  avi: ["mp3", "aac", "pcm_s16le", "copy", "none"],
  flv: ["aac", "mp3", "copy", "none"],
  wmv: ["wma", "copy", "none"],
  gif: ["none"],
  mp3: ["mp3", "copy"],
  wav: ["pcm_s16le", "pcm_s24le"],
  ogg: ["vorbis", "opus", "flac", "copy"],
  opus: ["opus", "copy"],
  flac: ["flac", "copy"],
  aac: ["aac", "copy"],
  m4a: ["aac", "copy"],
  aiff: ["pcm_s16be", "pcm_s24be"],
  wma: ["wma", "copy"],
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

/**
 * One file of a request: its bytes; or, for the native engine only (issue 35), a stream of known length that the
 * Worker sends on the streamed wire (StreamedBytes), which reaches the native ffmpeg as a file in its folder
 * (LocalFile). The WebAssembly engine answers UNSUPPORTED to anything but bytes.
 */
export interface MediaFile {
  data: Uint8Array | StreamedBytes | LocalFile;
  filename: string;
}

/** What the media kind's `run` does: one input in, one file out. */
export type MediaRequest =
  | { op: "convert"; input: MediaFile; outputFormat: MediaOutput; options: MediaOptions }
  | { op: "thumbnail"; input: MediaFile; outputFormat: (typeof THUMBNAIL_OUTPUTS)[number]; options: ThumbnailOptions }
  | { op: "watermark"; input: MediaFile; outputFormat: VideoOutput; options: WatermarkOptions; image?: MediaFile };

/** The default video codec of a container. */
export function defaultVideoCodec(format: string): VideoCodec {
  return format === "webm" ? "vp9" : format === "avi" ? "mpeg4" : format === "wmv" ? "wmv2" : "x264";
}

/** The default audio codec of an output. */
export function defaultAudioCodec(format: MediaOutput): AudioCodec {
  const map: Record<MediaOutput, AudioCodec> = {
    mp4: "aac",
    m4v: "aac",
    mov: "aac",
    mkv: "aac",
    webm: "opus",
    avi: "mp3",
    flv: "aac",
    wmv: "wma",
    gif: "none",
    mp3: "mp3",
    wav: "pcm_s16le",
    ogg: "vorbis",
    opus: "opus",
    flac: "flac",
    aac: "aac",
    m4a: "aac",
    aiff: "pcm_s16be",
    wma: "wma",
  };
  return map[format];
}
