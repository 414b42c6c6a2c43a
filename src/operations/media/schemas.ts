/**
 * Parameters of the audio/video operations (contract §6 "video (ffmpeg)", "audio (ffmpeg)"; issue
 * 13), flat in the task object. `convert` has one schema per output format, so a codec the
 * container cannot hold is refused by name at creation (422) and GET /v2/operations lists, per
 * output format, exactly the codecs it takes.
 */
import { z } from "zod";
import {
  AUDIO_OUTPUTS,
  CONTAINER_AUDIO_CODECS,
  CONTAINER_VIDEO_CODECS,
  PRESETS,
  defaultAudioCodec,
  defaultVideoCodec,
  type MediaOutput,
  type VideoOutput,
} from "../../../native-protocol/media/formats";

/** A time: seconds (number or numeric string) or [HH:]MM:SS[.fff]. */
export const timeParam = z
  .union([
    z.number().min(0).max(86400),
    z.string().regex(/^(?:(?:\d{1,2}:)?\d{1,2}:)?\d{1,5}(?:\.\d{1,6})?$/, "must be seconds or HH:MM:SS[.fff]"),
  ])
  .transform((v) => (typeof v === "number" ? v : v.split(":").reduce((acc, part) => acc * 60 + Number(part), 0)));

const side = z.number().int().min(2).max(7680);
const common = {
  trim_start: timeParam.optional().describe("Start of the part kept: seconds or HH:MM:SS[.fff]"),
  trim_end: timeParam.optional().describe("End of the part kept (a time in the input, not a length)"),
};
const audio = (out: MediaOutput) => ({
  audio_codec: z
    .enum(CONTAINER_AUDIO_CODECS[out] as [string, ...string[]])
    .optional()
    .describe("Audio codec; none removes the audio, copy keeps it as it is"),
  ...(["wav", "flac", "aiff"].includes(out)
    ? {}
    : { audio_bitrate: z.number().int().min(8).max(512).optional().describe("Audio bitrate, kbit/s") }),
  ...(["wav", "flac", "aiff"].includes(out)
    ? {}
    : {
        audio_qscale: z
          .number()
          .min(-1)
          .max(10)
          .optional()
          .describe("Variable-bitrate quality of mp3 (0 best … 9), vorbis (-1 … 10 best) and aac"),
      }),
  audio_frequency: z
    .number()
    .int()
    .refine(
      (n) => [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 88200, 96000].includes(n),
      "must be one of 8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 88200, 96000",
    )
    .optional()
    .describe("Sample rate, Hz"),
  audio_channels: z
    .number()
    .int()
    .min(1)
    .max(["mp3", "wma", "wmv"].includes(out) ? 2 : 8)
    .optional()
    .describe("Channels (1 mono, 2 stereo, …)"),
});
const fit = z.enum(["max", "crop", "scale", "pad"]);
const video = (out: Exclude<VideoOutput, "gif">) => ({
  video_codec: z
    .enum(CONTAINER_VIDEO_CODECS[out] as [string, ...string[]])
    .optional()
    .describe(`Video codec (default ${defaultVideoCodec(out)}); copy keeps the stream as it is`),
  crf: z
    .number()
    .int()
    .min(0)
    .max(63)
    .optional()
    .describe(
      "Constant rate factor: 0–51 for x264/x265 (default 23/28), 0–63 for vp8/vp9 (default 10/32); lower is better",
    ),
  preset: z.enum(PRESETS).optional().describe("Encoder speed: ultrafast … veryslow (default veryfast)"),
  profile: z.enum(["baseline", "main", "high"]).optional().describe("H.264 profile (x264); main for x265"),
  width: side.optional().describe("Output width in pixels"),
  height: side.optional().describe("Output height in pixels"),
  fit: fit
    .optional()
    .describe(
      "max (default): inside the box, never enlarged; crop: fill and crop; scale: exactly; pad: inside and padded with black",
    ),
  fps: z.number().min(1).max(120).optional().describe("Frame rate, frames per second"),
});

/** The convert parameters for output `out`. */
export function convertParamsFor(out: MediaOutput) {
  if ((AUDIO_OUTPUTS as readonly string[]).includes(out)) return z.object({ ...audio(out), ...common });
  if (out === "gif") {
    return z.object({
      width: side.optional(),
      height: side.optional(),
      fit: z.enum(["max", "crop", "scale"]).optional().describe("max (default), crop or scale"),
      fps: z.number().min(1).max(50).optional().describe("Frame rate of the GIF (default the video's, at most 15)"),
      ...common,
    });
  }
  return z.object({ ...video(out as Exclude<VideoOutput, "gif">), ...audio(out), ...common });
}

