/**
 * Cheap structural checks after parsing, before any page work: a page whose content stream is an
 * image stream (DCT/JBIG2/JPX/CCITT-encoded; pdf.js's bomb_giant.pdf makes a 40 KB JBIG2 stream
 * the page /Contents) is not a page description but a damaged or hostile file: copying it on
 * would write a PDF that qpdf --check rejects, and renderers spend minutes on it (pdftoppm 396 s).
 */
import { PDFArray, PDFName, PDFRawStream, PDFStream, type PDFDocument, type PDFObject } from "@cantoo/pdf-lib";
import { TaskError } from "../errors";

const IMAGE_FILTERS = new Set(["/DCTDecode", "/JBIG2Decode", "/JPXDecode", "/CCITTFaxDecode"]);

function imageFilterOf(stream: PDFObject | undefined): string | undefined {
  if (!(stream instanceof PDFStream || stream instanceof PDFRawStream)) return undefined;
  if (stream.dict.get(PDFName.of("Subtype")) === PDFName.of("Image")) return "/Image";
  const filter = stream.dict.lookup(PDFName.of("Filter"));
  const names = filter instanceof PDFArray ? filter.asArray().map(String) : filter ? [String(filter)] : [];
  return names.find((n) => IMAGE_FILTERS.has(n));
}

/**
 * Throws OPEN_FAILED naming the first page whose /Contents is an image stream.
 * Cost: one dictionary lookup per content stream (no decoding).
 */
export function checkContentStreams(doc: PDFDocument, name: string): void {
  doc.getPages().forEach((page, i) => {
    const contents = page.node.get(PDFName.of("Contents"));
    const resolved = contents ? doc.context.lookup(contents) : undefined;
    const streams = resolved instanceof PDFArray ? resolved.asArray().map((r) => doc.context.lookup(r)) : [resolved];
    for (const s of streams) {
      const filter = imageFilterOf(s);
      if (filter)
        throw new TaskError(
          "OPEN_FAILED",
          `${name}: page ${i + 1} is damaged: its content stream is an image (${filter.slice(1)}), not page content.`,
        );
    }
  });
}
