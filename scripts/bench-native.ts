/**
 * Benchmark of the native engine (issue 12), against the native tools run directly on the same
 * inputs in the same run:
 * - office → PDF: documents per minute through the engine's LibreOffice pool (POST /invoke, as the
 *   Worker calls it) at concurrency 1, 2 and 4, against a cold `soffice --headless --convert-to pdf`
 *   per file (one process per document, its profile already created: the usual CLI use);
 * - Ghostscript: pdf/a 2b, pdf/x 3 and optimize web through the engine against the same `gs`
 *   command (container/engines/ghostscript.ts exports its arguments) — for optimize the same gs + qpdf
 *   chain — run directly; medians of `runs`;
 * - camera raw → jpg (issue 34): the libraw row (dcraw_emu, then ImageMagick) against the same two commands.
 * Run: `npm run bench -- native` (or `node scripts/bench-native.ts`).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gsArgs, OPTIMIZE_COMMON, PROFILES, pdfaPlan, pdfxPlan } from "../container/engines/ghostscript.ts";
import { dcrawArgs } from "../container/engines/libraw.ts";
import { pack, unpack } from "../native-protocol/wire.ts";
import { median, startNativeServer } from "./bench-kit.ts";
/** Re-exported for the sections that import it from here. */
export { freePort } from "./bench-kit.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CORPUS = process.env.CORPUS_DIR ?? join(ROOT, "..", "shared", "corpus");
/** Small office documents of the corpus (Writer, Calc, Impress; Word 97 to OOXML). */
const DOCS = [
  "office/gotenberg-pages_3.docx",
  "office/python-docx-doc-coreprops.docx",
  "office/tika-testWORD.doc",
  "office/tika-testODFwithOOo3.odt",
  "office/tika-testRTF.rtf",
  "office/tika-testEXCEL.xlsx",
  "office/tika-testEXCEL.xls",
  "office/tika-testFooter.ods",
  "office/tika-testPPT.ppt",
  "office/python-pptx-cht-charts.pptx",
];
const PDFS = ["pdf/gotenberg-pages_12.pdf", "pdf/cloudconvert-input.pdf", "scans/ocrmypdf-c02-22.pdf"];

async function invoke(
  url: string,
  engine: string,
  method: string,
  req: unknown,
): Promise<{ ok: boolean; error?: { message: string } }> {
  // one retry on a connection failure, as the Worker's client does (a pooled connection closed while idle)
  const post = () => fetch(`${url}/invoke/${engine}/${method}`, { method: "POST", body: pack(req) });
  const r = await post().catch(post);
  const out = (await unpack(await r.formData())) as { ok: boolean; error?: { message: string } };
  if (!out.ok) throw new Error(`${engine}.${method}: ${out.error?.message}`);
  return out;
}

/** Converts `n` documents (cycling through DOCS) with `concurrency` requests in flight; documents per minute. */
async function officeRate(url: string, n: number, concurrency: number): Promise<number> {
  const bytes = DOCS.map((d) => ({
    data: new Uint8Array(readFileSync(join(CORPUS, d))),
    filename: d.split("/").pop()!,
  }));
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++)
        await invoke(url, "libreoffice", "convert", { input: bytes[i % bytes.length], format: "pdf" });
    }),
  );
  return (n / (performance.now() - t)) * 60_000;
}

/** Cold CLI: one `soffice --convert-to pdf` process per document, sequentially; documents per minute. */
function coldRate(n: number): number {
  const dir = mkdtempSync(join(tmpdir(), "bench-soffice-"));
  const profile = `file://${join(dir, "profile")}`;
  const run = (doc: string) =>
    spawnSync(
      "soffice",
      [
        `-env:UserInstallation=${profile}`,
        "--headless",
        "--convert-to",
        "pdf",
        "--outdir",
        join(dir, "out"),
        join(CORPUS, doc),
      ],
      { stdio: "ignore" },
    );
  run(DOCS[0]!); // creates the profile: not counted
  const t = performance.now();
  for (let i = 0; i < n; i++) run(DOCS[i % DOCS.length]!);
  return (n / (performance.now() - t)) * 60_000;
}

