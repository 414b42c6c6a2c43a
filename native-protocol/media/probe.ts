/**
 * What an audio or video file is, as ffprobe says (issue 13): the arguments to ask it
 * ({@link PROBE_ARGS}) and its JSON read into a {@link MediaProbe}. Pure, shared by the WebAssembly
 * and the native ffmpeg; imports nothing.
 */

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
  const isPic = (s: Record<string, unknown>) =>
    (s.disposition as Record<string, number> | undefined)?.attached_pic === 1;
  const videos = streams.filter((s) => s.codec_type === "video" && num(s.width) > 0);
  const v = videos.find((s) => !isPic(s)) ?? videos[0];
  const a = streams.find((s) => s.codec_type === "audio");
  if (!v && !a) return null;
  const durations = [num(doc.format.duration), ...streams.map((s) => num(s.duration))].filter(
    (d) => Number.isFinite(d) && d > 0,
  );
  const fps = v
    ? ([num(v.avg_frame_rate), num(v.r_frame_rate)].find((f) => Number.isFinite(f) && f > 0 && f <= 1000) ?? 25)
    : 0;
  return {
    container: String(doc.format.format_name ?? ""),
    duration: durations.length ? durations[0]! : null,
    video: v
      ? { codec: String(v.codec_name ?? ""), width: num(v.width), height: num(v.height), fps, attachedPic: isPic(v) }
      : null,
    audio: a
      ? { codec: String(a.codec_name ?? ""), sampleRate: num(a.sample_rate) || 0, channels: num(a.channels) || 0 }
      : null,
  };
}
