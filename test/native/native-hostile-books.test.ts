/**
 * The hostile sweep for e-books, fonts and CAD drawings (issue 33; the rest of the sweep is
 * native-hostile.test.ts): EPUB and FB2 books naming loopback URLs, local files and external entities
 * (XXE), a book script, XML bombs ("billion laughs"), zip bombs as EPUB and CBZ, malformed fonts, a
 * DXF naming a local file and a huge DXF. Judged outside the engines: a counting loopback HTTP server
 * (every request it sees), a FIFO whose opening the test sees (whoever reads a named file must open it),
 * pdftotext and unzip of the outputs, the wall clock, and the task's error code.
 */
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateRawSync, crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { bytesInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";
import { startCountingServer, watchedFile, type CountingServer } from "../support/hostile-probes";
import { mobiText, pdfText, plain, saved, storedRar, zipText } from "../support/ebook-oracles";
import { epub, zip } from "../support/hostile-documents";
import { scaled } from "../support/time-scale";

let native: NativeServer;
let scratch: string;
let server: CountingServer;
let port = 0;
/** Paths the loopback server was asked for. */
let hits: string[] = [];
beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "native-hostile-books-"));
  native = await startNativeEngine();
  server = await startCountingServer();
  ({ port, hits } = server);
}, scaled(90_000));
afterAll(async () => {
  await native?.stop();
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const ctx = (timeoutMs?: number) => testContext({ engines: native.engines(timeoutMs ? { timeoutMs } : {}) });
const utf8 = (s: string) => new TextEncoder().encode(s);
const convert = (name: string, data: Uint8Array, format: string, extra: Record<string, unknown> = {}, c = ctx()) =>
  execute("convert", { output_format: format, ...extra }, [bytesInput(name, data)], c);

const PASSWD_LINE = /root:x?:0:0:/;
const SECRET = "WATCHED-FILE-SECRET";

describe("books naming loopback URLs, local files and external entities: nothing fetched, nothing embedded", () => {
  const hostileXhtml = (fifo: string) => `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY fifo SYSTEM "file://${fifo}"><!ENTITY web SYSTEM "http://127.0.0.1:${port}/entity">]>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title>
<link rel="stylesheet" href="http://127.0.0.1:${port}/style.css"/>
<style>@import url("http://127.0.0.1:${port}/import.css"); body { background: url("http://127.0.0.1:${port}/bg.png") } @font-face { font-family: X; src: url("http://127.0.0.1:${port}/font.ttf") }</style>
<script>document.write("SCRIPT-RAN"); fetch("http://127.0.0.1:${port}/script");</script>
</head><body onload="document.body.innerHTML='ONLOAD-RAN'"><p>Hello book body. [&xxe;] [&fifo;] [&web;]</p>
<img src="missing.png" onerror="document.body.insertAdjacentHTML('beforeend', 'ONERROR-RAN')"/><a href="javascript:document.write('HREF-RAN')">js link</a><iframe srcdoc="&lt;script&gt;parent.document.title='SRCDOC-RAN'&lt;/script&gt;"></iframe>
<img src="http://127.0.0.1:${port}/img.png"/><img src="file:///etc/passwd"/><img src="file://${fifo}"/>
<iframe src="file:///etc/passwd"></iframe><object data="file://${fifo}"></object>
<a href="http://127.0.0.1:${port}/link">link</a></body></html>`;

  for (const format of ["pdf", "txt", "epub", "mobi"]) {
    it(
      `EPUB → ${format}: no request, the FIFO never opened, no passwd line, no script ran`,
      async () => {
        const fifo = join(scratch, `fifo-${format}`);
        const watch = watchedFile(fifo, SECRET);
        const before = hits.length;
        const book = epub(
          hostileXhtml(fifo),
          `<item id="r" href="http://127.0.0.1:${port}/remote.xhtml" media-type="application/xhtml+xml"/><item id="p" href="file:///etc/passwd" media-type="text/plain"/>`,
        );
        const r = await convert("hostile.epub", book, format);
        const out = dataOf(r.out.files[0]!);
        expect(hits.slice(before)).toEqual([]);
        expect(await watch.opened()).toBe(false);
        const text =
          format === "pdf"
            ? pdfText(saved(out, "pdf"))
            : format === "epub"
              ? zipText(saved(out, "epub"), "*")
              : format === "mobi"
                ? mobiText(out)
                : new TextDecoder("latin1").decode(out);
        expect(text).toContain("Hello book body");
        expect(text).not.toMatch(PASSWD_LINE);
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain("LOOPBACK-CONTENT");
        if (format === "pdf" || format === "txt") {
          expect(text).not.toContain("SCRIPT-RAN");
          expect(text).not.toContain("ONLOAD-RAN");
          expect(text).not.toContain("ONERROR-RAN");
          expect(text).not.toContain("HREF-RAN");
        }
      },
      scaled(120_000),
    );
  }

  it(
    "FB2 with external entities (file:, FIFO, loopback) and image links to local files → txt: nothing read or fetched",
    async () => {
      const fifo = join(scratch, "fifo-fb2");
      const watch = watchedFile(fifo, SECRET);
      const before = hits.length;
      const fb2 = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE FictionBook [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY fifo SYSTEM "file://${fifo}"><!ENTITY web SYSTEM "http://127.0.0.1:${port}/fb2">]>
<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink"><description><title-info><book-title>F</book-title></title-info></description>
<body><section><p>Fb body [&xxe;] [&fifo;] [&web;]</p><image l:href="file:///etc/passwd"/><image l:href="${fifo}"/><image l:href="http://127.0.0.1:${port}/img"/></section></body></FictionBook>`;
      const text = new TextDecoder().decode(dataOf((await convert("x.fb2", utf8(fb2), "txt")).out.files[0]!));
      expect(text).toContain("Fb body");
      expect(text).not.toMatch(PASSWD_LINE);
      expect(text).not.toContain(SECRET);
      expect(hits.slice(before)).toEqual([]);
      expect(await watch.opened()).toBe(false);
    },
    scaled(120_000),
  );
});

describe("XML bombs: entities are not expanded, the task ends at once with a small output", () => {
  const entities =
    '<!ENTITY a0 "lol">' +
    Array.from({ length: 9 }, (_, i) => `<!ENTITY a${i + 1} "${`&a${i};`.repeat(10)}">`).join("");

  it(
    "billion laughs in an FB2 → txt within 60 s, no expansion (output < 10 KB)",
    async () => {
      const fb2 = `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE FictionBook [${entities}]><FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><description><title-info><book-title>B</book-title></title-info></description><body><section><p>Bomb [&a9;]</p></section></body></FictionBook>`;
      const started = Date.now();
      const out = dataOf((await convert("bomb.fb2", utf8(fb2), "txt")).out.files[0]!);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(out.length).toBeLessThan(10_000);
      expect(new TextDecoder().decode(out)).not.toContain("lollol");
    },
    scaled(120_000),
  );

  it(
    "billion laughs in an EPUB chapter → epub within 60 s, no expansion",
    async () => {
      const xhtml = `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html [${entities}]><html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><p>Bomb [&a9;]</p></body></html>`;
      const started = Date.now();
      const out = dataOf((await convert("bomb.epub", epub(xhtml), "epub")).out.files[0]!);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(plain(zipText(saved(out, "epub"), "*html"))).not.toContain("lollol");
    },
    scaled(120_000),
  );
});

describe("zip bombs end OVER_BUDGET before calibre unpacks them", () => {
  /** 4 members of 400 MiB of zeros each (1.6 GiB unpacked), deflated once (~400 KiB) and repeated. */
  const bomb = (() => {
    const size = 400 * 1024 * 1024;
    const zeros = Buffer.alloc(size);
    return { data: new Uint8Array(deflateRawSync(zeros, { level: 9 })), size, crc: crc32(zeros), count: 4 };
  })();

  it(
    "an EPUB whose chapters unpack to 1.6 GiB → OVER_BUDGET in seconds",
    async () => {
      const book = zip([["mimetype", utf8("application/epub+zip")]], { ...bomb, name: (i) => `OEBPS/c${i}.xhtml` });
      expect(book.length).toBeLessThan(4 * 1024 * 1024);
      const started = Date.now();
      const e = await expectTaskError(() => convert("bomb.epub", book, "pdf"), "OVER_BUDGET");
      expect(e.message).toMatch(/bomb\.epub unpacks to 1600 MiB/);
      expect(Date.now() - started).toBeLessThan(10_000);
    },
    scaled(60_000),
  );

  it(
    "a CBR whose headers declare 1.6 GiB of pages → OVER_BUDGET in seconds; a CBR that is no RAR → OPEN_FAILED",
    async () => {
      const rar = storedRar([{ name: "p1.jpg", data: utf8("tiny"), declaredSize: 1600 * 1024 * 1024 }]);
      const started = Date.now();
      await expectTaskError(() => convert("bomb.cbr", rar, "pdf"), "OVER_BUDGET");
      expect(Date.now() - started).toBeLessThan(10_000);
      await expectTaskError(() => convert("fake.cbr", utf8("not a rar at all"), "pdf"), "OPEN_FAILED");
    },
    scaled(60_000),
  );

  it(
    "a CBZ whose pages unpack to 1.6 GiB → OVER_BUDGET in seconds",
    async () => {
      const comic = zip([], { ...bomb, name: (i) => `page-${i}.jpg` });
      const started = Date.now();
      await expectTaskError(() => convert("bomb.cbz", comic, "epub"), "OVER_BUDGET");
      expect(Date.now() - started).toBeLessThan(10_000);
    },
    scaled(60_000),
  );
});

describe("malformed fonts end OPEN_FAILED", () => {
  it(
    "a WOFF2 header over random bytes, and a TrueType table directory pointing past the end",
    async () => {
      const woff2 = new Uint8Array(2048).map((_, i) => (i * 31) % 256);
      woff2.set(utf8("wOF2"), 0);
      await expectTaskError(() => convert("bad.woff2", woff2, "ttf"), "OPEN_FAILED");
      const ttf = new Uint8Array(readFileSync(corpusPath("fonts/dejavu-DejaVuSansMono.ttf"))).slice(0, 4096);
      await expectTaskError(() => convert("bad.ttf", ttf, "woff2"), "OPEN_FAILED");
    },
    scaled(60_000),
  );
});

describe("CAD drawings: a DXF naming a local file reads nothing; a huge DXF ends TIMEOUT", () => {
  it(
    "IMAGE/IMAGEDEF and an XREF block naming a FIFO: svg converted, dxf refused, the FIFO never opened",
    async () => {
      const fifo = join(scratch, "fifo-dxf");
      const watch = watchedFile(fifo, SECRET);
      const dxf = [
        "0",
        "SECTION",
        "2",
        "BLOCKS",
        "0",
        "BLOCK",
        "2",
        "XREFBLK",
        "70",
        "4",
        "1",
        fifo,
        "10",
        "0",
        "20",
        "0",
        "30",
        "0",
        "0",
        "ENDBLK",
        "0",
        "ENDSEC",
        "0",
        "SECTION",
        "2",
        "ENTITIES",
        "0",
        "LINE",
        "8",
        "0",
        "10",
        "0",
        "20",
        "0",
        "30",
        "0",
        "11",
        "100",
        "21",
        "100",
        "31",
        "0",
        "0",
        "INSERT",
        "8",
        "0",
        "2",
        "XREFBLK",
        "10",
        "0",
        "20",
        "0",
        "30",
        "0",
        "0",
        "IMAGE",
        "8",
        "0",
        "340",
        "ABC",
        "10",
        "0",
        "20",
        "0",
        "30",
        "0",
        "0",
        "ENDSEC",
        "0",
        "SECTION",
        "2",
        "OBJECTS",
        "0",
        "IMAGEDEF",
        "5",
        "ABC",
        "1",
        fifo,
        "0",
        "ENDSEC",
        "0",
        "EOF",
        "",
      ].join("\n");
      const out = dataOf((await convert("ref.dxf", utf8(dxf), "svg")).out.files[0]!);
      expect(new TextDecoder().decode(out)).not.toContain(SECRET);
      // ezdxf (dxf → dxf) stops at the IMAGE entity, which lacks the subclass markers an R2000 DXF gives it
      await expectTaskError(() => convert("ref.dxf", utf8(dxf), "dxf"), "OPEN_FAILED");
      expect(await watch.opened()).toBe(false);
    },
    scaled(60_000),
  );

  it(
    "400,000 LINE entities (~25 MB) with a 5 s limit → TIMEOUT, and the engine serves the next drawing",
    async () => {
      const lines: string[] = ["0", "SECTION", "2", "ENTITIES"];
      for (let i = 0; i < 400_000; i++)
        lines.push(
          "0",
          "LINE",
          "8",
          "0",
          "10",
          String(i % 1000),
          "20",
          String(i % 777),
          "30",
          "0",
          "11",
          String(i % 555),
          "21",
          "5",
          "31",
          "0",
        );
      lines.push("0", "ENDSEC", "0", "EOF", "");
      const huge = utf8(lines.join("\n"));
      const started = Date.now();
      await expectTaskError(() => convert("huge.dxf", huge, "png", {}, ctx(5_000)), "TIMEOUT");
      expect(Date.now() - started).toBeLessThan(30_000);
      const ok = await convert("tux.dxf", new Uint8Array(readFileSync(corpusPath("cad/librecad-tux.dxf"))), "png");
      expect(dataOf(ok.out.files[0]!).length).toBeGreaterThan(1000);
    },
    scaled(120_000),
  );
});