/** Office → office pairs of issue 32 (one per family and direction), and the PDFs of pdf → docx. */
export const OFFICE_PAIRS: [string, string][] = [
  ["office/gotenberg-pages_3.docx", "odt"],
  ["office/tika-testWORD.doc", "docx"],
  ["office/tika-testODFwithOOo3.odt", "docx"],
  ["office/tika-testRTF.rtf", "txt"],
  ["office/tika-testEXCEL.xlsx", "csv"],
  ["office/tika-testEXCEL.xls", "xlsx"],
  ["office/tika-testFooter.ods", "xlsx"],
  ["office/tika-testPPT.ppt", "pptx"],
];
export const PDF_DOCX = ["pdf/gotenberg-pages_12.pdf", "pdf/pdfjs-nested_outline.pdf", "pdf/pdfjs-rotation.pdf"];

/** `n` conversions of `pairs` (cycled) through the engine's LibreOffice at `concurrency`; documents per minute. */
export async function pairRate(
  url: string,
  pairs: [string, string][],
  n: number,
  concurrency: number,
): Promise<number> {
  const items = pairs.map(([rel, format]) => ({
    input: { data: new Uint8Array(readFileSync(join(CORPUS, rel))), filename: rel.split("/").pop()! },
    format,
  }));
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++) await invoke(url, "libreoffice", "convert", items[i % items.length]);
    }),
  );
  return (n / (performance.now() - t)) * 60_000;
}

/** The same pairs run cold: one `soffice --convert-to` per file (pdf: `pdftohtml` first, as the engine does). */
export function coldPairRate(pairs: [string, string][], n: number): number {
  const dir = mkdtempSync(join(tmpdir(), "bench-soffice-pairs-"));
  const profile = `file://${join(dir, "profile")}`;
  const one = ([rel, format]: [string, string]) => {
    let input = join(CORPUS, rel);
    if (rel.endsWith(".pdf")) {
      spawnSync("pdftohtml", ["-q", "-s", "-noframes", "-dataurls", "-nomerge", input, join(dir, "in.html")]);
      input = join(dir, "in.html");
    }
    spawnSync(
      "soffice",
      [`-env:UserInstallation=${profile}`, "--headless", "--convert-to", format, "--outdir", join(dir, "out"), input],
      {
        stdio: "ignore",
      },
    );
  };
  one(pairs[0]!); // creates the profile: not counted
  const t = performance.now();
  for (let i = 0; i < n; i++) one(pairs[i % pairs.length]!);
  return (n / (performance.now() - t)) * 60_000;
}

/** Issue 32's rows: office → office and pdf → docx, the pool at concurrency 1 and 2 against the cold CLI. */
export async function benchOfficeConversions(url: string, version: string): Promise<void> {
  const tables: [string, [string, string][], number][] = [
    [
      "Office → office (docx→odt, doc→docx, odt→docx, rtf→txt, xlsx→csv, xls→xlsx, ods→xlsx, ppt→pptx)",
      OFFICE_PAIRS,
      24,
    ],
    ["PDF → docx (pdftohtml, then Writer)", PDF_DOCX.map((p) => [p, "docx"] as [string, string]), 9],
  ];
  for (const [title, pairs, n] of tables) {
    await pairRate(url, pairs, pairs.length, 2); // warms the pool on these filters: not counted
    const cold = coldPairRate(pairs, Math.min(n, 12));
    console.log(`\n${title}: LibreOffice ${version} warm pool vs cold soffice --convert-to per file`);
    console.log("| concurrency | documents / min | × cold CLI |\n|---|---|---|");
    console.log(`| cold CLI, 1 | ${cold.toFixed(0)} | 1.00 |`);
    for (const c of [1, 2]) {
      const rate = await pairRate(url, pairs, n, c);
      console.log(`| pool, ${c} | ${rate.toFixed(0)} | ${(rate / cold).toFixed(2)} |`);
    }
  }
}

/** Runs a command to its end (no shell). */
const run = (cmd: string, args: string[]) =>
  new Promise<void>((ok) => spawn(cmd, args, { stdio: "ignore" }).on("close", () => ok()));

