/** Pieces shared by the audio/video operations. */
import type { MediaRequest } from "../../../native-protocol/media/formats";
import type { UsedEngine } from "../../engines/use";
import { engineCall, outputName, readInputOrStream } from "../kit";
import type { InputFile, OperationContext, OperationOutput } from "../types";

/** MIME types of the media outputs (the runner's table may not know them all). */
export const MEDIA_MIME: Record<string, string> = {
  mp4: "video/mp4",
  m4v: "video/x-m4v",
  mov: "video/quicktime",
  mkv: "video/x-matroska",
  webm: "video/webm",
  avi: "video/x-msvideo",
  gif: "image/gif",
  flv: "video/x-flv",
  wmv: "video/x-ms-wmv",
  aiff: "audio/aiff",
  wma: "audio/x-ms-wma",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  opus: "audio/opus",
  flac: "audio/flac",
  aac: "audio/aac",
  m4a: "audio/mp4",
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
};

/** What one media request asks beside its op and input: the output format, options (and a watermark's image). */
export type MediaAsk<O extends MediaRequest["op"]> = Omit<Extract<MediaRequest, { op: O }>, "op" | "input">;

/**
 * Runs `op` of the media engine `used` on each input in turn (streamed where the row takes streams), one output a
 * file, named as the task's `filename` says or after its input; `ask` says what is asked of each input. The
 * engine's version is what its last call reported.
 */
export async function eachMedia<O extends MediaRequest["op"]>(
  { engine, row }: UsedEngine<"media">,
  ctx: OperationContext,
  op: O,
  inputs: InputFile[],
  filename: string | undefined,
  ask: (input: InputFile) => MediaAsk<O>,
): Promise<OperationOutput> {
  const files: OperationOutput["files"] = [];
  let version = row.version;
  for (const [i, input] of inputs.entries()) {
    const a = ask(input);
    const data = await readInputOrStream(input, ctx, row);
    const req = { op, input: { data, filename: input.filename }, ...a } as Extract<MediaRequest, { op: O }>;
    const r = await engineCall(engine.run(req), input.filename, row.name);
    version = r.engineVersion;
    files.push({
      filename: outputName({ filename, input: input.filename, ext: a.outputFormat, index: i + 1, numbered: false }),
      data: r.data,
      contentType: MEDIA_MIME[a.outputFormat],
    });
  }
  return { files, engine: { name: row.name, version } };
}
