/**
 * The LibreOffice warm pool (container/office): real soffice processes converting the office corpus.
 * Oracles that are not this code: a cold `soffice --headless --convert-to pdf` run on the same files
 * (page count, first words), pdfinfo / pdftotext / pdfimages from poppler, the documents' own XML,
 * and /proc for which processes are alive. Needs LibreOffice (writer/calc/impress nogui), python3-uno
 * and poppler-utils, as listed in container/debian-packages.txt.
 */
import { execFile, execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OfficeError, OfficePool } from "../../container/office/pool.ts";
import { corpusPath } from "../support/corpus";
import { scaled } from "../support/time-scale";

const SOFFICE = "/usr/bin/soffice";
const PASSWORD_DOCX = "tika-testWORD_protected_passtika.docx";
const OFFICE_FILES = readdirSync(corpusPath("office"))
  .filter((f) => f !== PASSWORD_DOCX)
  .sort();
const GALLERY_GIRAFFE = "/usr/lib/libreoffice/share/gallery/backgrounds/giraffe.png";

const tmp = mkdtempSync(join(tmpdir(), "office-pool-test-"));
const workRoot = join(tmp, "work");
const outDir = join(tmp, "out");
const coldIn = join(tmp, "cold-in");
const coldOut = join(tmp, "cold-out");
mkdirSync(outDir);
mkdirSync(coldIn);
mkdirSync(coldOut);

/** The cold CLI's output for an input copied as `name` into coldIn (unique stems: "x.xls" → "x__xls.pdf"). */
const coldName = (file: string) => `${file.slice(0, -extname(file).length)}__${extname(file).slice(1)}`;
const coldPdf = (file: string) => join(coldOut, `${coldName(file)}.pdf`);

const pdfPages = (pdf: string) =>
  Number(/^Pages:\s+(\d+)/m.exec(execFileSync("pdfinfo", [pdf], { encoding: "utf8" }))?.[1]);
const pdfWords = (pdf: string) =>
  execFileSync("pdftotext", [pdf, "-"], { encoding: "utf8" }).split(/\s+/).filter(Boolean);
/** Image XObjects listed by `pdfimages -list` (two header lines, then one line per image). */
const pdfImages = (pdf: string) =>
  execFileSync("pdfimages", ["-list", pdf], { encoding: "utf8" }).trim().split("\n").slice(2).filter(Boolean).length;

/** Font family names a zipped document's XML declares (OOXML theme/run fonts, ODF font faces, xlsx fonts). */
function declaredFonts(path: string): Set<string> {
  const out = new Set<string>();
  const entries = unzipSync(new Uint8Array(readFileSync(path)), { filter: (f) => f.name.endsWith(".xml") });
  for (const data of Object.values(entries)) {
    const xml = strFromU8(data);
    for (const m of xml.matchAll(
      /(?:w:ascii|w:hAnsi|w:name|typeface|style:font-name|svg:font-family|<name val)="([^"]+)"/g,
    )) {
      out.add(m[1].replace(/&apos;|'/g, "").trim());
    }
  }
  return out;
}

/** Pids of live (non-zombie) processes in process group `pgid`, or whose command line mentions `needle`. */
/** CPU time (user + system, clock ticks of 10 ms) the processes `pids` have used so far; gone processes count 0. */
function cpuTicks(pids: number[]): number {
  let sum = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      sum += Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15 of proc(5))
    } catch {
      /* exited */
    }
  }
  return sum;
}

function liveProcesses(pgids: number[], needle?: string): number[] {
  const found: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z") continue;
      const cmdline = needle ? readFileSync(`/proc/${e}/cmdline`, "utf8") : "";
      if (pgids.includes(Number(pgrp)) || (needle && cmdline.includes(needle))) found.push(Number(e));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** Whether process `pid` exists and is not a zombie. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z";
  } catch {
    return false;
  }
}

/** Polls until `pids` are all gone (or 3 s passed); returns those still alive. */
async function survivors(pids: number[]): Promise<number[]> {
  for (let i = 0; i < 30 && pids.some(isAlive); i++) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(isAlive);
}

