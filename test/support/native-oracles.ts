/**
 * Oracles of the native-engine tests (test/native/native-*.test.ts): Debian's own command-line
 * tools read what the native engine wrote — ImageMagick's `identify`, poppler's pdffonts, pdfimages
 * and pdfinfo, qpdf (--json, --check), exiftool, Ghostscript re-opening a file, dpkg — and /proc
 * tells which tool processes are running. Nothing here is this project's code under test.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { expect } from "vitest";
import { pdfinfo } from "./pdf-helpers";

/** Runs a tool without a shell; never throws for its exit status (only when it cannot be started). */
export function sh(cmd: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `f` called once, on first use, its value kept. */
const memo = <T>(f: () => T) => {
  let v: T | undefined;
  return () => (v ??= f());
};

/** The versions the tools print themselves (what the native engine must report as engine versions). */
export const gsVersion = memo(() => sh("gs", ["--version"]).stdout.trim());
export const qpdfVersion = memo(() => /qpdf version (\S+)/.exec(sh("qpdf", ["--version"]).stdout)![1]!);
export const imVersion = memo(() => /ImageMagick (\S+)/.exec(sh("convert", ["-version"]).stdout)![1]!);
export const gmVersion = memo(() => /GraphicsMagick (\S+)/.exec(sh("gm", ["version"]).stdout)![1]!);

/** `identify -format FMT path` (ImageMagick's own CLI). */
export function identify(path: string, format: string): string {
  const r = sh("identify", ["-format", format, path]);
  if (r.status !== 0) throw new Error(`identify ${path}: ${r.stderr}`);
  return r.stdout.trim();
}

/** The owning Debian package of a file per `dpkg -S`. */
export function dpkgOwner(path: string): string {
  return sh("dpkg", ["-S", path]).stdout.split(":")[0]!.trim();
}

/** Fonts of a PDF per pdffonts, with the "emb" column read at the header's position. */
export function pdffonts(path: string): { name: string; emb: string }[] {
  const r = sh("pdffonts", [path]);
  if (r.status !== 0) throw new Error(`pdffonts ${path}: ${r.stderr}`);
  const lines = r.stdout.split("\n");
  const col = lines[0]!.indexOf(" emb ") + 1;
  return lines
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => ({ name: l.slice(0, 37).trim(), emb: l.slice(col, col + 3).trim() }));
}

/** The images of a PDF per `pdfimages -list`: size and colour column. */
export function images(path: string): { width: number; height: number; color: string }[] {
  const r = sh("pdfimages", ["-list", path]);
  if (r.status !== 0) throw new Error(`pdfimages ${path}: ${r.stderr}`);
  return r.stdout
    .split("\n")
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => {
      const c = l.trim().split(/\s+/);
      return { width: Number(c[3]), height: Number(c[4]), color: c[5]! };
    });
}

/** The "WxH" of each image, sorted (to compare two `images` lists regardless of order). */
export const sizes = (list: { width: number; height: number }[]) => list.map((i) => `${i.width}x${i.height}`).sort();

/** Total pixels of an `images` list. */
export const pixels = (list: { width: number; height: number }[]) => list.reduce((n, i) => n + i.width * i.height, 0);

/** Image rows of `pdfimages -list` (0 when poppler cannot read the file). */
export function imageRows(path: string): number {
  const r = sh("pdfimages", ["-list", path]);
  return r.status === 0
    ? r.stdout
        .split("\n")
        .slice(2)
        .filter((l) => l.trim()).length
    : 0;
}

/** A PDF dictionary as `qpdf --json=2` writes it: "/Key" → a value ("N 0 R" references unresolved). */
type PdfDict = Record<string, unknown>;

/** The object table of `qpdf --json=2` and a resolver of "N 0 R" references (dicts and stream dicts). */
export function qpdfObjects(path: string): { trailer: PdfDict; resolve: (v: unknown) => unknown } {
  const r = sh("qpdf", ["--json=2", path]);
  if (r.status !== 0 && r.status !== 3) throw new Error(`qpdf --json ${path}: ${r.stderr}`);
  const objects = (JSON.parse(r.stdout).qpdf as Record<string, { value?: unknown; stream?: { dict: PdfDict } }>[])[1]!;
  const resolve = (v: unknown): unknown => {
    if (typeof v !== "string" || !/^\d+ \d+ R$/.test(v)) return v;
    const o = objects[`obj:${v}`];
    return o?.value ?? o?.stream?.dict;
  };
  return { trailer: objects.trailer!.value as PdfDict, resolve };
}

/** The catalog's /OutputIntents, each resolved, with its /DestOutputProfile stream dictionary. */
export function outputIntents(path: string): { S: string; profileN: number | undefined }[] {
  const { trailer, resolve } = qpdfObjects(path);
  const catalog = resolve(trailer["/Root"]) as PdfDict;
  const list = (resolve(catalog["/OutputIntents"]) ?? []) as unknown[];
  return list
    .map((v) => resolve(v) as PdfDict)
    .map((oi) => ({
      S: oi["/S"] as string,
      profileN: (resolve(oi["/DestOutputProfile"]) as PdfDict | undefined)?.["/N"] as number | undefined,
    }));
}

/** The document information dictionary (strings without qpdf's "u:" prefix). */
export function infoDict(path: string): Record<string, string> {
  const { trailer, resolve } = qpdfObjects(path);
  const info = (resolve(trailer["/Info"]) ?? {}) as PdfDict;
  return Object.fromEntries(
    Object.entries(info).map(([k, v]) => [k, typeof v === "string" ? v.replace(/^[ub]:/, "") : String(v)]),
  );
}

