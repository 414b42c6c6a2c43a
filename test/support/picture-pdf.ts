/**
 * A generated one-page PDF holding one picture, for the large-drawing tests (issue 49): an Illustrator file since
 * version 9 is a PDF, so this is the shape of a large `.ai` (a poster with a photo). PDF 1.4, one page of side × side
 * pixels at 300 dpi, the picture an uncompressed 8-bit DeviceRGB image XObject of noise (nothing shrinks it, so the
 * file is ~3 bytes a pixel). The noise's SHA-256 is returned, so a tool's extraction of the picture (pdfimages) can be
 * compared with it without keeping it.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";

/** What was written: the file's size and the picture's samples' SHA-256 (hex, RGB rows top to bottom). */
export interface PicturePdf {
  bytes: number;
  pixelsSha256: string;
}

/** Writes the PDF to `path`: a side × side noise picture filling a page of side/300 inches. */
export function writePicturePdf(path: string, side: number): PicturePdf {
  const pt = Math.round((side * 72) / 300);
  const content = `q ${pt} 0 0 ${pt} 0 0 cm /Im0 Do Q`;
  const hash = createHash("sha256");
  const length = side * side * 3;
  const fd = openSync(path, "w");
  let at = 0;
  const offsets: number[] = [];
  const put = (b: Buffer | string) => {
    const buf = typeof b === "string" ? Buffer.from(b, "latin1") : b;
    writeSync(fd, buf);
    at += buf.length;
  };
  const obj = (body: string) => {
    offsets.push(at);
    put(`${offsets.length} 0 obj\n${body}\nendobj\n`);
  };
  try {
    put("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n");
    obj("<< /Type /Catalog /Pages 2 0 R >>");
    obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    obj(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pt} ${pt}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>`,
    );
    offsets.push(at);
    put(
      `4 0 obj\n<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB ` +
        `/BitsPerComponent 8 /Length ${length} >>\nstream\n`,
    );
    // one row of noise at a time
    for (let y = 0; y < side; y++) {
      const row = randomBytes(side * 3);
      hash.update(row);
      put(row);
    }
    put("\nendstream\nendobj\n");
    obj(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    const xref = at;
    put(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`);
    for (const o of offsets) put(`${String(o).padStart(10, "0")} 00000 n \n`);
    put(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  } finally {
    closeSync(fd);
  }
  return { bytes: at, pixelsSha256: hash.digest("hex") };
}
