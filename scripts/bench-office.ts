/**
 * `npm run bench -- office` (issue 32): office → office (docx→odt, doc→docx, odt→docx, rtf→txt, xlsx→csv, xls→xlsx,
 * ods→xlsx, ppt→pptx) and pdf → docx (pdftohtml, then Writer) through the native engine's LibreOffice warm pool —
 * POST /invoke, as the api Worker calls it — at concurrency 1 and 2, against the same tool run cold per file
 * (`soffice --headless --convert-to` per document, profile already made; pdf: pdftohtml first, as the engine does) on
 * the same corpus files. Documents per minute, medians of `rounds` rounds, and the ratio to the cold CLI.
 * Not a test: it prints figures and never fails on them. Run: `npm run bench -- office` or `node scripts/bench-office.ts`.
 */
import { median, startNativeServer } from "./bench-kit.ts";
import { OFFICE_PAIRS, PDF_DOCX, coldPairRate, pairRate } from "./bench-native.ts";

export async function benchOffice(rounds = 3): Promise<void> {
  const server = await startNativeServer(30000);
  const { url } = server;
  try {
    const health = server;
    const version = health.tools.find((t) => t.name === "libreoffice")?.version;
    if (!version) {
      console.log("\nOffice conversions: LibreOffice is not installed (npm run setup:native); skipped.");
      return;
    }
    const tables: [string, [string, string][], number][] = [
      [
        "Office → office (docx→odt, doc→docx, odt→docx, rtf→txt, xlsx→csv, xls→xlsx, ods→xlsx, ppt→pptx)",
        OFFICE_PAIRS,
        16,
      ],
      ["PDF → docx (pdftohtml, then Writer)", PDF_DOCX.map((p) => [p, "docx"] as [string, string]), 6],
    ];
    for (const [title, pairs, n] of tables) {
      await pairRate(url, pairs, pairs.length, 2); // starts and warms the pool on these filters: not counted
      const cold: number[] = [];
      const warm: Record<number, number[]> = { 1: [], 2: [] };
      for (let r = 0; r < rounds; r++) {
        cold.push(coldPairRate(pairs, n));
        for (const c of [1, 2]) warm[c]!.push(await pairRate(url, pairs, n, c));
      }
      const base = median(cold);
      console.log(
        `\n${title}: LibreOffice ${version} warm pool (NATIVE_OFFICE_POOL=${process.env.NATIVE_OFFICE_POOL ?? 2}) vs cold soffice --convert-to per file; ${n} documents a round, medians of ${rounds} rounds`,
      );
      console.log("| run | documents / min (median) | rounds | × cold CLI |\n|---|---|---|---|");
      console.log(`| cold CLI, 1 | ${base.toFixed(1)} | ${cold.map((x) => x.toFixed(0)).join(" ")} | 1.00 |`);
      for (const c of [1, 2])
        console.log(
          `| pool, concurrency ${c} | ${median(warm[c]!).toFixed(1)} | ${warm[c]!.map((x) => x.toFixed(0)).join(" ")} | ${(median(warm[c]!) / base).toFixed(2)} |`,
        );
    }
  } finally {
    server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchOffice(Number(process.argv[2] ?? 3));
