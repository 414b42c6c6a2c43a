/**
 * Saving a pdf-lib document the way every page operation needs it: no default page added to an empty
 * document, form field appearances left as they are (regenerating them would change the document),
 * all objects in one tick (a Worker gains nothing from yielding inside one task, and yielding costs
 * time), and a classic cross-reference table without object streams: pdf-lib compresses those
 * with deflate in JS, which made saving 2–3× slower for ~6 % smaller files (merge of 57 pages:
 * 15–35 ms vs 4–7 ms). AES-256 documents go through encrypt-fixes.ts first.
 */
import { PDFName, PDFRawStream, type PDFDocument } from "@cantoo/pdf-lib";
import { TaskError } from "../errors";
import { prepareAes256Save } from "./encrypt-fixes";

/**
 * Before a save with a classic cross-reference table: drops the parsed object-stream and xref-stream
 * containers (their objects were already read out; pdf-lib skips them but still counts them) and
 * recomputes the highest object number, so the trailer's /Size is one plus the highest object
 * number written (ISO 32000-1 §7.5.5; qpdf --check warns otherwise).
 */
function tidyForClassicXref(doc: PDFDocument): void {
  const ctx = doc.context;
  let max = 0;
  for (const [ref, obj] of ctx.enumerateIndirectObjects()) {
    const type = obj instanceof PDFRawStream ? obj.dict.get(PDFName.of("Type")) : undefined;
    if (type === PDFName.of("ObjStm") || type === PDFName.of("XRef")) ctx.delete(ref);
    else max = Math.max(max, ref.objectNumber);
  }
  ctx.largestObjectNumber = max;
}

/**
 * Serialises `doc` to bytes.
 * @throws TaskError CONVERSION_FAILED when pdf-lib cannot write the document (message kept).
 */
export async function savePdf(doc: PDFDocument, filename: string): Promise<Uint8Array> {
  try {
    await prepareAes256Save(doc);
    tidyForClassicXref(doc);
    return await doc.save({
      addDefaultPage: false,
      updateFieldAppearances: false,
      objectsPerTick: Infinity,
      useObjectStreams: false,
    });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new TaskError("CONVERSION_FAILED", `${filename} could not be written: ${msg}`, { cause: err });
  }
}
