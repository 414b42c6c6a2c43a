/**
 * Native ffmpeg (Debian's 5.1) for the media kind (engine table row "ffmpeg-native", issue 13):
 * the same requests as the WebAssembly engine, the same command built by
 * native-protocol/media/plan.ts, run as a process with the call's time and memory limits; and the
 * `command` operation's ffmpeg / ffprobe lines with /input and /output mapped onto the call's
 * folder. It takes what the WebAssembly engine's budget refuses (OVER_BUDGET hands the task on),
 * so it applies no budget of its own beyond those limits.
 *
 * Every input is opened with `-protocol_whitelist file` (so a playlist inside an input cannot
 * reach the network) and the command words pass checkFfmpegWords first.
 */
import { mkdir, open, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { MediaCommandRequest } from "../../native-protocol/command.ts";
import { checkFfmpegWords } from "../../native-protocol/command-args.ts";
import { FONT_FILES, type MediaRequest } from "../../native-protocol/media/formats.ts";
import { MediaPlanError, NOTHING_ENCODED, planRuns, type PlanPaths } from "../../native-protocol/media/plan.ts";
import { PROBE_ARGS, parseProbe, type MediaProbe } from "../../native-protocol/media/probe.ts";
import type { LocalFile } from "../../native-protocol/frame.ts";
import { which } from "../tools.ts";
import {
  NativeError,
  check,
  layOutCommand,
  localFile,
  localName,
  place,
  run,
  runUserCommand,
  tool,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";

/** Where Debian's fonts-dejavu-core puts the faces of FONT_FILES. */
const FONT_DIR = "/usr/share/fonts/truetype/dejavu";

/**
 * Demuxers whose file names other files (playlists and manifests). ffmpeg picks a demuxer by content, whatever the
 * upload is called, and `-protocol_whitelist file` does not stop a local playlist from naming local files: Debian's
 * ffmpeg 5.1 lets an HLS playlist read any local file of a media extension by its absolute path. A media input is
 * one file, so an input detected as one of these is refused before ffmpeg runs on it.
 */
const PLAYLIST_DEMUXERS = new Set(["hls", "dash", "imf", "concat", "webm_dash_manifest"]);

/** Inserts `-protocol_whitelist file` before every `-i` of an ffmpeg argument list. */
function fileOnly(args: string[]): string[] {
  return args.flatMap((a, i) =>
    a === "-i" && args[i - 1] !== "-protocol_whitelist" ? ["-protocol_whitelist", "file", a] : [a],
  );
}

/** The last lines of a tool's output worth showing. */
function tail(text: string, work: string): string {
  const noise =
    /^\s*(Input|Output|Stream|Duration|Metadata|major_brand|minor_version|compatible_brands|encoder|handler_name|vendor_id|creation_time|frame=|size=|video:|Conversion failed!|Press \[q\]|\[out#|Last message repeated)/;
  return text
    .replaceAll(work, "")
    .split("\n")
    .filter((l) => l.trim() && !noise.test(l))
    .slice(-3)
    .join(" | ")
    .replace(/\s+/g, " ")
    .slice(0, 400);
}

/**
 * The playlist demuxer a file's first bytes select (HLS, ffconcat, DASH, IMF), or null. Read before ffprobe runs: its
 * detection opens the files a playlist names (issue 45's egress sweep: an HLS playlist naming a local .ts had that file
 * opened while it was probed, before the probe's answer refused the playlist).
 */
export async function playlistOf(path: string): Promise<string | null> {
  const file = await open(path, "r");
  try {
    const head = new Uint8Array(4096);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const text = new TextDecoder("latin1")
      .decode(head.subarray(0, bytesRead))
      .replace(/^\xEF\xBB\xBF/, "")
      .trimStart();
    if (text.startsWith("#EXTM3U")) return "hls";
    if (/^ffconcat\s+version/.test(text)) return "concat";
    if (/<MPD[\s>]/.test(text)) return "dash";
    if (/<CompositionPlaylist[\s>]/.test(text)) return "imf";
    return null;
  } finally {
    await file.close();
  }
}

/** The refusal of a playlist input (of demuxer `kind`). */
const playlistRefused = (filename: string, kind: string) =>
  new NativeError(
    "OPEN_FAILED",
    `${filename} is a playlist (${kind}), not an audio or video file: playlists are refused, they name other files.`,
  );

/** ffprobe of one file of the call. */
async function probeFile(call: NativeCall, path: string): Promise<{ probe: MediaProbe | null; why: string }> {
  const ffprobe = which("ffprobe");
  if (!ffprobe)
    throw new NativeError(
      "ENGINE_UNAVAILABLE",
      "ffprobe is not installed in the native engine (apt-get install ffmpeg).",
    );
  const r = await run(call, ffprobe, ["-protocol_whitelist", "file", ...PROBE_ARGS, path]);
  if (r.killed) throw new NativeError("TIMEOUT", "ffprobe did not finish within its time limit and was stopped.");
  const probe = r.code === 0 ? parseProbe(r.stdout) : null;
  return { probe, why: probe ? "" : tail(r.stderr, call.work) || "it holds no audio or video stream" };
}

async function runMedia(req: MediaRequest, call: NativeCall) {
  const ffmpeg = tool(call, "ffmpeg");
  const input = await place(call, localName("input", req.input.filename), req.input.data as Uint8Array | LocalFile);
  const listed = await playlistOf(input);
  if (listed) throw playlistRefused(req.input.filename, listed);
  const { probe, why } = await probeFile(call, input);
  if (!probe)
    throw new NativeError(
      "OPEN_FAILED",
      `${req.input.filename} is not an audio or video file ffmpeg can read${why ? `: ${why.replaceAll(basename(input), req.input.filename)}` : ""}.`,
    );
  if (PLAYLIST_DEMUXERS.has(probe.container)) throw playlistRefused(req.input.filename, probe.container);
  await mkdir(join(call.work, "out"));
  const paths: PlanPaths = { input, output: join(call.work, "out", `output.${req.outputFormat}`) };
  if (req.op === "watermark") {
    if (req.image)
      paths.image = await place(call, localName("mark", req.image.filename), req.image.data as Uint8Array | LocalFile);
    else {
      paths.textFile = join(call.work, "text.txt");
      await writeFile(paths.textFile, req.options.text ?? "");
      paths.fontDir = FONT_DIR;
      if (!FONT_FILES[req.options.font_name ?? "DejaVu Sans"])
        throw new NativeError("UNSUPPORTED", `The font ${req.options.font_name} is not installed.`);
    }
  }
  let runs: string[][];
  try {
    runs = planRuns(req, probe, paths);
  } catch (err) {
    if (err instanceof MediaPlanError) throw new NativeError(err.code, err.message);
    throw err;
  }
  let r!: Awaited<ReturnType<typeof run>>;
  for (const args of runs) {
    r = await run(call, ffmpeg.path, fileOnly(args));
    check(
      r,
      "ffmpeg",
      (text) =>
        new NativeError(
          "CONVERSION_FAILED",
          `ffmpeg could not ${req.op} ${req.input.filename}: ${tail(text, call.work)}`,
        ),
    );
  }
  if (NOTHING_ENCODED.test(r.stderr))
    throw new NativeError(
      "CONVERSION_FAILED",
      `${req.input.filename} holds nothing ffmpeg could decode to ${req.outputFormat} (it may be cut short or damaged).`,
    );
  // answered from disk: streamed on a framed call, read into the answer on a buffered one (server.ts)
  const data = await localFile(call, join("out", `output.${req.outputFormat}`)).catch(() => null);
  if (!data?.size)
    throw new NativeError(
      "CONVERSION_FAILED",
      `ffmpeg wrote no output for ${req.input.filename}: ${tail(r.stderr, call.work)}`,
    );
  return { data, probe, wasmMemoryBytes: 0 };
}

async function runCommand(req: MediaCommandRequest, call: NativeCall) {
  const ffmpeg = tool(call, "ffmpeg");
  const exe = req.command === "ffprobe" ? which("ffprobe") : ffmpeg.path;
  if (!exe || !["ffmpeg", "ffprobe"].includes(req.command))
    throw new NativeError(
      "UNSUPPORTED",
      `command ${req.command} is not offered for engine ffmpeg; use ffmpeg, ffprobe.`,
    );
  const { words, outDir } = await layOutCommand(call, req, checkFfmpegWords);
  // the user's /input/… and /output/… (whole words or inside a filter argument) onto this call's folder
  const mapped = words.map((w) =>
    w.replace(
      /(^|[=:,;'"[])\/(input|output)(?=\/|$|[:,;'"\]])/g,
      (_m, pre: string, root: string) => `${pre}${join(call.work, root)}`,
    ),
  );
  const args =
    req.command === "ffprobe"
      ? ["-protocol_whitelist", "file", ...mapped]
      : ["-nostdin", "-nostats", ...fileOnly(mapped)];
  const answer = await runUserCommand(call, req, words, { exe, args, outDir }, (output) => tail(output, ""));
  return { ...answer, wasmMemoryBytes: 0 };
}

/**
 * The native media engine (kind media: run, command). It takes files (issue 35): a framed call's input reaches
 * `run` (and `command`) as a LocalFile in the call's folder, and `run` answers its output as one, so a multi-GB video
 * is never held in memory; `command`'s inputs likewise (issue 49: over the row's `streamOver`), its outputs answered as
 * files.
 */
export const ffmpegNative = {
  kind: "media",
  methods: { run: runMedia, command: runCommand },
  files: true,
} satisfies NativeEngineDef<"media">;

export default ffmpegNative;
