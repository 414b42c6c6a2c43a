/**
 * Whether one audio or video call fits ffmpeg in WebAssembly (issue 13): the {@link MediaBudget} of
 * one engine-Worker call and {@link overBudget}, which names the numbers when a request is over it
 * (routing then passes the task to the native engine, which has no budget of its own beyond its
 * time limit). Pure.
 */
import { AUDIO_OUTPUTS, defaultVideoCodec, type AudioOutput, type Fit, type MediaOptions } from "./formats.ts";
import type { MediaProbe } from "./probe.ts";

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
const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The work of `req` on a file described by `probe` against `budget`: a message naming the numbers
 * when over (the caller answers OVER_BUDGET, and routing passes the task to the native engine), or
 * null. Thumbnails decode a single frame, so only the frame size counts for them.
 */
export function overBudget(
  req: { op: string; outputFormat?: string; options?: object },
  probe: MediaProbe,
  bytes: number,
  budget: MediaBudget,
): string | null {
  if (bytes > budget.maxBytes)
    return `the input is ${mb(bytes)} MB; ffmpeg in WebAssembly takes files up to ${mb(budget.maxBytes)} MB`;
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
    const codec =
      req.op === "command"
        ? "ffmpeg"
        : req.outputFormat === "gif"
          ? "gif"
          : (o.video_codec ?? defaultVideoCodec(req.outputFormat ?? "mp4"));
    const heavy = ["vp8", "vp9", "x265", "h265"].includes(codec);
    const max = heavy ? budget.maxEncodePixelsHeavy : budget.maxEncodePixels;
    if (codec !== "copy" && w * h > max) {
      return `encoding ${w}×${h} frames with ${codec} needs more memory than ffmpeg in WebAssembly has (up to ${mb(max)} MP a frame${heavy ? ` for ${codec}` : ""}; a smaller width/height fits)`;
    }
  }
  if (span > budget.maxSeconds)
    return `${span.toFixed(0)} s of media is more than ffmpeg in WebAssembly takes (${budget.maxSeconds} s)`;
  const pcm = ["wav", "flac", "aiff"].includes(req.outputFormat ?? "") || (o.audio_codec ?? "").startsWith("pcm");
  if (pcm && probe.audio) {
    const estimate =
      span *
      (o.audio_frequency ?? probe.audio.sampleRate) *
      (o.audio_channels ?? Math.max(1, probe.audio.channels)) *
      3;
    if (estimate > budget.maxOutputBytes)
      return `its uncompressed audio would be about ${mb(estimate)} MB; ffmpeg in WebAssembly writes up to ${mb(budget.maxOutputBytes)} MB`;
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
