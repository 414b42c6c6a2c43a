/**
 * Spreadsheets inside workerd through the whole path (issue 47): POST /v2/jobs → JobDO → queue → runner → the SheetJS
 * engine in the api Worker's own isolate → R2. The input is test/fixtures/spreadsheet/frictionless-bom.csv
 * (frictionless-py's data/bom.csv, MIT), its 33 bytes written out here because workerd has no file system; the xlsx
 * written is read back with fflate and its sheet XML, independent of SheetJS. Native and Python oracles judge the
 * engine on every fixture in test/engines/sheetjs.test.ts and test/native/sheetjs-libreoffice.test.ts.
 */
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { b64, createJob, taskByName, waitJob } from "./helpers";

/** frictionless-bom.csv, byte for byte: a UTF-8 BOM, a header and two records, one in CJK. */
const BOM_CSV = new Uint8Array([
  0xef,
  0xbb,
  0xbf,
  ...new TextEncoder().encode("id,name\n1,english\n2,"),
  0xe4,
  0xb8,
  0xad,
  0xe5,
  0x9b,
  0xbd,
  0xe4,
  0xba,
  0xba,
  0x0a,
]);

async function download(url: string): Promise<Uint8Array> {
  const { exports } = await import("cloudflare:workers");
  return new Uint8Array(await (await exports.default.fetch(url)).arrayBuffer());
}

describe("spreadsheets with the SheetJS engine in the api Worker", () => {
  it("csv → xlsx: a workbook whose cells are the csv's (BOM dropped, numbers as numbers, CJK kept)", async () => {
    expect(BOM_CSV.length).toBe(33);
    const job = await createJob({
      in: { operation: "import/base64", file: b64(BOM_CSV), filename: "bom.csv" },
      sheet: { operation: "convert", input: "in", output_format: "xlsx" },
      out: { operation: "export/url", input: "sheet" },
    });
    const done = await waitJob(job.id);
    const sheet = taskByName(done, "sheet");
    expect(sheet.status, JSON.stringify(sheet)).toBe("finished");
    expect(sheet).toMatchObject({ engine: "sheetjs", engine_version: "0.20.3" });
    const [file] = taskByName(done, "out").result.files;
    expect(file.filename).toBe("bom.xlsx");
    const parts = unzipSync(await download(file.url));
    const xml = new TextDecoder().decode(parts["xl/worksheets/sheet1.xml"]);
    const shared = [...new TextDecoder().decode(parts["xl/sharedStrings.xml"]).matchAll(/<t[^>]*>([^<]*)<\/t>/g)].map(
      (m) => m[1],
    );
    const cells = Object.fromEntries(
      [...xml.matchAll(/<c r="([A-Z]+\d+)"([^>]*)><v>([^<]*)<\/v><\/c>/g)].map(([, ref, attrs, v]) => [
        ref,
        /t="s"/.test(attrs!) ? shared[Number(v)] : Number(v),
      ]),
    );
    expect(cells).toEqual({ A1: "id", B1: "name", A2: 1, B2: "english", A3: 2, B3: "中国人" });
  });

  it("csv → csv with delimiter ';' and a workbook's html: the same records", async () => {
    const job = await createJob({
      in: { operation: "import/base64", file: b64(BOM_CSV), filename: "bom.csv" },
      semi: { operation: "convert", input: "in", output_format: "csv", delimiter: ";" },
      page: { operation: "convert", input: "in", output_format: "html" },
      out: { operation: "export/url", input: ["semi", "page"] },
    });
    const done = await waitJob(job.id);
    const semi = taskByName(done, "semi");
    expect(semi.status).toBe("finished");
    expect(semi.engine, JSON.stringify(semi)).toBe("sheetjs");
    const files = taskByName(done, "out").result.files;
    const csv = files.find((f) => f.filename.endsWith(".csv"))!;
    const html = files.find((f) => f.filename.endsWith(".html"))!;
    expect(new TextDecoder().decode(await download(csv.url)), JSON.stringify(semi)).toBe(
      "id;name\n1;english\n2;中国人\n",
    );
    expect(new TextDecoder().decode(await download(html.url))).toMatch(/<td[^>]*>中国人<\/td>/);
  });
});
