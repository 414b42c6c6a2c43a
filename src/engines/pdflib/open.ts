/**
 * Opening a PDF with pdf-lib (@cantoo/pdf-lib, which adds decryption and AES-256 encryption),
 * normalising its untyped errors into TaskError at this boundary (DESIGN.md principle 3):
 *  - OVER_BUDGET       bytes or pages beyond the budget (budget.ts), checked before the work;
 *  - INVALID_PASSWORD  encrypted and the password is missing or wrong;
 *  - OPEN_FAILED       not a PDF, no readable trailer/catalog/page tree, no pages, or a page
 *                      whose content stream is an image (sanity.ts).
 * Documents are opened with `updateMetadata: false` so Producer/ModDate are not rewritten.
 */
import { PDFDocument } from "@cantoo/pdf-lib";
import { TaskError } from "../errors";
import { checkBytes, checkPages, DEFAULT_PDF_BUDGET, type PdfBudget } from "./budget";
import { dropEncryptDict, installDecryptFixes } from "./decrypt-fixes";
import { passwordCandidates } from "./password";
import { checkContentStreams } from "./sanity";

/** Options of {@link openPdf}. */
export interface OpenOptions {
  /** File name used in error messages. */
  filename: string;
  /** Password (user or owner); absent = try the empty user password. */
  password?: string;
  budget?: PdfBudget;
}

/** Error messages pdf-lib uses for passwords (crypto.js: "Password incorrect", "NEEDS PASSWORD"). */
const PASSWORD_ERROR = /password/i;

import { looksLikePdf } from "../sniff";
export { looksLikePdf };

/**
 * Parses `bytes` into a PDFDocument, decrypting it when it is encrypted.
 * @throws TaskError OVER_BUDGET | INVALID_PASSWORD | OPEN_FAILED
 */
export async function openPdf(bytes: Uint8Array, opts: OpenOptions): Promise<PDFDocument> {
  const budget = opts.budget ?? DEFAULT_PDF_BUDGET;
  const name = opts.filename;
  checkBytes(bytes.byteLength, name, budget);
  if (!looksLikePdf(bytes)) throw new TaskError("OPEN_FAILED", `${name} is not a PDF (no %PDF- header).`);
  installDecryptFixes();
  let lastPasswordError: unknown;
  for (const password of passwordCandidates(opts.password)) {
    let doc: PDFDocument;
    try {
      doc = await PDFDocument.load(bytes, { password, updateMetadata: false, parseSpeed: Infinity });
    } catch (err) {
      if (err instanceof Error && PASSWORD_ERROR.test(err.message)) {
        lastPasswordError = err;
        continue;
      }
      throw new TaskError("OPEN_FAILED", `${name} could not be read as a PDF: ${describe(err)}.`, { cause: err });
    }
    let pages: number;
    try {
      pages = doc.getPageCount();
    } catch (err) {
      throw new TaskError("OPEN_FAILED", `${name} has no readable page tree: ${describe(err)}.`, { cause: err });
    }
    if (pages === 0) throw new TaskError("OPEN_FAILED", `${name} has no pages.`);
    checkPages(pages, name, budget);
    checkContentStreams(doc, name);
    dropEncryptDict(doc);
    return doc;
  }
  throw new TaskError(
    "INVALID_PASSWORD",
    opts.password === undefined
      ? `${name} is encrypted and needs a password: give it in the task's \`password\` parameter.`
      : `${name}: the password is wrong (neither the user nor the owner password of this PDF).`,
    { cause: lastPasswordError },
  );
}

function describe(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split("\n")[0].slice(0, 200).replace(/\.$/, "");
}
