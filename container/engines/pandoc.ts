/**
 * Pandoc (issue 32): markup ↔ documents — md, rst, tex, html, txt read; docx, odt, html, md, rst, rtf, tex, txt
 * written. The input is read with `--sandbox` (pandoc ≥ 2.15: no file but the input is read, nothing fetched, so an
 * include naming /etc/… is not followed), and every image that is not a data: URL becomes its alt text before the
 * writer runs, so nothing naming file:///etc/… or a loopback URL is fetched or embedded. Kind office (convert), as
 * the Worker's row "pandoc" takes it.
 *
 * → pdf (rst and tex, issue 32; no TeX distribution in the image): pandoc writes ODT, LibreOffice's warm pool lays it
 * out as PDF. Measured on the corpus (docutils-demo.rst, texlive-sample2e.tex; words of pandoc's plain text found by
 * pdftotext): ODT → LibreOffice 93.3 % / 100 %, DOCX → LibreOffice 93.0 % / 100 %, pandoc's HTML printed by Chromium
 * 93.3 % / 100 % — equal text, so the route that stays in this engine (Chromium is the Worker's Browser Rendering
 * binding, another engine) and keeps TeX math as formula objects was taken.
 */
import { fileURLToPath } from "node:url";
import type { OfficeRequest } from "../../native-protocol/office.ts";
import { PANDOC_READERS, PANDOC_WRITERS as SHARED_WRITERS } from "../../native-protocol/pandoc.ts";
import { join } from "node:path";
import { UNO_PYTHON } from "../tools.ts";
import {
  NativeError,
  check,
  fileOf,
  localFile,
  place,
  run,
  tool,
  why,
  type NativeCall,
  type NativeEngineDef,
} from "./common.ts";
import { officeFailure, officePool } from "./libreoffice.ts";

/** Output format → pandoc writer: the shared table, and pdf laid out by LibreOffice from pandoc's ODT. */
export const PANDOC_WRITERS: Record<string, { writer: string; standalone: boolean }> = {
  ...SHARED_WRITERS,
  pdf: { writer: "odt", standalone: false },
};

/**
 * The image guard (pandoc/external_images.py, run by Debian's python3): pandoc's JSON AST with every image that is not
 * a data: URL replaced by its alt text. A tool run, so the AST (tens of times the document) is held by a process under
 * the call's memory limit, not by this server (it was JSON.parse here before issue 49).
 */
const EXTERNAL_IMAGES = fileURLToPath(new URL("./pandoc/external_images.py", import.meta.url));

/**
 * What a pandoc run needs beside GHC's heap, bytes: its 172 MB executable (Debian's pandoc 2.17), its libraries, thread
 * stacks, the C allocations of its zip and text libraries.
 */
const PANDOC_NON_HEAP_BYTES = 384 * 1024 * 1024;

/**
 * How pandoc runs within the call's memory limit (issue 49): its heap held by `+RTS -M` to the limit less
 * {@link PANDOC_NON_HEAP_BYTES} (at least 64 MiB), and no RLIMIT_AS. GHC 9.0's runtime reserves its heap's address
 * space up front — 1 TB asked, shrunk by an eighth until it fits, whatever -M says — so under RLIMIT_AS it takes all the
 * address space the limit leaves and an OS thread it starts later may find none ("failed to create OS thread": measured
 * at 448 and 576 MiB, not at 512 or 640). With -M the runtime collects harder as the heap nears it and exits 251 "Heap
 * exhausted", which {@link pandocFailure} maps to OVER_BUDGET; measured under -M1664m, the 8 MB markdown's docx peaked
 * at 1,376 MB resident.
 */
export function pandocRun(memoryBytes: number): { rts: string[]; extra: { memoryBytes: number } } {
  const mib = Math.max(64, Math.floor((memoryBytes - PANDOC_NON_HEAP_BYTES) / 2 ** 20));
  return { rts: ["+RTS", `-M${mib}m`, "-RTS"], extra: { memoryBytes: 0 } };
}

