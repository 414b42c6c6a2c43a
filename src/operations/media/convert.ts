/**
 * convert of audio and video with the media engine (ffmpeg, issue 13): video → video, video →
 * audio (the first audio track), audio → audio, animated GIF → video. One handler per output format
 * (schemas.ts), all running the same code.
 */
import {
  AUDIO_INPUTS,
  AUDIO_OUTPUTS,
  VIDEO_INPUTS,
  VIDEO_OUTPUTS,
  type MediaOptions,
  type MediaOutput,
} from "../../../native-protocol/media/formats";
import { useEngine } from "../../engines/use";
import type { FormatPair, OperationHandler } from "../types";
import { eachMedia } from "./common";
import { checkConvert, convertParamsFor, inapplicableConvert } from "./schemas";

/** The input formats of convert to `out`: video to anything, audio to audio; a GIF only to video. */
function pairsTo(out: MediaOutput): FormatPair[] {
  const audioOut = (AUDIO_OUTPUTS as readonly string[]).includes(out);
  // ogg is both (Theora video, or Vorbis audio alone): listed once
  const inputs = audioOut
    ? [...new Set([...VIDEO_INPUTS.filter((f) => f !== "gif"), ...AUDIO_INPUTS])]
    : VIDEO_INPUTS.filter((f) => f !== "gif" || out !== "gif");
  return inputs.map((input) => ({ input, output: out }));
}

const OPTION_KEYS = [
  "video_codec",
  "crf",
  "preset",
  "profile",
  "width",
  "height",
  "fit",
  "fps",
  "audio_codec",
  "audio_bitrate",
  "audio_qscale",
  "audio_frequency",
  "audio_channels",
  "trim_start",
  "trim_end",
] as const;

/** The convert handler for output format `out`. */
function mediaConvert(out: MediaOutput): OperationHandler<Record<string, unknown>> {
  return {
    operation: "convert",
    kind: "media",
    formats: pairsTo(out),
    params: convertParamsFor(out) as never,
    credits: 1,
    takesInput: true,
    requiresOutputFormat: true,
    check: (p) => checkConvert(p, out),
    inapplicable: (p) => inapplicableConvert(p),
    async run(inputs, p, ctx) {
      const used = useEngine(ctx, "media", "convert");
      const options = Object.fromEntries(
        OPTION_KEYS.filter((k) => p[k] !== undefined).map((k) => [k, p[k]]),
      ) as MediaOptions;
      return eachMedia(used, ctx, "convert", inputs, p.filename, () => ({ outputFormat: out, options }));
    },
  };
}

/** The convert rows, one per output format. */
export const MEDIA_CONVERT_HANDLERS = [...VIDEO_OUTPUTS, ...AUDIO_OUTPUTS].map(mediaConvert);
