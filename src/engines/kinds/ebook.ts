/**
 * The ebook kind (kinds/index.ts): e-books converted between calibre's formats (epub, mobi, azw3, fb2,
 * lit, lrf, pdb, comics, … → epub, mobi, azw3, pdf, txt, rtf, lrf, pdb, oeb, …), today by calibre in the
 * native engine (row "calibre"). Bytes in, bytes out, failures as data ({@link EngineResult}), the
 * request that crosses the native engine's seam (native-protocol/ebook.ts) unchanged.
 */
import type { EbookRequest } from "../../../native-protocol/ebook";
import type { StreamedBytes } from "../../../native-protocol/frame";
import type { EngineResult } from "../errors";

export type { EbookRequest };

/** An e-book engine. */
export interface EbookEngine {
  /**
   * Converts one e-book. A file that is not a book of its declared format answers OPEN_FAILED; a
   * DRM-protected book UNSUPPORTED; a zip-based book (epub, cbz, htmlz, txtz) that unpacks to more
   * than the engine's limit OVER_BUDGET. The book may be a stream (issue 49: over the row's `streamOver`), and the
   * answer is then a stream when large.
   */
  convert(req: EbookRequest): Promise<EngineResult<{ data: Uint8Array | StreamedBytes }>>;
}
