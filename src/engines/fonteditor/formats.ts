/**
 * The font pairs the JavaScript font engine (row "fonteditor", issue 47) converts, importable without
 * loading fonteditor-core: TrueType, OpenType/CFF, WOFF 1.0 and uncompressed EOT in; TrueType, WOFF,
 * EOT and SVG fonts out; and OpenType/CFF out of the inputs that can carry CFF outlines unchanged (an
 * OpenType file, a WOFF: the engine writes no CFF, so a TrueType-flavoured one hands off UNSUPPORTED to
 * the native row). WOFF2 (in or out), TrueType → OpenType and SVG in stay with the native row (engine.ts).
 */
import type { FontFormat } from "../../../native-protocol/font";

/** Input formats this engine reads. */
export const FONTEDITOR_INPUTS = ["ttf", "otf", "woff", "eot"] as const;
/** Output formats it writes from any of its inputs. */
export const FONTEDITOR_OUTPUTS = ["ttf", "woff", "eot", "svg"] as const satisfies readonly FontFormat[];

/** The row's pairs: {@link FONTEDITOR_INPUTS} × {@link FONTEDITOR_OUTPUTS}, and otf, woff → otf. */
export const FONTEDITOR_PAIRS: readonly { input: string; output: string }[] = [
  ...FONTEDITOR_INPUTS.flatMap((input) => FONTEDITOR_OUTPUTS.map((output) => ({ input, output }))),
  { input: "otf", output: "otf" },
  { input: "woff", output: "otf" },
];