/** The document information Title as pdfinfo prints it at the start of a line (its PDF/X subtype block has an indented "Title:" of its own). */
export function docTitle(path: string): string | undefined {
  return sh("pdfinfo", [path])
    .stdout.split("\n")
    .find((l) => l.startsWith("Title:"))
    ?.slice("Title:".length)
    .trim();
}

/** Every PDF/A assertion of an output: XMP part/conformance, fonts, output intent, validity, pages. */
export function expectPdfA(path: string, part: number, pages: number): void {
  const xmp = JSON.parse(sh("exiftool", ["-j", "-XMP-pdfaid:all", path]).stdout)[0];
  expect(xmp, "exiftool -XMP-pdfaid:all").toMatchObject({ Part: part, Conformance: "B" });
  const fonts = pdffonts(path);
  expect(
    fonts.filter((f) => f.emb !== "yes"),
    "fonts not embedded (pdffonts)",
  ).toEqual([]);
  const intents = outputIntents(path);
  expect(intents, "catalog /OutputIntents").toContainEqual({ S: "/GTS_PDFA1", profileN: 3 });
  const check = sh("qpdf", ["--check", path]);
  expect([0, 3], `qpdf --check: ${check.stdout}${check.stderr}`).toContain(check.status);
  const gs = sh("gs", ["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=nullpage", path]);
  expect(gs.status, `gs re-opening the output: ${gs.stdout}${gs.stderr}`).toBe(0);
  expect(pdfinfo(path).Pages).toBe(String(pages));
}

/** Every PDF/X assertion of an output: subtype, GTS_PDFXVersion, Trapped, CMYK GTS_PDFX intent, validity, pages. */
export function expectPdfX(path: string, subtype: string, pages: number): void {
  expect(pdfinfo(path)["PDF subtype"], "pdfinfo PDF subtype").toBe(subtype);
  const info = infoDict(path);
  expect(info["/GTS_PDFXVersion"]).toBe(subtype);
  expect(["/True", "/False"], "PDF/X requires /Trapped True or False").toContain(info["/Trapped"]);
  expect(outputIntents(path)).toContainEqual({ S: "/GTS_PDFX", profileN: 4 });
  const check = sh("qpdf", ["--check", path]);
  expect([0, 3], `qpdf --check: ${check.stdout}${check.stderr}`).toContain(check.status);
  expect(pdfinfo(path).Pages).toBe(String(pages));
}

/** Asserts (with identify) that the left quarter of an image is red and the right quarter blue. */
export function expectRedLeftBlueRight(path: string, w: number, h: number): void {
  const px = (x: number) => identify(path, `%[pixel:p{${x},${Math.floor(h / 2)}}]`);
  const rgb = (s: string) => (/\((\d+),(\d+),(\d+)/.exec(s) ?? []).slice(1).map(Number);
  const [lr, lg, lb] = rgb(px(Math.floor(w / 4)));
  const [rr, rg, rb] = rgb(px(Math.floor((3 * w) / 4)));
  expect(lr, "left is red").toBeGreaterThan(200);
  expect(Math.max(lg!, lb!), "left is red").toBeLessThan(40);
  expect(rb, "right is blue").toBeGreaterThan(200);
  expect(Math.max(rr!, rg!), "right is blue").toBeLessThan(40);
}

// ---------------------------------------------------------------------------------------------
// Process watching (/proc): the tool runs of a native engine, seen from outside it
// ---------------------------------------------------------------------------------------------

/** Processes whose command line names a path under `dir` (the native engine's tool runs). */
export function toolsUnder(dir: string): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmd.includes(dir)) out.push({ pid: Number(p), cmd });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** True while process `pid` exists and is not a zombie (an exited child its parent has not reaped yet). */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false; // no /proc entry: gone
  }
}

/**
 * Waits up to `ms` for none of `pids` to be alive; returns those still alive (empty = all gone). A killed process
 * leaves /proc in steps: its command line empties (so toolsUnder no longer names it) before it is a zombie, so a
 * check of `alive` right after toolsGone can still see it exiting (a CI failure of native-limits.test.ts).
 */
export async function pidsGone(pids: number[], ms: number): Promise<number[]> {
  await until(() => !pids.some(alive), ms);
  return pids.filter(alive);
}

/** Waits up to `ms` for no tool process under `dir`; returns what is left (empty = all gone). */
export async function toolsGone(dir: string, ms: number): Promise<{ pid: number; cmd: string }[]> {
  await until(() => toolsUnder(dir).length === 0, ms);
  return toolsUnder(dir);
}

/**
 * Polls `cond` every 25 ms until it holds or `ms` have passed; returns its last value. `ms` is the
 * failure bound of a wait on an event, never the claim: make it generous (a loaded 2-core machine).
 */
export async function until(cond: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 25)))
    if (cond()) return true;
  return cond();
}

/** identify's format, width, height and mean channel standard deviation (0–1) of the first frame of the image at `path`. */
export function imageStats(path: string): { format: string; width: number; height: number; stddev: number } {
  const [format, w, h, sd] = execFileSync("identify", ["-format", "%m %w %h %[fx:standard_deviation]", `${path}[0]`], {
    encoding: "utf8",
  }).split(" ");
  return { format: format!, width: Number(w), height: Number(h), stddev: Number(sd) };
}

/** Normalised RMSE of two same-sized images per ImageMagick's compare (0 identical … 1; NaN when it printed none). */
export function rmse(a: string, b: string): number {
  const r = execFileSync("sh", ["-c", `compare -metric RMSE "${a}" "${b}" null: 2>&1 || true`], { encoding: "utf8" });
  return Number(/\(([\d.e-]+)\)/.exec(r)?.[1] ?? NaN);
}
