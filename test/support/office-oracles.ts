/**
 * Oracles for office outputs that do not come from our code (issue 32): Info-ZIP's unzip for the parts of
 * OOXML/ODF packages, Python's standard zipfile + ElementTree for the cells of an xlsx sheet, and LibreOffice's own
 * command line with pdftotext for the text a written document reads back with.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, extname, join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "office-oracle-"));
let n = 0;

/** The text of the package parts matching `part` (unzip's wildcards, e.g. "ppt/slides/*.xml"), concatenated. */
export function unzipText(pkg: Uint8Array, part: string): string {
  const path = join(dir, `p${n++}.zip`);
  writeFileSync(path, pkg);
  return execFileSync("unzip", ["-p", path, part], { encoding: "utf8", maxBuffer: 64 << 20 });
}

/** Whitespace collapsed to single spaces, trimmed. */
export const normalize = (s: string) => s.replace(/\s+/g, " ").trim();

const CELLS_PY = `
import sys, zipfile, json, re
import xml.etree.ElementTree as ET
ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
z = zipfile.ZipFile(sys.argv[1]); idx = int(sys.argv[2])
shared = []
if "xl/sharedStrings.xml" in z.namelist():
    for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", ns):
        shared.append("".join(t.text or "" for t in si.iter("{%s}t" % ns["m"])))
wb = ET.fromstring(z.read("xl/workbook.xml"))
rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
sheet = wb.find("m:sheets", ns)[idx - 1]
rid = sheet.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id")
target = [r.get("Target") for r in rels if r.get("Id") == rid][0]
target = target.lstrip("/") if target.startswith("/xl/") else "xl/" + target
out = []
for c in ET.fromstring(z.read(target)).iter("{%s}c" % ns["m"]):
    m = re.match(r"([A-Z]+)(\\d+)", c.get("r"))
    col = 0
    for ch in m.group(1): col = col * 26 + ord(ch) - 64
    v = c.find("m:v", ns); t = c.get("t")
    if t == "s" and v is not None: val = shared[int(v.text)]
    elif t == "inlineStr": val = "".join(x.text or "" for x in c.iter("{%s}t" % ns["m"]))
    elif v is not None:
        val = v.text
        try:
            f = float(val); val = str(int(f)) if f == int(f) else val
        except ValueError: pass
    else: continue
    out.append({"row": int(m.group(2)) - 1, "col": col - 1, "value": val})
print(json.dumps(out))
`;

/**
 * The non-empty cells of sheet `index` (1-based) of an xlsx at `path`, as the package's XML stores them
 * (shared strings resolved; whole numbers without ".0"). Rows and columns 0-based.
 */
export function xlsxCells(path: string, index: number): { row: number; col: number; value: string }[] {
  return JSON.parse(
    execFileSync("python3", ["-c", CELLS_PY, path, String(index)], { encoding: "utf8", maxBuffer: 256 << 20 }),
  );
}

/**
 * The text LibreOffice's own CLI reads back from the document at `path`: `soffice --headless --convert-to pdf` (up to
 * `timeoutMs`, with a throw-away profile in `profileDir`/profile) writes `<name>.pdf` in `outDir`, and pdftotext reads
 * it. "" when nothing was written.
 */
export function sofficeText(path: string, outDir: string, timeoutMs = 180_000, profileDir = outDir): string {
  spawnSync(
    "soffice",
    [
      `-env:UserInstallation=file://${join(profileDir, "profile")}`,
      "--headless",
      "--convert-to",
      "pdf",
      "--outdir",
      outDir,
      path,
    ],
    { stdio: "ignore", timeout: timeoutMs },
  );
  const pdf = join(outDir, `${basename(path, extname(path))}.pdf`);
  return spawnSync("pdftotext", [pdf, "-"], { encoding: "utf8" }).stdout ?? "";
}