/** Maps a pandoc run's failure: its heap exhausted (exit 251) is OVER_BUDGET, anything else CONVERSION_FAILED. */
function pandocFailure(text: string, filename: string): NativeError {
  if (/Heap exhausted|out of memory/i.test(text))
    return new NativeError(
      "OVER_BUDGET",
      `pandoc ran out of memory on ${filename} (it holds the whole document, many times its size); ${why(text, /Heap exhausted|out of memory/i)}`,
    );
  return new NativeError("CONVERSION_FAILED", `pandoc could not convert ${filename}: ${why(text)}`);
}

/**
 * Converts one document (bytes, or issue 49 a file of the call's folder, moved there) with pandoc; the output is
 * answered as a file of the folder.
 * @throws NativeError INVALID_CONVERSION_TYPE | OVER_BUDGET (pandoc's heap exhausted) | CONVERSION_FAILED | TIMEOUT |
 *   ENGINE_UNAVAILABLE (→ pdf without LibreOffice) and LibreOffice's codes (officeFailure)
 */
async function convert(req: OfficeRequest, call: NativeCall) {
  const pandoc = tool(call, "pandoc").path;
  const input = (/\.([A-Za-z0-9]+)$/.exec(req.input.filename)?.[1] ?? "").toLowerCase();
  const reader = PANDOC_READERS[input === "markdown" ? "md" : input === "htm" ? "html" : input];
  const out = PANDOC_WRITERS[req.format];
  if (!reader || !out)
    throw new NativeError("INVALID_CONVERSION_TYPE", `pandoc does not convert ${input} to ${req.format}.`);
  await place(call, `in.${input}`, fileOf(req.input.data, req.input.filename));
  const fail = (t: string) => pandocFailure(t, req.input.filename);
  const { rts, extra } = pandocRun(call.memoryBytes);
  // 1. read, sandboxed (includes and files are not read), into pandoc's JSON AST. (Pandoc 2.17's --sandbox also
  //    keeps the docx/odt writers from their own reference documents, so writing is a second, unsandboxed step
  //    on an AST that names nothing to fetch.)
  const read = await run(
    call,
    pandoc,
    [...rts, "--sandbox", "-f", reader, "-t", "json", "-o", "ast.json", `in.${input}`],
    extra,
  );
  check(read, "pandoc", fail);
  const guarded = await run(call, UNO_PYTHON, [EXTERNAL_IMAGES, "ast.json", "safe.json"]);
  check(
    guarded,
    "the image guard",
    (t) =>
      new NativeError(
        /MemoryError/.test(t) ? "OVER_BUDGET" : "CONVERSION_FAILED",
        `pandoc's document of ${req.input.filename} could not be checked for images: ${why(t)}`,
      ),
  );
  // 2. write
  const written = req.format === "pdf" ? "odt" : req.format;
  const r = await run(
    call,
    pandoc,
    [...rts, "-f", "json", "-t", out.writer, ...(out.standalone ? ["-s"] : []), "-o", `out.${written}`, "safe.json"],
    extra,
  );
  check(r, "pandoc", fail);
  if (req.format !== "pdf")
    return { data: await localFile(call, `out.${req.format}`), pages: null, fontsSubstituted: [] };
  // 3. pdf: the ODT laid out by LibreOffice
  tool(call, "libreoffice");
  try {
    const laid = await officePool(call.root).convert({
      input: join(call.work, "out.odt"),
      output: join(call.work, "out.pdf"),
      format: "pdf",
      timeoutMs: call.timeoutMs,
      ...(req.pdf?.pages ? { pages: req.pdf.pages } : {}),
    });
    return { data: await localFile(call, "out.pdf"), pages: laid.pages, fontsSubstituted: [] };
  } catch (err) {
    throw officeFailure(err, req.input.filename);
  }
}

/**
 * The pandoc engine (kind office: convert between markup and documents). It takes files (issue 49): a framed call's
 * document reaches it as a LocalFile in the call's folder and its output goes back as a file; pandoc itself holds the
 * whole document, so its row takes at most NATIVE_PANDOC_MAX_BYTES.
 */
export const pandocEngine = { kind: "office", methods: { convert }, files: true } satisfies NativeEngineDef<"office">;

export default pandocEngine;
