/**
 * The `odd` image output of the native engine (issue 34): the OpenDocument Drawing of one picture
 * (native-protocol/odd.ts writes its parts, shared with the WebAssembly engine), zipped here as a stored package (the
 * `mimetype` first and uncompressed, as ODF requires): nothing of the user's runs in LibreOffice to make it, and the
 * test reads it back with LibreOffice. Pure (the zip is lib/stored-zip.ts's).
 */
import { oddMembers } from "../../native-protocol/odd.ts";
import { storedZip } from "../lib/stored-zip.ts";

export { ODD_MIME } from "../../native-protocol/odd.ts";

/** The odd (OpenDocument Drawing) of one PNG picture of `width`×`height` pixels at `dpi` pixels per inch. */
export function oddOfPng(png: Uint8Array, width: number, height: number, dpi = 96): Uint8Array {
  return storedZip(oddMembers(png, width, height, dpi));
}
