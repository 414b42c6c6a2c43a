/**
 * A scanned book as a scanner writes it, for the slow tests (issue 49, test/slow/large-ocr.test.ts): a PDF whose every
 * page is one JPEG drawn over the whole page (DCTDecode, its own image object a page; no text), written page by page
 * with the JPEG's bytes held once, so a 300 MB book costs the test one page's memory.
 */
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";

/**
 * Writes a PDF of `pages` pages, each drawing the JPEG at `jpeg` (w × h px at 300 ppi, DCTDecode, an image object of its
 * own a page) over the whole page; the JPEG's bytes are held once and written page by page.
 */
export function writeScanPdf(path: string, image: string, w: number, h: number, pages: number): void {
  const bytes = readFileSync(image);
  const [pw, ph] = [(w * 72) / 300, (h * 72) / 300];
  const fd = openSync(path, "w");
  let at = 0;
  const offsets: number[] = [];
  const put = (s: string | Buffer) => {
    const b = typeof s === "string" ? Buffer.from(s, "latin1") : s;
    writeSync(fd, b);
    at += b.length;
  };
  const obj = (n: number, body: () => void) => {
    offsets[n] = at;
    put(`${n} 0 obj\n`);
    body();
    put("\nendobj\n");
  };
  put("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n");
  obj(1, () => put("<< /Type /Catalog /Pages 2 0 R >>"));
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i * 3} 0 R`).join(" ");
  obj(2, () => put(`<< /Type /Pages /Count ${pages} /Kids [${kids}] >>`));
  for (let i = 0; i < pages; i++) {
    const [page, content, img] = [3 + i * 3, 4 + i * 3, 5 + i * 3];
    obj(page, () =>
      put(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pw} ${ph}] /Contents ${content} 0 R ` +
          `/Resources << /XObject << /Im0 ${img} 0 R >> >> >>`,
      ),
    );
    const ops = `q ${pw} 0 0 ${ph} 0 0 cm /Im0 Do Q`;
    obj(content, () => put(`<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`));
    obj(img, () => {
      put(
        `<< /Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceRGB /BitsPerComponent 8 ` +
          `/Filter /DCTDecode /Length ${bytes.length} >>\nstream\n`,
      );
      put(bytes);
      put("\nendstream");
    });
  }
  const count = 2 + pages * 3;
  const xref = at;
  put(`xref\n0 ${count + 1}\n0000000000 65535 f \n`);
  for (let n = 1; n <= count; n++) put(`${String(offsets[n]).padStart(10, "0")} 00000 n \n`);
  put(`trailer\n<< /Size ${count + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  closeSync(fd);
}
