/**
 * The `command` operation (contract §6) with engine imagemagick (`convert`, `magick`, `identify`)
 * or graphicsmagick (`gm`): inputs are laid out under input/<task_name>/<filename> in the call's
 * directory, the user's /input/ and /output/ paths are mapped onto it, the tool runs there with an
 * argument list (no shell), and every file written under output/ becomes an output file. The engine takes files
 * (issue 49, `files: true`): an input the Worker streams (over the row's `streamOver`) is in the call's folder already
 * and is moved to input/<task>/<filename>, and the outputs go back as files, streamed from disk on a framed call.
 */
import { join } from "node:path";
import type { CommandRequest } from "../../native-protocol/command.ts";
import { COMMANDS, checkWords } from "../../native-protocol/command-args.ts";
import { which } from "../tools.ts";
import { NativeError, layOutCommand, runUserCommand, tool, type NativeCall, type NativeEngineDef } from "./common.ts";
import { magickEnv } from "./imagemagick.ts";

async function runCommand(req: CommandRequest, call: NativeCall) {
  const commands = COMMANDS[req.engine];
  if (!commands?.includes(req.command))
    throw new NativeError(
      "UNSUPPORTED",
      `command ${req.command} is not offered for engine ${req.engine}; use ${(commands ?? []).join(", ")}.`,
    );
  const { words, outDir } = await layOutCommand(call, req, checkWords);
  const mapped = words.map((w) =>
    w.replace(
      /(^|^@|:|:@)\/(input|output)(?=\/|$)/,
      (_m, pre: string, root: string) => `${pre}${join(call.work, root)}`,
    ),
  );
  const t = tool(call, req.engine);
  // gm takes its subcommand as the first argument; IM 7's `magick` takes `identify` the same way; IM 6 has its own identify.
  const im7 = t.path.endsWith("magick");
  const [exe, args] =
    req.command !== "identify"
      ? [t.path, mapped]
      : im7
        ? [t.path, ["identify", ...mapped]]
        : [which("identify") ?? t.path, mapped];
  // a large picture's pixel cache past a share of the tool's memory limit goes to the call's folder (its disk
  // reservation), not to /tmp: ImageMagick's limits as for the image rows (imagemagick.ts magickEnv), GraphicsMagick's
  // temporary folder likewise
  const env = req.engine === "imagemagick" ? magickEnv(call) : { MAGICK_TMPDIR: call.work };
  return runUserCommand(call, req, words, { exe, args, outDir, env }, (output) =>
    output.trim().split("\n").slice(-3).join(" ").slice(0, 500),
  );
}

/**
 * The command engine (kind command: run); the request's `engine` names its tool (imagemagick or graphicsmagick). It
 * takes files (issue 49).
 */
export const command = {
  kind: "command",
  methods: { run: runCommand },
  files: true,
} satisfies NativeEngineDef<"command">;

export default command;
