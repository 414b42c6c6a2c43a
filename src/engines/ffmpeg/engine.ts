/**
 * The ffmpeg engine in WebAssembly (engine table row "ffmpeg", kind media): convert, thumbnail and
 * watermark of audio and video (native-protocol/media/plan.ts builds the command) and the `command`
 * operation's ffmpeg/ffprobe lines, each call in a fresh core (core.ts) with its files in MEMFS.
 *
 * Every call probes its input first (ffprobe, headers only) and answers OVER_BUDGET with the
 * numbers before decoding anything when the work exceeds the budget (types.ts
 * DEFAULT_MEDIA_BUDGET), so routing hands it to the native ffmpeg. Failures are data:
 * OPEN_FAILED (not media ffmpeg reads), CONVERSION_FAILED (ffmpeg failed; its last lines),
 * OVER_BUDGET, UNSUPPORTED (a refused command line), TIMEOUT.
 */
import { checkFfmpegWords, pathSegment, shellQuote, splitArguments } from "../../../native-protocol/command-args";
import { overBudget, type MediaBudget } from "../../../native-protocol/media/budget";
import { FONT_FILES, type MediaRequest } from "../../../native-protocol/media/formats";
import { MediaPlanError, NOTHING_ENCODED, planRuns, type PlanPaths } from "../../../native-protocol/media/plan";
import { PROBE_ARGS, parseProbe, type MediaProbe } from "../../../native-protocol/media/probe";
import type { TaskErrorCode } from "../errors";
import { newCore, type Core } from "./core";
import { DEFAULT_MEDIA_BUDGET } from "./budget";
import type { MediaCommandRequest, MediaEngine } from "../kinds/media";
import { FFMPEG_ENGINE } from "./version";

/** Where the engine's assets come from on this platform (runtime/ seam). */
export interface FfmpegLoader {
  /** The compiled @ffmpeg/core module. */
  loadWasm(): Promise<WebAssembly.Module>;
  /** The shipped fonts by file name ({@link FONT_FILES} values), for text watermarks. */
  loadFonts(): Promise<Record<string, Uint8Array>>;
  budget?: Partial<MediaBudget>;
  /** Cap of one ffmpeg run, milliseconds (honoured where the clock advances during a run: Node, browsers). */
  timeoutMs?: number;
}

const version = FFMPEG_ENGINE.version;
const fail = (code: TaskErrorCode, message: string) => ({
  ok: false as const,
  error: { code, message, retryable: false },
  engineVersion: version,
});