async function expectOfficeError(p: Promise<unknown>, code: string): Promise<OfficeError> {
  const err = await p.then(
    (r) => {
      throw new Error(`expected ${code}, got ${JSON.stringify(r)}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OfficeError);
  expect((err as OfficeError).code, (err as Error).message).toBe(code);
  return err as OfficeError;
}

/** A flat ODT linking (not embedding) the PNG at `png`, as the corpus fixture does with the gallery giraffe. */
function linkedFodt(png: string): string {
  const fixture = readFileSync(corpusPath("broken/gotenberg-libreoffice-linked-external.fodt"), "utf8");
  return fixture.replace(`file://${GALLERY_GIRAFFE}`, pathToFileURL(png).href);
}

// A PNG outside every document folder, linked by absolute file: URL from a document of our own.
const LINKED_PNG = join(tmp, "elsewhere", "linked.png");
const LINKED_FODT = join(tmp, "docs", "linked-local.fodt");
mkdirSync(join(tmp, "elsewhere"));
mkdirSync(join(tmp, "docs"));
copyFileSync(corpusPath("images/pngsuite-basi3p08.png"), LINKED_PNG);
writeFileSync(LINKED_FODT, linkedFodt(LINKED_PNG));

// A long plain-text document (about 330 pages): seconds of work for LibreOffice.
const BIG_TXT = join(tmp, "docs", "big.txt");
{
  const words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor".split(" ");
  const lines: string[] = [];
  for (let i = 0; i < 4000; i++)
    lines.push(Array.from({ length: 60 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" "));
  writeFileSync(BIG_TXT, lines.join("\n"));
}

// An HTML page linking an image on a local HTTP server (counting requests) and one on the disk.
const REMOTE_HTML = join(tmp, "docs", "remote.html");
const LOCAL_HTML = join(tmp, "docs", "local-link.html");
writeFileSync(
  LOCAL_HTML,
  `<html><body><p>Local image below</p><img src="${pathToFileURL(LINKED_PNG).href}" width="50" height="50"></body></html>`,
);
let server: Server;
let httpHits = 0;
let coldHttpHits = 0;

let pool: OfficePool;
let out = 0;
const nextOut = (ext = "pdf") => join(outDir, `o${++out}.${ext}`);

beforeAll(async () => {
  server = createServer((req, res) => {
    httpHits++;
    res.writeHead(200, { "content-type": "image/png" });
    res.end(readFileSync(LINKED_PNG));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  writeFileSync(
    REMOTE_HTML,
    `<html><body><p>Remote image below</p><img src="http://127.0.0.1:${port}/x.png" width="50" height="50"></body></html>`,
  );
  // The oracle: one cold `soffice --convert-to pdf` run, own default (unhardened) profile, over every
  // office corpus file but the encrypted one, plus our linked-image document.
  for (const f of OFFICE_FILES) copyFileSync(corpusPath(`office/${f}`), join(coldIn, `${coldName(f)}${extname(f)}`));
  copyFileSync(LINKED_FODT, join(coldIn, `${coldName("linked-local.fodt")}.fodt`));
  copyFileSync(REMOTE_HTML, join(coldIn, `${coldName("remote.html")}.html`));
  // Asynchronous: the HTTP server above must keep answering while the CLI runs.
  await promisify(execFile)(
    SOFFICE,
    [
      `-env:UserInstallation=${pathToFileURL(join(tmp, "cold-profile")).href}`,
      "--headless",
      "--convert-to",
      "pdf",
      "--outdir",
      coldOut,
      ...readdirSync(coldIn).map((f) => join(coldIn, f)),
    ],
    { env: { HOME: tmp, PATH: process.env.PATH, SAL_USE_VCLPLUGIN: "svp" }, timeout: 120_000 },
  );
  coldHttpHits = httpHits;
  pool = new OfficePool({ workRoot, size: 2 });
  await pool.warm();
}, scaled(150_000));

afterAll(async () => {
  await pool?.close();
  server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("office corpus → PDF matches a cold soffice --convert-to", () => {
  it("the cold CLI converted nearly all of them (the oracle is not vacuous)", () => {
    expect(OFFICE_FILES.filter((f) => existsSync(coldPdf(f))).length).toBeGreaterThanOrEqual(12);
  });

  it.each(OFFICE_FILES)("%s", async (file) => {
    const output = nextOut();
    const run = pool.convert({ input: corpusPath(`office/${file}`), output, format: "pdf", timeoutMs: 60_000 });
    if (!existsSync(coldPdf(file))) {
      // LibreOffice cannot load it at all (7.4 has no EPUB import): the pool says so cleanly.
      await expectOfficeError(run, "OPEN_FAILED");
      expect(existsSync(output)).toBe(false);
      return;
    }
    const result = await run;
    expect(pdfPages(output)).toBe(pdfPages(coldPdf(file)));
    expect(result.pages).toBe(pdfPages(output));
    const cold = pdfWords(coldPdf(file));
    const warm = pdfWords(output);
    if (cold.length === 0) {
      expect(warm).toEqual([]); // e.g. a docx with empty paragraphs, a slide holding only a movie
    } else {
      expect(warm.length).toBeGreaterThan(0);
      expect(warm.slice(0, 6)).toEqual(cold.slice(0, 6));
    }
    expect(result.ms).toBeGreaterThan(0);
    // Fonts: for Writer/Calc documents in zipped XML, every family reported is one the document declares.
    if ([".docx", ".odt", ".ods", ".xlsx"].includes(extname(file))) {
      expect(result.fontsRequested.length).toBeGreaterThan(0);
      const declared = declaredFonts(corpusPath(`office/${file}`));
      for (const font of result.fontsRequested) expect(declared, `${font} not declared by ${file}`).toContain(font);
    }
  });

  it("reports the fonts a docx asks for (gotenberg-pages_3.docx: Arial)", async () => {
    const r = await pool.convert({
      input: corpusPath("office/gotenberg-pages_3.docx"),
      output: nextOut(),
      format: "pdf",
      timeoutMs: 60_000,
    });
    expect(declaredFonts(corpusPath("office/gotenberg-pages_3.docx"))).toContain("Arial");
    expect(r.fontsRequested).toEqual(["Arial"]);
  });
});

describe("password-protected docx", () => {
  const input = corpusPath(`office/${PASSWORD_DOCX}`);

  it("without a password → INVALID_PASSWORD", async () => {
    const output = nextOut();
    await expectOfficeError(pool.convert({ input, output, format: "pdf", timeoutMs: 60_000 }), "INVALID_PASSWORD");
    expect(existsSync(output)).toBe(false);
  });

  it("with a wrong password → INVALID_PASSWORD", async () => {
    await expectOfficeError(
      pool.convert({ input, output: nextOut(), format: "pdf", password: "not-tika", timeoutMs: 60_000 }),
      "INVALID_PASSWORD",
    );
  });

  it('with "tika" → a PDF with text', async () => {
    const output = nextOut();
    const r = await pool.convert({ input, output, format: "pdf", password: "tika", timeoutMs: 60_000 });
    expect(pdfWords(output).length).toBeGreaterThan(0);
    expect(r.pages).toBe(pdfPages(output));
  });
});

describe("broken and hostile inputs", () => {
  it("a truncated docx → OPEN_FAILED, and the pool converts a good document right after", async () => {
    await expectOfficeError(
      pool.convert({
        input: corpusPath("broken/tika-testWORD_truncated.docx"),
        output: nextOut(),
        format: "pdf",
        timeoutMs: 60_000,
      }),
      "OPEN_FAILED",
    );
    const output = nextOut();
    const r = await pool.convert({
      input: corpusPath("office/gotenberg-pages_3.docx"),
      output,
      format: "pdf",
      timeoutMs: 60_000,
    });
    expect(r.pages).toBe(3);
    expect(pdfPages(output)).toBe(3);
  });

  it("a missing input → OPEN_FAILED", async () => {
    await expectOfficeError(
      pool.convert({ input: join(tmp, "nope.docx"), output: nextOut(), format: "pdf", timeoutMs: 60_000 }),
      "OPEN_FAILED",
    );
  });

  it("the corpus fodt linking an absolute file: image converts without any image", async () => {
    const output = nextOut();
    await pool.convert({
      input: corpusPath("broken/gotenberg-libreoffice-linked-external.fodt"),
      output,
      format: "pdf",
      timeoutMs: 60_000,
    });
    expect(pdfWords(output).join(" ")).toContain("must not load");
    expect(pdfImages(output)).toBe(0);
  });

  it("a document linking an existing local PNG: the PNG is not loaded (an unhardened cold soffice does embed it)", async () => {
    // Control: the fixture works — a default LibreOffice profile follows the link and embeds the image.
    expect(pdfImages(coldPdf("linked-local.fodt"))).toBe(1);
    const output = nextOut();
    const before = readFileSync(LINKED_FODT);
    await pool.convert({ input: LINKED_FODT, output, format: "pdf", timeoutMs: 60_000 });
    expect(pdfWords(output).length).toBeGreaterThan(0);
    expect(pdfImages(output)).toBe(0);
    // the link was cut in a copy (office/links.ts): the caller's file is never changed
    expect(readFileSync(LINKED_FODT).equals(before)).toBe(true);
    expect(readFileSync(LINKED_FODT, "utf8")).toContain(pathToFileURL(LINKED_PNG).href);
  });

  it("HTML linking an image over HTTP: no request leaves LibreOffice (an unhardened cold soffice fetches it)", async () => {
    expect(coldHttpHits).toBeGreaterThan(0); // control: the fixture does make LibreOffice fetch
    const before = httpHits;
    const output = nextOut();
    await pool.convert({ input: REMOTE_HTML, output, format: "pdf", timeoutMs: 60_000 });
    expect(httpHits).toBe(before);
    expect(pdfWords(output)).toEqual(["Remote", "image", "below"]);
    expect(pdfImages(output)).toBe(0);
  });

  it("HTML linking a local file: image is not loaded; a data: URI image is kept", async () => {
    const output = nextOut();
    await pool.convert({ input: LOCAL_HTML, output, format: "pdf", timeoutMs: 60_000 });
    expect(pdfWords(output)).toEqual(["Local", "image", "below"]);
    expect(pdfImages(output)).toBe(0);
    const embedded = nextOut();
    const html = corpusPath("html/tika-testHTML_embedded_img.html");
    expect(readFileSync(html, "utf8")).toContain('src="data:image/jpeg;base64,');
    await pool.convert({ input: html, output: embedded, format: "pdf", timeoutMs: 60_000 });
    expect(pdfImages(embedded)).toBe(1);
  });

  it("PDF input → CONVERT_FAILED (not imported into LibreOffice)", async () => {
    await expectOfficeError(
      pool.convert({
        input: corpusPath("pdf/gotenberg-pages_12.pdf"),
        output: nextOut("docx"),
        format: "docx",
        timeoutMs: 60_000,
      }),
      "CONVERT_FAILED",
    );
    await expectOfficeError(
      pool.convert({
        input: corpusPath("pdf/gotenberg-pages_12.pdf"),
        output: nextOut(),
        format: "pdf",
        timeoutMs: 60_000,
      }),
      "CONVERT_FAILED",
    );
  });
});

describe("docx / odt output", () => {
  it(".doc → docx keeps the text and the page count", async () => {
    const output = nextOut("docx");
    const r = await pool.convert({
      input: corpusPath("office/tika-testWORD.doc"),
      output,
      format: "docx",
      timeoutMs: 60_000,
    });
    const xml = strFromU8(unzipSync(new Uint8Array(readFileSync(output)))["word/document.xml"]);
    const text = xml.replace(/<[^>]+>/g, "");
    expect(pdfWords(coldPdf("tika-testWORD.doc")).join(" ")).toContain("Sample Word Document");
    expect(text).toContain("Sample Word Document");
    expect(r.pages).toBe(pdfPages(coldPdf("tika-testWORD.doc")));
  });

  it(".rtf → odt", async () => {
    const output = nextOut("odt");
    await pool.convert({ input: corpusPath("office/tika-testRTF.rtf"), output, format: "odt", timeoutMs: 60_000 });
    const zip = unzipSync(new Uint8Array(readFileSync(output)));
    expect(strFromU8(zip["mimetype"])).toBe("application/vnd.oasis.opendocument.text");
    expect(strFromU8(zip["content.xml"])).toContain("indexation");
  });

  it("a spreadsheet → docx is NO_FILTER (LibreOffice writes no docx from Calc; issue 32 lets callers go through PDF)", async () => {
    const output = nextOut("docx");
    await expectOfficeError(
      pool.convert({ input: corpusPath("office/tika-testEXCEL.xls"), output, format: "docx", timeoutMs: 60_000 }),
      "NO_FILTER",
    );
    expect(existsSync(output)).toBe(false);
  });
});

describe("timeouts, crashes, concurrency", () => {
  it("a 1 ms timeout rejects TIMEOUT, kills that process, and the next request succeeds", async () => {
    await pool.warm();
    const before = pool.processIds();
    const deadBefore = before.filter((pid) => liveProcesses([pid]).length === 0).length;
    const restarts = pool.stats().restarts;
    const output = nextOut();
    await expectOfficeError(pool.convert({ input: BIG_TXT, output, format: "pdf", timeoutMs: 1 }), "TIMEOUT");
    expect(pool.stats().restarts).toBe(restarts + 1);
    expect(existsSync(output)).toBe(false);
    // One slot's soffice and bridge were killed (their process groups are empty) and new ones spawned.
    const newlyDead = () => before.filter((pid) => liveProcesses([pid]).length === 0).length - deadBefore;
    for (let i = 0; i < 50 && newlyDead() < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(newlyDead()).toBe(2);
    // the slot's replacements are spawned in the background: give them the time a loaded machine needs
    for (let i = 0; i < 100 && pool.processIds().length <= before.length; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(pool.processIds().length).toBeGreaterThan(before.length);
    const ok = nextOut();
    const r = await pool.convert({
      input: corpusPath("office/gotenberg-pages_3.docx"),
      output: ok,
      format: "pdf",
      timeoutMs: 60_000,
    });
    expect(r.pages).toBe(3);
    expect(pdfPages(ok)).toBe(3);
  });

  it("soffice killed mid-conversion → ENGINE_CRASHED, and the next request succeeds", async () => {
    await pool.warm();
    // every slot idle and connected (a slot restarted by an earlier test may still be starting, and its soffice spends CPU on start-up)
    for (let i = 0; i < 600 && pool.stats().ready < pool.stats().size; i++) await new Promise((r) => setTimeout(r, 50));
    expect(pool.stats().ready).toBe(pool.stats().size);
    const restarts = pool.stats().restarts;
    const bins = liveProcesses(pool.processIds()).filter((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("soffice.bin"),
    );
    expect(bins.length).toBeGreaterThan(0);
    const cpuBefore = cpuTicks(bins);
    const run = pool.convert({ input: BIG_TXT, output: nextOut(), format: "pdf", timeoutMs: 60_000 });
    const settled = run.then(
      () => "resolved",
      () => "rejected",
    );
    // The kill point is the test's, not the clock's: once soffice has spent CPU on this request (it
    // reached soffice's main thread; ~330 pages take seconds of CPU), every soffice.bin of the pool
    // is frozen with SIGSTOP, so it cannot finish however loaded the machine is, then SIGKILLed the
    // way a crash would end it.
    for (let i = 0; i < 6000 && cpuTicks(bins) - cpuBefore < 10; i++) await new Promise((r) => setTimeout(r, 5));
    expect(cpuTicks(bins) - cpuBefore, "soffice worked on the request").toBeGreaterThanOrEqual(10);
    for (const pid of bins) process.kill(pid, "SIGSTOP");
    expect(await Promise.race([settled, new Promise((r) => setTimeout(() => r("pending"), 50))])).toBe("pending");
    for (const pid of bins) process.kill(pid, "SIGKILL");
    await expectOfficeError(run, "ENGINE_CRASHED");
    expect(await settled).toBe("rejected");
    expect(pool.stats().restarts).toBeGreaterThan(restarts);
    const output = nextOut();
    const r = await pool.convert({
      input: corpusPath("office/gotenberg-pages_3.docx"),
      output,
      format: "pdf",
      timeoutMs: 60_000,
    });
    expect(r.pages).toBe(3);
  });

  it("8 conversions at once on 2 processes all succeed (3 pages each)", async () => {
    const outputs = Array.from({ length: 8 }, () => nextOut());
    let maxBusy = 0;
    const watch = setInterval(() => (maxBusy = Math.max(maxBusy, pool.stats().busy)), 5);
    const results = await Promise.all(
      outputs.map((output) =>
        pool.convert({ input: corpusPath("office/gotenberg-pages_3.docx"), output, format: "pdf", timeoutMs: 60_000 }),
      ),
    );
    clearInterval(watch);
    expect(maxBusy).toBeLessThanOrEqual(2);
    for (const [i, r] of results.entries()) {
      expect(r.pages).toBe(3);
      expect(pdfPages(outputs[i])).toBe(3);
      expect(pdfWords(outputs[i]).slice(0, 2)).toEqual(["Page", "1"]);
    }
  });

  it("a request whose queue wait exceeds its timeout rejects TIMEOUT without a process being killed", async () => {
    const restarts = pool.stats().restarts;
    const busy = [0, 1].map(() =>
      pool.convert({ input: BIG_TXT, output: nextOut(), format: "pdf", timeoutMs: 60_000 }),
    );
    await expectOfficeError(
      pool.convert({
        input: corpusPath("office/gotenberg-pages_3.docx"),
        output: nextOut(),
        format: "pdf",
        timeoutMs: 200,
      }),
      "TIMEOUT",
    );
    await Promise.all(busy);
    expect(pool.stats().restarts).toBe(restarts);
  });
});

describe("recycling and limits", () => {
  it("recycles a process after maxDocuments and runs soffice under the RLIMIT_AS given", async () => {
    const memoryBytes = 2 * 1024 ** 3;
    const p = new OfficePool({ workRoot: join(tmp, "work-recycle"), size: 1, maxDocuments: 2, memoryBytes });
    try {
      const convert = () =>
        p.convert({
          input: corpusPath("office/gotenberg-pages_3.docx"),
          output: nextOut(),
          format: "pdf",
          timeoutMs: 60_000,
        });
      await convert();
      // The address-space limit reached soffice.bin itself (a grandchild, through prlimit and oosplash).
      const bins = liveProcesses(p.processIds()).filter((pid) =>
        readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("soffice.bin"),
      );
      expect(bins.length).toBe(1);
      const limits = readFileSync(`/proc/${bins[0]}/limits`, "utf8");
      expect(limits).toMatch(new RegExp(`^Max address space\\s+${memoryBytes}\\s+${memoryBytes}\\s+bytes`, "m"));
      await convert();
      expect(p.stats().restarts).toBe(1); // after its 2nd document
      expect(await survivors(bins)).toEqual([]);
      expect((await convert()).pages).toBe(3);
      expect(p.stats()).toMatchObject({ restarts: 1, documents: 3 });
    } finally {
      await p.close();
    }
  });
});

describe("engine unavailable", () => {
  it("a missing soffice → ENGINE_UNAVAILABLE naming the Debian packages", async () => {
    const p = new OfficePool({ workRoot: join(tmp, "work-missing"), soffice: join(tmp, "no-such-soffice") });
    const err = await expectOfficeError(
      p.convert({
        input: corpusPath("office/gotenberg-pages_3.docx"),
        output: nextOut(),
        format: "pdf",
        timeoutMs: 30_000,
      }),
      "ENGINE_UNAVAILABLE",
    );
    expect(err.message).toContain(
      "libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui python3-uno",
    );
    await p.close();
  });

  it("a Python without the uno module → ENGINE_UNAVAILABLE naming python3-uno", async () => {
    // python3 -S skips site-packages, where Debian's uno module lives.
    const noUno = join(tmp, "python-no-uno");
    writeFileSync(noUno, '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n');
    chmodSync(noUno, 0o755);
    const p = new OfficePool({ workRoot: join(tmp, "work-nouno"), python: noUno, size: 1 });
    const err = await expectOfficeError(
      p.convert({
        input: corpusPath("office/gotenberg-pages_3.docx"),
        output: nextOut(),
        format: "pdf",
        timeoutMs: 60_000,
      }),
      "ENGINE_UNAVAILABLE",
    );
    expect(err.message).toContain("python3-uno");
    const pids = p.processIds();
    await p.close();
    expect(liveProcesses(pids)).toEqual([]);
  });
});

describe("close()", () => {
  it("leaves no process of this pool running and rejects later requests", async () => {
    const pids = pool.processIds();
    expect(pids.length).toBeGreaterThanOrEqual(4);
    expect(liveProcesses(pids).length).toBeGreaterThan(0);
    await pool.close();
    expect(liveProcesses(pids, workRoot)).toEqual([]);
    expect(pool.stats()).toMatchObject({ ready: 0, busy: 0 });
    await expectOfficeError(
      pool.convert({
        input: corpusPath("office/gotenberg-pages_3.docx"),
        output: nextOut(),
        format: "pdf",
        timeoutMs: 1000,
      }),
      "ENGINE_UNAVAILABLE",
    );
  });
});
