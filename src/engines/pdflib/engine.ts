/**
 * The pdf-lib engine (@cantoo/pdf-lib, pure JavaScript): the PDF kind's page, crypt and watermark
 * methods (kinds/pdf.ts). It runs wherever JavaScript runs — the api Worker, Node, a browser — and
 * answers with data: every TaskError thrown inside becomes `{ok: false, error}` here, at the
 * adapter boundary (DESIGN.md principle 3).
 */
import { TaskError, toFailure } from "../errors";
import type { EngineResult } from "../errors";
import { resolvePages } from "../kinds/pdf-pages";
import type { PdfEngine, PdfInput, PdfStreamableInput } from "../kinds/pdf";
import { mergeDocs } from "./merge";
import { openPdf } from "./open";
import { copyToNew, rotateDoc } from "./pages";
import { savePdf } from "./save";
import { addTextLayer, displaySize, glyphlessFont, pageHasFonts } from "./text-layer";
import { addDropped, type DroppedStructure } from "../kinds/pdf";
import { SourceIndex } from "./structure-source";
import { PDFLIB_ENGINE } from "./version";
import { stampDoc, watermarkDoc } from "./watermark";
import type { FontSource } from "../text/faces";

/** Runs `fn`, turning what it throws into a failure as data. */
async function answer<T extends object>(fn: () => Promise<T>): Promise<EngineResult<T>> {
  try {
    return { ok: true, engineVersion: PDFLIB_ENGINE.version, ...(await fn()) };
  } catch (err) {
    return { ok: false, error: toFailure(err), engineVersion: PDFLIB_ENGINE.version };
  }
}

const open = (input: PdfInput) => openPdf(input.data, { filename: input.filename, password: input.password });

/**
 * `input` as bytes: pdf-lib holds a document whole, so a streamed input (issue 49: only the native qpdf takes those;
 * routing sends pdf-lib bytes within its budget) is UNSUPPORTED, which hands the task on.
 * @throws TaskError UNSUPPORTED
 */
function held(input: PdfStreamableInput): PdfInput {
  if (input.data instanceof Uint8Array) return { ...input, data: input.data };
  throw new TaskError("UNSUPPORTED", `pdf-lib takes ${input.filename} as bytes, not as a stream.`);
}

/**
 * Creates the pdf-lib engine (stateless; nothing loaded up front). `fonts` is where this platform
 * gets the watermark script faces (engines/text/faces.ts), loaded only when a watermark's text
 * needs them; without it watermark text is limited to WinAnsi (the standard PDF fonts).
 */
export function createPdfLibEngine(options: { fonts?: FontSource } = {}): PdfEngine {
  return {
    merge: (req) =>
      answer(async () => {
        const { doc, dropped } = await mergeDocs(req.inputs.map(held));
        return { data: await savePdf(doc, req.filename), dropped };
      }),
    split: (req) =>
      answer(async () => {
        const src = new SourceIndex(await open(held(req.input)));
        const parts: Uint8Array[] = [];
        const dropped: DroppedStructure = {};
        for (let page = 1; page <= src.pageRefs.length; page++) {
          const part = await copyToNew(src, [page], { attachments: false });
          parts.push(await savePdf(part.doc, req.input.filename));
          addDropped(dropped, part.dropped);
        }
        return { parts, dropped };
      }),
    extract: (req) =>
      answer(async () => {
        const src = new SourceIndex(await open(held(req.input)));
        const pages = resolvePages(req.pages, src.pageRefs.length, req.input.filename);
        const { doc, dropped } = await copyToNew(src, pages);
        return { data: await savePdf(doc, req.input.filename), dropped };
      }),
    rotate: (req) =>
      answer(async () => {
        const doc = await open(held(req.input));
        rotateDoc(doc, req.rotation, req.pages, req.input.filename);
        return { data: await savePdf(doc, req.input.filename) };
      }),
    encrypt: (req) =>
      answer(async () => {
        const doc = await open(held(req.input));
        try {
          doc.encrypt({
            userPassword: req.userPassword,
            ownerPassword: req.ownerPassword,
            permissions: req.permissions,
            algorithm: "AES-256",
          });
        } catch (err) {
          throw new TaskError(
            "CONVERSION_FAILED",
            `${req.input.filename} could not be encrypted: ${err instanceof Error ? err.message : String(err)}`,
            { cause: err },
          );
        }
        return { data: await savePdf(doc, req.input.filename) };
      }),
    // pdf-lib decrypts every object on load; saving writes them without an /Encrypt dictionary.
    decrypt: (req) => answer(async () => ({ data: await savePdf(await open(held(req.input)), req.input.filename) })),
    // draws the watermark itself (a `stamp` is for the native qpdf, which cannot draw one)
    watermark: (req) =>
      answer(async () => {
        const doc = await open(held(req.input));
        await watermarkDoc(doc, req.mark, req.input.filename, req.image, options.fonts);
        return { data: await savePdf(doc, req.input.filename) };
      }),
    stamp: (req) =>
      answer(async () => {
        const doc = await stampDoc(req.frames, req.mark, req.image, options.fonts);
        return { data: await savePdf(doc, "the watermark") };
      }),
    pageInfo: (req) =>
      answer(async () => {
        const doc = await open(req.input);
        return {
          pages: doc
            .getPages()
            .map((page) => ({ ...displaySize(page), rotation: page.getRotation().angle, hasText: pageHasFonts(page) })),
        };
      }),
    textLayer: (req) =>
      answer(async () => {
        const doc = await open(req.input);
        const pages = doc.getPages();
        const font = glyphlessFont(doc);
        let words = 0;
        for (const { page, words: list } of req.pages) {
          if (!pages[page - 1]) throw new TaskError("INVALID_PAGES", `${req.input.filename} has no page ${page}.`);
          words += addTextLayer(pages[page - 1], font, list);
        }
        return { data: await savePdf(doc, req.input.filename), words };
      }),
  };
}
