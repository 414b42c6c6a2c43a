/**
 * Saving a pdf-lib document the way every page operation needs it: no default page added to an empty
 * document, form field appearances left as they are (regenerating them would change the document),
 * object streams as pdf-lib chooses for the header version (always for AES-256, whose minimum
 * version is 1.7), all objects in one tick (a Worker gains nothing from yielding inside one task,
 * and yielding costs time). AES-256 documents go through encrypt-fixes.ts first.
 */
import type { PDFDocument } from "@cantoo/pdf-lib";
import { TaskError } from "../errors";
import { prepareAes256Save } from "./encrypt-fixes";

/**
 * Serialises `doc` to bytes.
 * @throws TaskError CONVERSION_FAILED when pdf-lib cannot write the document (message kept).
 */
export async function savePdf(doc: PDFDocument, filename: string): Promise<Uint8Array> {
  try {
    await prepareAes256Save(doc);
    return await doc.save({ addDefaultPage: false, updateFieldAppearances: false, objectsPerTick: Infinity });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new TaskError("CONVERSION_FAILED", `${filename} could not be written: ${msg}`, { cause: err });
  }
}