/** Median ms of `fn` over `runs` after one warm-up. */
async function time(fn: () => Promise<unknown> | unknown, runs: number): Promise<number> {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

export async function benchNative(runs = 5): Promise<void> {
  const server = await startNativeServer(30000);
  const { url } = server;
  try {
    const health = server;
    const have = new Map(health.tools.map((t) => [t.name, t.version]));
    if (have.get("libreoffice")) {
      const n = 40;
      await officeRate(url, 4, 4); // starts the pool's processes: not counted
      const cold = coldRate(Math.min(n, 20));
      console.log(
        `\nOffice → PDF, LibreOffice ${have.get("libreoffice")} warm pool (NATIVE_OFFICE_POOL=${process.env.NATIVE_OFFICE_POOL ?? 2}) vs cold soffice --convert-to pdf per file; ${DOCS.length} small corpus documents cycled`,
      );
      console.log("| concurrency | documents / min | × cold CLI |\n|---|---|---|");
      console.log(`| cold CLI, 1 | ${cold.toFixed(0)} | 1.00 |`);
      for (const c of [1, 2, 4]) {
        const rate = await officeRate(url, n, c);
        console.log(`| pool, ${c} | ${rate.toFixed(0)} | ${(rate / cold).toFixed(2)} |`);
      }
      await benchOfficeConversions(url, have.get("libreoffice")!);
    } else console.log("\nOffice → PDF: LibreOffice is not installed (npm run setup:native); skipped.");

    if (have.get("ghostscript")) {
      const gs = execFileSync("sh", ["-c", "command -v gs"]).toString().trim();
      const dir = mkdtempSync(join(tmpdir(), "bench-gs-"));
      console.log(
        `\nGhostscript ${have.get("ghostscript")} through the native engine (HTTP in and out) vs the same commands run directly; medians of ${runs}`,
      );
      console.log("| operation | input | engine ms | gs ms | ratio |\n|---|---|---|---|---|");
      for (const rel of PDFS) {
        const data = new Uint8Array(readFileSync(join(CORPUS, rel)));
        const input = join(dir, "in.pdf");
        copyFileSync(join(CORPUS, rel), input);
        const gsRun = (args: string[], def?: string) => () => {
          const defFile = join(dir, "def.ps");
          if (def) writeFileSync(defFile, def);
          return spawnSync(gs, gsArgs(args, join(dir, "out.pdf"), [...(def ? [defFile] : []), input]), {
            stdio: "ignore",
          });
        };
        // optimize is Ghostscript and, side by side, qpdf's lossless pack of the input; then qpdf packs
        // Ghostscript's output and linearizes the smaller (container/engines/ghostscript.ts): the same chain here
        const pack = (from: string, to: string, linear = false) =>
          run("qpdf", [
            "--object-streams=generate",
            "--compress-streams=y",
            "--recompress-flate",
            "--compression-level=9",
            ...(linear ? ["--linearize"] : []),
            from,
            to,
          ]);
        const optimizeChain = async () => {
          await Promise.all([
            run(gs, gsArgs([...PROFILES.web!, ...OPTIMIZE_COMMON], join(dir, "out.pdf"), [input])),
            pack(input, join(dir, "lossless.pdf")),
          ]);
          await pack(join(dir, "out.pdf"), join(dir, "gs-q.pdf"));
          await pack(join(dir, "gs-q.pdf"), join(dir, "web.pdf"), true);
        };
        const cases: [string, string, unknown, () => unknown][] = [
          [
            "pdf/a 2b",
            "pdfa",
            { input: { data, filename: "in.pdf" }, conformance: "2b" },
            gsRun(pdfaPlan(2).args, pdfaPlan(2).def),
          ],
          [
            "pdf/x 3",
            "pdfx",
            { input: { data, filename: "in.pdf" }, variant: "3" },
            gsRun(pdfxPlan("3").args, pdfxPlan("3").def),
          ],
          [
            "optimize web (gs + qpdf chain)",
            "optimize",
            { input: { data, filename: "in.pdf" }, profile: "web" },
            optimizeChain,
          ],
        ];
        for (const [label, method, req, direct] of cases) {
          const ours = await time(() => invoke(url, "ghostscript", method, req), runs);
          const theirs = await time(direct, runs);
          console.log(
            `| ${label} | ${rel} | ${ours.toFixed(0)} | ${theirs.toFixed(0)} | ${(ours / theirs).toFixed(2)} |`,
          );
        }
      }
    } else console.log("\nGhostscript is not installed (npm run setup:native); skipped.");

    // issue 34: a camera raw → jpg through the engine's libraw row (HTTP, dcraw_emu, ImageMagick) against the
    // same two tools run directly on the same file
    if (have.get("libraw") && have.get("imagemagick")) {
      const dir = mkdtempSync(join(tmpdir(), "bench-raw-"));
      const rel = "raw/exiftool-Nikon.nef";
      const data = new Uint8Array(readFileSync(join(CORPUS, rel)));
      copyFileSync(join(CORPUS, rel), join(dir, "in.nef"));
      const direct = () => {
        spawnSync("dcraw_emu", [...dcrawArgs("in.nef", "in.tiff")], { cwd: dir, stdio: "ignore" });
        return spawnSync("convert", ["tiff:in.tiff[0]", "-auto-orient", "-quality", "90", "jpeg:out.jpg"], {
          cwd: dir,
          stdio: "ignore",
        });
      };
      const req = { op: "convert", input: data, inputFormat: "nef", outputFormat: "jpg", options: { quality: 90 } };
      const ours = await time(() => invoke(url, "libraw", "run", req), runs);
      const theirs = await time(direct, runs);
      console.log(
        `\nLibRaw ${have.get("libraw")} (dcraw_emu) + ImageMagick through the native engine vs the same commands run directly; medians of ${runs}`,
      );
      console.log("| conversion | input | engine ms | dcraw_emu + convert ms | ratio |\n|---|---|---|---|---|");
      console.log(`| raw → jpg | ${rel} | ${ours.toFixed(0)} | ${theirs.toFixed(0)} | ${(ours / theirs).toFixed(2)} |`);
    } else console.log("\nLibRaw (libraw-bin) is not installed (npm run setup:native); raw → jpg skipped.");

    // issue 34: extraction of two native archive formats (lz, tar.lzo) through the engine's archive-native row (HTTP,
    // the tool, the members read back) against the same tools run directly on the same file
    if (have.get("lzip") && have.get("lzop") && have.get("7z")) {
      const dir = mkdtempSync(join(tmpdir(), "bench-archive-"));
      // a mixed 4 MiB tree: the corpus's PDF and text-like repetition
      const pdf = readFileSync(join(CORPUS, "pdf/pdfjs-tracemonkey.pdf"));
      writeFileSync(join(dir, "paper.pdf"), pdf);
      writeFileSync(join(dir, "notes.txt"), "issue 34 native archive bench line\n".repeat(80_000));
      spawnSync("tar", ["-cf", "tree.tar", "paper.pdf", "notes.txt"], { cwd: dir });
      spawnSync("sh", ["-c", "lzip -c notes.txt > notes.txt.lz && lzop -c tree.tar > tree.tar.lzo"], { cwd: dir });
      const cases: [string, string, string][] = [
        ["notes.txt.lz", "lz", "lzip -dc notes.txt.lz > out.txt"],
        [
          "tree.tar.lzo",
          "tar.lzo",
          "rm -rf x && mkdir x && lzop -dc tree.tar.lzo > x.tar && 7z x -ttar -ox -y x.tar >/dev/null",
        ],
      ];
      console.log(
        `\nArchive extraction through the native engine (archive-native: lzip ${have.get("lzip")}, lzop ${have.get("lzop")}, 7-Zip ${have.get("7z")}) vs the same tools run directly; medians of ${runs}`,
      );
      console.log("| extraction | input | engine ms | tools ms | ratio |\n|---|---|---|---|---|");
      for (const [file, format, cmd] of cases) {
        const data = new Uint8Array(readFileSync(join(dir, file)));
        const req = { input: { data, filename: file }, format };
        const ours = await time(() => invoke(url, "archive-native", "extract", req), runs);
        const theirs = await time(() => spawnSync("sh", ["-c", cmd], { cwd: dir, stdio: "ignore" }), runs);
        console.log(
          `| ${format} → files | ${file} (${(data.byteLength / 1024).toFixed(0)} KiB) | ${ours.toFixed(0)} | ${theirs.toFixed(0)} | ${(ours / theirs).toFixed(2)} |`,
        );
      }
    } else console.log("\nlzip, lzop or 7z is not installed (npm run setup:native); archive extraction skipped.");
  } finally {
    server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchNative(Number(process.argv[2] ?? 5));
