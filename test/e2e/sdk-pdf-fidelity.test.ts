/**
 * Issue 16 end to end through the official SDK under `wrangler dev`: an encrypted and a plain PDF
 * merged with one password per input (outlines of both kept, output unencrypted), and watermark
 * text in Japanese. Oracles: qpdf (--show-encryption, --json via the structure oracle), pdfinfo,
 * pdftotext, pdffonts.
 */
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath, fact } from "../support/corpus";
import { pdfinfo } from "../support/native";
import { pdfStructure } from "../support/pdf-structure-oracle";
import { runUploadJob, type TaskDefs } from "../support/jobs";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

/** Uploads `rels` into tasks up0, up1 …, runs `tasks`, waits; answers the job and the exported files' paths. */
async function uploadJob(rels: string[], tasks: TaskDefs) {
  const { job, downloads } = await runUploadJob(server.base, rels, tasks);
  return { job, files: downloads.map((d) => d.path) };
}

describe("PDF fidelity through the SDK", () => {
  it("merges an encrypted and a plain PDF with per-input passwords, keeping both inputs' outlines", async () => {
    const locked = "pdf-encrypted/qpdf-enc-XI-R6-V5-U_view-O_master.pdf";
    const plain = "pdf/pdfjs-nested_outline.pdf";
    const { job, files } = await uploadJob([locked, plain], {
      merged: {
        operation: "merge",
        input: ["up0", "up1"],
        output_format: "pdf",
        password: [fact(locked).user_password, null],
      },
      out: { operation: "export/url", input: "merged" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
    const [merged] = files;
    expect(execFileSync("qpdf", ["--show-encryption", merged!], { encoding: "utf8" })).toContain(
      "File is not encrypted",
    );
    const lockedPages = fact(locked).pages as number;
    expect(Number(pdfinfo(merged!).Pages)).toBe(lockedPages + (fact(plain).pages as number));
    // every outline item of both inputs, the second input's shifted by the first's page count
    const expected = [
      ...pdfStructure(corpusPath(locked), fact(locked).user_password as string).outlines,
      ...pdfStructure(corpusPath(plain)).outlines.map((o) => ({
        ...o,
        page: o.page === null ? null : o.page + lockedPages,
      })),
    ];
    expect(pdfStructure(merged!).outlines).toEqual(expected);
  });

  it("stamps a Japanese text watermark that pdftotext finds, with one embedded subset font (pdffonts)", async () => {
    const src = "pdf/cloudconvert-input.pdf";
    const { job, files } = await uploadJob([src], {
      mark: { operation: "watermark", input: "up0", text: "社外秘", pages: "1", font_size: 60, opacity: 50 },
      out: { operation: "export/url", input: "mark" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.status, t.message]))).toBe("finished");
    const [stamped] = files;
    expect(execFileSync("pdftotext", ["-f", "1", "-l", "1", stamped!, "-"], { encoding: "utf8" })).toContain("社外秘");
    const fonts = execFileSync("pdffonts", [stamped!], { encoding: "utf8" }).split("\n").slice(2).filter(Boolean);
    const before = execFileSync("pdffonts", [corpusPath(src)], { encoding: "utf8" })
      .split("\n")
      .slice(2)
      .filter(Boolean);
    const added = fonts.filter((line) => !before.includes(line));
    expect(added.length).toBe(1);
    expect(added[0]).toMatch(/^[A-Z]{6}\+\S+.*\byes\s+yes\b/); // a tagged subset, embedded, subset = yes
  });
});