type AnyConvert = Partial<
  Record<
    | "video_codec"
    | "crf"
    | "profile"
    | "width"
    | "height"
    | "fps"
    | "fit"
    | "audio_codec"
    | "audio_bitrate"
    | "audio_qscale"
    | "audio_frequency"
    | "audio_channels"
    | "trim_start"
    | "trim_end",
    unknown
  >
>;

/** Creation-time checks across parameters of convert to `out` (422 messages). */
export function checkConvert(p: AnyConvert, out: MediaOutput): string[] {
  const errors: string[] = [];
  const vc = p.video_codec as string | undefined;
  const encodes = vc !== "copy"; // with copy, the encoder's options are ignored (inapplicableConvert)
  if (encodes && typeof p.crf === "number" && p.crf > 51 && vc !== undefined && !["vp8", "vp9"].includes(vc))
    errors.push(`crf: ${vc} takes 0–51.`);
  if (
    encodes &&
    p.profile &&
    vc &&
    !["x264", "h264"].includes(vc) &&
    !(p.profile === "main" && ["x265", "h265"].includes(vc))
  )
    errors.push(`profile: ${p.profile} is an H.264 profile; ${vc} does not take it.`);
  const ac = (p.audio_codec as string | undefined) ?? defaultAudioCodec(out);
  if (
    ac === "opus" &&
    typeof p.audio_frequency === "number" &&
    ![48000, 24000, 16000, 12000, 8000].includes(p.audio_frequency)
  )
    errors.push("audio_frequency: opus takes 8000, 12000, 16000, 24000 or 48000.");
  if (typeof p.trim_start === "number" && typeof p.trim_end === "number" && p.trim_end <= p.trim_start)
    errors.push("trim_end must be after trim_start.");
  return errors;
}

const ENCODER_KEYS = ["width", "height", "fit", "fps", "crf", "profile", "preset"] as const;
const AUDIO_ENCODER_KEYS = ["audio_bitrate", "audio_qscale", "audio_frequency", "audio_channels"] as const;

/**
 * Valid options that do not apply given the codecs (issue 31: CloudConvert's Job Builder sends
 * `audio_bitrate: 128` beside `audio_codec: "copy"`): with video_codec copy the video encoder's
 * options, with audio_codec copy or none the audio encoder's. Accepted and reported in result.warnings.
 */
export function inapplicableConvert(p: AnyConvert & { preset?: unknown }): { key: string; why: string }[] {
  const moot: { key: string; why: string }[] = [];
  // issue 44: CloudConvert takes fit with one side and keeps the aspect ratio (scaleFilter does the same); a crop or a
  // pad has no box to fill without the other side, so it is warned
  if (p.video_codec !== "copy" && (p.fit === "crop" || p.fit === "pad") && !p.width !== !p.height)
    moot.push({
      key: "fit",
      why: `${p.fit} needs both width and height; the video fits the ${p.width ? "width" : "height"} given as with fit max, keeping its aspect ratio`,
    });
  if (p.video_codec === "copy")
    for (const key of ENCODER_KEYS)
      if (p[key] !== undefined)
        moot.push({ key, why: "does not apply with video_codec copy (the video is kept as it is)" });
  const ac = p.audio_codec as string | undefined;
  if (ac === "copy" || ac === "none")
    for (const key of AUDIO_ENCODER_KEYS)
      if (p[key] !== undefined)
        moot.push({
          key,
          why: `does not apply with audio_codec ${ac} (${ac === "copy" ? "the audio is kept as it is" : "the audio is removed"})`,
        });
  return moot;
}

/** thumbnail of a video. */
export const thumbnailParams = z.object({
  timestamp: timeParam
    .optional()
    .describe("Where the frame is taken: seconds or HH:MM:SS[.fff] (default 10 % of the duration, at most 5 s)"),
  width: side.optional(),
  height: side.optional(),
  fit: z
    .enum(["max", "crop", "scale"])
    .optional()
    .describe("max (default): inside the box, never enlarged; crop: fill and crop; scale: exactly"),
});

/** watermark on a video: the one watermark schema (operations/watermark-params.ts), in pixels; `rotation` is accepted and not applied (a warning). */
export { watermarkParams } from "../watermark-params";