/** The last meaningful console lines, for an error message. */
function tail(lines: string[], n = 3): string {
  const noise =
    /^\s*(Input|Output|Stream|Duration|Metadata|major_brand|minor_version|compatible_brands|encoder|handler_name|vendor_id|creation_time|frame=|size=|video:|Conversion failed!|Press \[q\]|\[out#|Last message repeated)/;
  return lines
    .filter((l) => l.trim() && !noise.test(l))
    .slice(-n)
    .join(" | ")
    .replace(/\s+/g, " ")
    .slice(0, 400);
}

/** x265 never returns in this single-threaded build (it spins after "disabling lookahead-slices"). */
const X265 = /^(libx265|hevc|h265|x265)$/i;

/** A file name's extension as a safe suffix (".mp4"), or "". */
const suffix = (name: string) => {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(name);
  return m ? `.${m[1]!.toLowerCase()}` : "";
};

/** The WebAssembly ffmpeg engine over `loader`'s module and fonts; nothing is loaded before the first call. */
export function createFfmpegEngine(loader: FfmpegLoader): MediaEngine<Uint8Array> {
  const budget: MediaBudget = { ...DEFAULT_MEDIA_BUDGET, ...loader.budget };
  let module: Promise<WebAssembly.Module> | undefined;
  let fonts: Promise<Record<string, Uint8Array>> | undefined;
  let lastMemory = 0;
  const core = async () => newCore(await (module ??= loader.loadWasm()));

  /** ffprobe of one file already in `c`'s file system, and ffprobe's complaint when it reads nothing. */
  const probeIn = (c: Core, path: string, name: string): { probe: MediaProbe | null; why: string } => {
    const from = c.stderr.length;
    c.ffprobe([...PROBE_ARGS, path]);
    const probe = parseProbe(c.stdout.splice(0).join("\n"));
    const why = tail(c.stderr.slice(from), 2).replaceAll(path, name);
    return { probe, why: probe ? "" : why || "it holds no audio or video stream" };
  };

  return {
    async run(req: MediaRequest) {
      const t0 = Date.now();
      const input = req.input.data;
      const image = req.op === "watermark" ? req.image?.data : undefined;
      // a stream or a file is the native engine's (issue 35: larger than this engine's budget); routing never sends one here
      if (!(input instanceof Uint8Array) || (image && !(image instanceof Uint8Array)))
        return fail(
          "UNSUPPORTED",
          "The WebAssembly ffmpeg takes files as bytes; a streamed file is for native ffmpeg.",
        );
      try {
        const c = await core();
        for (const dir of ["/in", "/out", "/fonts"]) c.FS.mkdir(dir);
        const paths: PlanPaths = {
          input: `/in/input${suffix(req.input.filename)}`,
          output: `/out/output.${req.outputFormat}`,
        };
        c.FS.writeFile(paths.input, input);
        const { probe: p, why } = probeIn(c, paths.input, req.input.filename);
        if (!p)
          return fail(
            "OPEN_FAILED",
            `${req.input.filename} is not an audio or video file ffmpeg can read${why ? `: ${why}` : ""}.`,
          );
        const over = overBudget(req, p, input.byteLength, budget);
        if (over) return fail("OVER_BUDGET", `${req.input.filename}: ${over}.`);
        if (req.op === "convert" && X265.test(req.options.video_codec ?? ""))
          return fail(
            "UNSUPPORTED",
            "x265 does not run in ffmpeg's WebAssembly build (it never returns); native ffmpeg encodes it.",
          );
        const runFrom = c.lines.length;
        if (req.op === "watermark") {
          if (req.image && image) {
            paths.image = `/in/mark${suffix(req.image.filename)}`;
            c.FS.writeFile(paths.image, image);
          } else {
            paths.textFile = "/in/text.txt";
            c.FS.writeFile(paths.textFile, req.options.text ?? "");
            paths.fontDir = "/fonts";
            const file = FONT_FILES[req.options.font_name ?? "DejaVu Sans"] ?? FONT_FILES["DejaVu Sans"]!;
            const font = (await (fonts ??= loader.loadFonts()))[file];
            if (!font)
              return fail("UNSUPPORTED", `The font ${req.options.font_name} is not shipped with the ffmpeg engine.`);
            c.FS.writeFile(`/fonts/${file}`, font);
          }
        }
        let code = 0;
        for (const args of planRuns(req, p, paths)) if ((code = c.ffmpeg(args, loader.timeoutMs)) !== 0) break;
        lastMemory = c.memoryBytes();
        let data: Uint8Array | undefined;
        try {
          data = c.FS.readFile(paths.output);
        } catch {
          data = undefined;
        }
        if (code === 0 && c.lines.slice(runFrom).some((l) => NOTHING_ENCODED.test(l)))
          return fail(
            "CONVERSION_FAILED",
            `${req.input.filename} holds nothing ffmpeg could decode to ${req.outputFormat} (it may be cut short or damaged).`,
          );
        if (code !== 0 || !data?.byteLength) {
          const timedOut =
            c.lines.some((l) => /Exiting normally, received signal|timeout/i.test(l)) && loader.timeoutMs;
          if (timedOut)
            return fail("TIMEOUT", `ffmpeg did not finish ${req.input.filename} within ${loader.timeoutMs} ms.`);
          return fail(
            "CONVERSION_FAILED",
            `ffmpeg could not ${req.op} ${req.input.filename}: ${tail(c.lines.slice(runFrom)) || `exit code ${code}`}`,
          );
        }
        return {
          ok: true as const,
          engineVersion: version,
          data,
          probe: p,
          wasmMemoryBytes: lastMemory,
          ms: Date.now() - t0,
        };
      } catch (err) {
        if (err instanceof MediaPlanError) return fail(err.code, err.message);
        return fail(
          "CONVERSION_FAILED",
          `ffmpeg failed on ${req.input.filename}: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    },

    async command(req: MediaCommandRequest) {
      const t0 = Date.now();
      const split = splitArguments(req.arguments);
      if ("error" in split) return fail("UNSUPPORTED", `arguments: ${split.error}.`);
      const problem = checkFfmpegWords(split.words);
      if (problem) return fail("UNSUPPORTED", `arguments: ${problem}`);
      if (split.words.some((w) => X265.test(w)))
        return fail(
          "UNSUPPORTED",
          "x265 does not run in ffmpeg's WebAssembly build (it never returns); native ffmpeg encodes it.",
        );
      // issue 49: only the native row takes streamed inputs (its `streamOver`); a stream here is handed on
      if (req.inputs.some((f) => !(f.data instanceof Uint8Array)))
        return fail("UNSUPPORTED", "ffmpeg in WebAssembly takes a command's inputs as bytes, not as streams.");
      const inputs = req.inputs as { task: string; filename: string; data: Uint8Array }[];
      const total = inputs.reduce((n, f) => n + f.data.byteLength, 0);
      if (total > budget.maxBytes)
        return fail(
          "OVER_BUDGET",
          `the inputs are ${(total / 1e6).toFixed(1)} MB; ffmpeg in WebAssembly takes up to ${(budget.maxBytes / 1e6).toFixed(0)} MB.`,
        );
      try {
        const c = await core();
        c.FS.mkdir("/input");
        c.FS.mkdir("/output");
        const placed: { path: string; filename: string }[] = [];
        for (const f of inputs) {
          const dir = `/input/${pathSegment(f.task)}`;
          try {
            c.FS.mkdir(dir);
          } catch {
            // a second file of the same task
          }
          const path = `${dir}/${pathSegment(f.filename)}`;
          c.FS.writeFile(path, f.data);
          placed.push({ path, filename: f.filename });
        }
        if (req.command === "ffmpeg") {
          // the work of decoding and encoding every input whole (a command may do less; this is what it can do)
          for (const f of placed) {
            const { probe: p } = probeIn(c, f.path, f.filename);
            const over = p && overBudget({ op: "command", outputFormat: "mp4" }, p, 0, budget);
            if (over) return fail("OVER_BUDGET", `${f.filename}: ${over}.`);
          }
          c.lines.length = 0;
        }
        c.FS.chdir("/output");
        const code =
          req.command === "ffprobe" ? c.ffprobe(split.words) : c.ffmpeg(["-nostats", ...split.words], loader.timeoutMs);
        lastMemory = c.memoryBytes();
        const output = c.lines.join("\n") + (c.lines.length ? "\n" : "");
        if (code !== 0) return fail("CONVERSION_FAILED", `${req.command} exited with code ${code}: ${tail(c.lines)}`);
        const names = c.FS.readdir("/output")
          .filter((n) => n !== "." && n !== ".." && c.FS.isFile(c.FS.stat(`/output/${n}`).mode))
          .sort();
        const files = names.map((n) => ({ filename: n, data: c.FS.readFile(`/output/${n}`) }));
        const line = [req.command, ...split.words].map(shellQuote).join(" ");
        return {
          ok: true as const,
          engineVersion: version,
          files,
          command: line,
          ...(req.capture_output ? { output } : {}),
          wasmMemoryBytes: lastMemory,
          ms: Date.now() - t0,
        };
      } catch (err) {
        return fail("CONVERSION_FAILED", `${req.command} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    },

    async info() {
      return { engineVersion: version, wasmMemoryBytes: lastMemory };
    },
  };
}
