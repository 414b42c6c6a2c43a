/**
 * The `odd` output of the WebAssembly image engine (issue 47): the picture encoded as PNG by ImageMagick, packaged as
 * an OpenDocument Drawing of one page its size — the same parts as the native engine's (native-protocol/odd.ts),
 * zipped with fflate, every member stored in package order (`mimetype` first, uncompressed: ODF 1.2 part 3 §3.3).
 */
import { zipSync, type Zippable } from "fflate";
import { oddMembers } from "../../../native-protocol/odd";

/** The odd of `png` (`width`×`height` pixels at `dpi` pixels per inch; 96 when the picture states none). */
export function oddPackage(png: Uint8Array, width: number, height: number, dpi = 96): Uint8Array {
  const files: Zippable = {};
  for (const m of oddMembers(png, width, height, dpi)) files[m.name] = [m.data, { level: 0 }];
  return zipSync(files);
}
