/**
 * Hostile inputs through the native engine (issue 30 part 0): documents whose macros would run on open,
 * SVGs that name local files (XXE, file: and text: hrefs, url()), playlists that name local files, and
 * request bodies over the server's limit, and framed bodies (issue 35) that lie about their parts, are
 * cut off or stall. Each case asserts a real outcome against an oracle outside the engine: a marker file
 * a macro would write, a FIFO whose open the test sees (whoever reads a named file must open it),
 * pdftotext, compare -metric AE, ffprobe, and the HTTP answer itself.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MediaEngine } from "../../src/engines/kinds/media";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { bytesInput, dataOf, expectTaskError, pdftotext, testContext } from "../support/pdf-helpers";
import { watchedFile } from "../support/hostile-probes";
import { request } from "node:http";
import { FRAMED_TYPE, FrameReader, frame } from "../../native-protocol/frame";
import { scaled } from "../support/time-scale";

/** The server's body limit in this file, MiB (NATIVE_MAX_BODY_MB): small, so a body over it is cheap to send. */
const LIMIT_MB = 1;
const LIMIT = LIMIT_MB * 1024 * 1024;
/** Its framed-body limit (NATIVE_MAX_STREAM_MB), and the longest pause inside a framed body (NATIVE_BODY_IDLE_SECONDS). */
const STREAM_LIMIT = 2 * 1024 * 1024;
const IDLE_S = 2;

let native: NativeServer;
let scratch: string;
beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "native-hostile-"));
  native = await startNativeEngine({
    NATIVE_MAX_BODY_MB: String(LIMIT_MB),
    NATIVE_MAX_STREAM_MB: String(STREAM_LIMIT / 1024 / 1024),
    NATIVE_BODY_IDLE_SECONDS: String(IDLE_S),
  });
}, scaled(120_000));
afterAll(async () => {
  await native?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A context with only the native engine's rows: routing can reach nothing else. */
const nativeOnly = () => testContext({ engines: native.engines() });
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const utf8 = (s: string) => new TextEncoder().encode(s);

/** What a task ended in: its output bytes, or its error code and message. */
async function outcome(
  run: Promise<{ out: { files: { data: unknown }[] } }>,
): Promise<{ data?: Uint8Array; code?: string; message?: string }> {
  try {
    const r = await run;
    return { data: dataOf(r.out.files[0] as never) };
  } catch (err) {
    return { code: (err as { code?: string }).code ?? "threw", message: (err as Error).message };
  }
}

/** Pixels that differ between two images, by ImageMagick's compare (the oracle; exit 0 same, 1 different). */
function differingPixels(a: Uint8Array, b: Uint8Array): number {
  writeFileSync(join(scratch, "a.png"), a);
  writeFileSync(join(scratch, "b.png"), b);
  const r = spawnSync("compare", ["-metric", "AE", join(scratch, "a.png"), join(scratch, "b.png"), "null:"]);
  return Number(r.stderr.toString().trim());
}

describe("a document whose macro runs on open: LibreOffice never runs it", () => {
  /**
   * A flat ODF text document with a Basic library and the macro bound to its load event (dom:load = OnLoad):
   * it writes `marker` and replaces the document's text with `stamp`.
   */
  const fodt = (marker: string, stamp: string) => `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:script="urn:oasis:names:tc:opendocument:xmlns:script:1.0" xmlns:ooo="http://openoffice.org/2004/office" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dom="http://www.w3.org/2001/xml-events" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:scripts>
  <office:script script:language="ooo:Basic">
   <ooo:libraries>
    <ooo:library-embedded ooo:name="Standard">
     <ooo:module ooo:name="Module1">
      <ooo:source-code>Sub AutoOpen
  Dim n As Integer
  n = FreeFile
  Open "${marker}" For Output As #n
  Print #n, "macro ran"
  Close #n
  ThisComponent.Text.setString("${stamp}")
End Sub
</ooo:source-code>
     </ooo:module>
    </ooo:library-embedded>
   </ooo:libraries>
  </office:script>
  <office:event-listeners>
   <script:event-listener script:language="ooo:script" script:event-name="dom:load" xlink:href="vnd.sun.star.script:Standard.Module1.AutoOpen?language=Basic&amp;location=document" xlink:type="simple"/>
  </office:event-listeners>
 </office:scripts>
 <office:body><office:text><text:p>Original words of the document</text:p></office:text></office:body>
</office:document>
`;

  it("a .fodt with a Basic macro bound to OnLoad: converted, no marker file, the PDF has the document's own text", async () => {
    const id = unique();
    const marker = join(scratch, `macro-ran-${id}`);
    const stamp = `MACROSTAMP${id}`;
    const r = await execute(
      "convert",
      { output_format: "pdf" },
      [bytesInput("macro.fodt", utf8(fodt(marker, stamp)))],
      nativeOnly(),
    );
    expect(r.engine.name).toBe("libreoffice");
    const text = pdftotext(r.out.files[0]!);
    expect(text).toContain("Original words of the document");
    expect(text).not.toContain(stamp);
    expect(existsSync(marker), "the macro wrote its marker file").toBe(false);
  });

  it("the same document as a zipped .odt (Basic/ inside the package, as LibreOffice saves it): no marker, own text", async () => {
    const id = unique();
    const marker = join(scratch, `macro-ran-${id}`);
    const stamp = `MACROSTAMP${id}`;
    // LibreOffice itself packs the flat file into an .odt (a converter, not the engine under test: its default profile
    // does not run document macros on conversion either, which is why the marker is checked after it too)
    const dir = join(scratch, `odt-${id}`);
    writeFileSync(join(scratch, `m-${id}.fodt`), fodt(marker, stamp));
    execFileSync(
      "soffice",
      [
        `-env:UserInstallation=file://${join(dir, "profile")}`,
        "--headless",
        "--convert-to",
        "odt",
        "--outdir",
        dir,
        join(scratch, `m-${id}.fodt`),
      ],
      { stdio: "ignore", timeout: 120_000 },
    );
    const odt = readFileSync(join(dir, `m-${id}.odt`));
    // the fixture really carries the macro and its binding (unzip is the oracle of the package)
    expect(execFileSync("unzip", ["-p", join(dir, `m-${id}.odt`), "Basic/Standard/Module1.xml"]).toString()).toContain(
      marker.replaceAll('"', "&quot;"),
    );
    expect(execFileSync("unzip", ["-p", join(dir, `m-${id}.odt`), "content.xml"]).toString()).toMatch(
      /script:event-name="dom:load"[^>]*Module1\.AutoOpen/,
    );
    expect(existsSync(marker)).toBe(false);
    const r = await execute(
      "convert",
      { output_format: "pdf" },
      [bytesInput("macro.odt", new Uint8Array(odt))],
      nativeOnly(),
    );
    const text = pdftotext(r.out.files[0]!);
    expect(text).toContain("Original words of the document");
    expect(text).not.toContain(stamp);
    expect(existsSync(marker), "the macro wrote its marker file").toBe(false);
  });
});

describe("SVGs naming local files through the native ImageMagick", () => {
  const svg = (body: string, doctype = "") =>
    `<?xml version="1.0" encoding="UTF-8"?>${doctype}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="40"><rect width="120" height="40" fill="white"/>${body}</svg>`;
  /** Each hostile SVG (naming `secret`) and its twin without the reference: what the output may differ by, nothing. */
  const CASES: [string, (secret: string) => string, string][] = [
    [
      "XXE: an external entity drawn as text",
      (s) => svg(`<text x="2" y="30" font-size="20">&x;</text>`, `<!DOCTYPE svg [<!ENTITY x SYSTEM "file://${s}">]>`),
      svg(`<text x="2" y="30" font-size="20"></text>`),
    ],
    [
      "<image xlink:href> with file:",
      (s) => svg(`<image x="0" y="0" width="120" height="40" xlink:href="file://${s}"/>`),
      svg(""),
    ],
    [
      "<image xlink:href> with text: (ImageMagick reads the file as text)",
      (s) => svg(`<image x="0" y="0" width="120" height="40" xlink:href="text:${s}"/>`),
      svg(""),
    ],
    [
      "fill: url() naming a local file",
      (s) => svg(`<rect width="120" height="40" style="fill:url(file://${s}#p)"/>`),
      svg(`<rect width="120" height="40" style="fill:none"/>`),
    ],
    [
      "an MVG drawing script named .svg, its image primitive reading text:",
      (s) => `viewbox 0 0 120 40\nimage over 0,0 120,40 'text:${s}'\n`,
      "viewbox 0 0 120 40\n",
    ],
  ];

  it.each(CASES)(
    "%s: the named file is never opened; the outcome is the twin's (pixel-equal by compare, or the same coded error)",
    async (_name, hostile, twin) => {
      const secret = join(scratch, `secret-${unique()}.png`);
      const watch = watchedFile(secret, `SECRET ${secret}`);
      {
        const bad = await outcome(
          execute(
            "convert",
            { output_format: "png" },
            [bytesInput("hostile.svg", utf8(hostile(secret)))],
            nativeOnly(),
          ),
        );
        const good = await outcome(
          execute("convert", { output_format: "png" }, [bytesInput("twin.svg", utf8(twin))], nativeOnly()),
        );
        expect(await watch.opened(), `the engine opened ${secret}`).toBe(false);
        if (bad.data) {
          // converted: it must show nothing its twin does not (the twin converts whenever the hostile one does)
          expect(good.data, "the hostile SVG converted where its twin failed").toBeDefined();
          expect(differingPixels(bad.data, good.data!), "pixels that differ from the twin").toBe(0);
        } else {
          // refused (the reference is not followed, or no SVG renderer: Debian's imagemagick without
          // libmagickcore-6.q16-6-extra, which the Dockerfile's --no-install-recommends leaves out): a coded task
          // error, never a crash; the twin either converts or ends in the same code
          expect(bad.code).toMatch(/^[A-Z_]+$/);
          expect(bad.code).not.toBe("INTERNAL_ERROR");
          if (!good.data) expect(bad.code).toBe(good.code);
        }
      }
    },
  );
});

describe("playlists naming local files through the native ffmpeg", () => {
  const media = () => native.engines()["ffmpeg-native"] as unknown as MediaEngine;
  /** A 2-second tone on this host: a local media file a playlist could name. */
  const tone = () => {
    const p = join(scratch, `tone-${unique()}.mp3`);
    execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", p]);
    return p;
  };
  const hls = (segment: string) =>
    `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:3\n#EXTINF:2.0,\n${segment}\n#EXT-X-ENDLIST\n`;
  const ffconcat = (file: string) => `ffconcat version 1.0\nfile ${file}\n`;

  it.each([
    ["list.m3u8", "m3u8"],
    ["list.txt", "txt"],
  ])("%s → mp3: routing refuses the input format (INVALID_CONVERSION_TYPE)", async (name, ext) => {
    const err = await expectTaskError(
      () => execute("convert", { output_format: "mp3" }, [bytesInput(name, utf8(hls("/etc/passwd")))], nativeOnly()),
      "INVALID_CONVERSION_TYPE",
    );
    expect(err.message).toContain(`from ${ext} to mp3`);
  });

  it("the oracle: Debian's ffprobe reads a local .mp3 an HLS playlist names by absolute path, a file of any name", () => {
    const p = join(scratch, `probe-${unique()}.mp3`);
    writeFileSync(p, hls(tone()));
    const r = spawnSync("ffprobe", [
      "-v",
      "error",
      "-protocol_whitelist",
      "file",
      "-show_entries",
      "format=format_name,duration",
      "-of",
      "compact",
      p,
    ]);
    expect(r.stdout.toString()).toMatch(/format_name=hls\|duration=2\.0/);
  });

  /** Playlists disguised as an .mp3 (ffmpeg picks the demuxer by content), the code and message each must end in. */
  const PLAYLISTS: [string, () => string, string, RegExp][] = [
    // refused by their first bytes before ffprobe runs (issue 45: ffprobe's own detection opened the files an HLS
    // playlist names); Debian's ffmpeg would refuse the first four itself, and accepts the last (the oracle above)
    ["HLS naming file:/etc/passwd", () => hls("file:/etc/passwd"), "OPEN_FAILED", /is a playlist \(hls\)/],
    ["HLS naming /etc/passwd", () => hls("/etc/passwd"), "OPEN_FAILED", /is a playlist \(hls\)/],
    [
      "ffconcat naming a local .mp3 by absolute path",
      () => ffconcat(tone()),
      "OPEN_FAILED",
      /is a playlist \(concat\)/,
    ],
    ["ffconcat naming /etc/passwd", () => ffconcat("/etc/passwd"), "OPEN_FAILED", /is a playlist \(concat\)/],
    [
      "HLS naming a local .mp3 by absolute path",
      () => hls(tone()),
      "OPEN_FAILED",
      /is a playlist \(hls\), not an audio or video file/,
    ],
  ];

  it.each(PLAYLISTS)(
    "%s, named x.mp3: convert → wav ends in a coded error naming why, nothing converted",
    async (_name, list, code, message) => {
      const err = await expectTaskError(
        () => execute("convert", { output_format: "wav" }, [bytesInput("x.mp3", utf8(list()))], nativeOnly()),
        code as never,
      );
      expect(err.message).toMatch(message);
    },
  );

  it.each(PLAYLISTS)(
    "%s: the engine's media call itself answers the same error",
    async (_name, list, code, message) => {
      const r = await media().run({
        op: "convert",
        input: { filename: "x.mp3", data: utf8(list()) },
        outputFormat: "mp3",
        options: {},
      } as never);
      expect(r.ok, JSON.stringify(r).slice(0, 300)).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe(code);
      expect(r.error.message).toMatch(message);
    },
  );
});

describe("issue 34: malformed camera raws, and pixel bombs in the new ImageMagick inputs", () => {
  const corpus = (rel: string) => new Uint8Array(readFileSync(corpusPath(rel)));
  const half = (b: Uint8Array) => b.subarray(0, Math.floor(b.length / 2));
  const noise = new Uint8Array(8192).map((_, i) => (i * 7919 + 13) % 251);
  // a Netpbm header declaring 60000×60000 (3.6 G pixels) with 16 bytes of pixels: ImageMagick allocates nothing
  // for the declared size (its 128 MP area policy keeps such an image off memory) and stops at the missing data
  const ppmBomb = new Uint8Array([...utf8("P6\n60000 60000\n255\n"), ...new Uint8Array(16)]);
  const CASES: [string, Uint8Array, string, string[]][] = [
    ["bytes that are no raw, named .cr2", noise, "photo.cr2", ["OPEN_FAILED"]],
    ["a DNG cut in half", half(corpus("raw/exiftool-DNG.dng")), "cut.dng", ["OPEN_FAILED"]],
    ["a PPM declaring 60000×60000", ppmBomb, "bomb.ppm", ["OPEN_FAILED", "OVER_BUDGET"]],
    ["a TGA cut in half", half(corpus("images/pillow-tga_id_field.tga")), "cut.tga", ["OPEN_FAILED"]],
    ["a JPEG 2000 cut in half", half(corpus("images/pillow-test-card-lossy-tiled.jp2")), "cut.jp2", ["OPEN_FAILED"]],
    // Ghostscript runs with -dSAFER: opening a file outside its own is an invalidfileaccess error, nothing is drawn
    [
      "a PostScript file that reads /etc/passwd onto its page",
      utf8(
        "%!PS\n/Courier 10 selectfont 72 720 moveto (/etc/passwd) (r) file 80 string readstring pop show showpage\n",
      ),
      "steal.ps",
      ["OPEN_FAILED"],
    ],
  ];
  for (const [label, data, name, codes] of CASES) {
    it(`${label} → ${codes.join(" or ")}`, async () => {
      const r = await outcome(execute("convert", { output_format: "png" }, [bytesInput(name, data)], nativeOnly()));
      expect(r.code, r.message ?? "converted").toBeDefined();
      expect(codes, r.message).toContain(r.code);
    });
  }
});

describe("an XPS page naming a local file (issue 34: libgxps renders XPS inputs)", () => {
  /** A one-page XPS package whose page is a red rectangle, and (hostile) an image brush whose source is `image`. */
  const xps = (image?: string) => {
    const t = (s: string) => utf8(`<?xml version="1.0" encoding="UTF-8"?>${s}`);
    const brush = image
      ? `<Path Data="M 0,0 L 48,0 48,48 0,48 Z"><Path.Fill><ImageBrush ImageSource="${image}" Viewbox="0,0,10,10" ViewboxUnits="Absolute" Viewport="0,0,48,48" ViewportUnits="Absolute"/></Path.Fill></Path>`
      : "";
    return zipSync({
      "[Content_Types].xml": t(
        `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="fdseq" ContentType="application/vnd.ms-package.xps-fixeddocumentsequence+xml"/><Default Extension="fdoc" ContentType="application/vnd.ms-package.xps-fixeddocument+xml"/><Default Extension="fpage" ContentType="application/vnd.ms-package.xps-fixedpage+xml"/></Types>`,
      ),
      "_rels/.rels": t(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="R1" Type="http://schemas.microsoft.com/xps/2005/06/fixedrepresentation" Target="/FixedDocSeq.fdseq"/></Relationships>`,
      ),
      "FixedDocSeq.fdseq": t(
        `<FixedDocumentSequence xmlns="http://schemas.microsoft.com/xps/2005/06"><DocumentReference Source="/Documents/1/FixedDoc.fdoc"/></FixedDocumentSequence>`,
      ),
      "Documents/1/FixedDoc.fdoc": t(
        `<FixedDocument xmlns="http://schemas.microsoft.com/xps/2005/06"><PageContent Source="/Documents/1/Pages/1.fpage"/></FixedDocument>`,
      ),
      "Documents/1/Pages/1.fpage": t(
        `<FixedPage xmlns="http://schemas.microsoft.com/xps/2005/06" Width="96" Height="48" xml:lang="en-US"><Path Data="M 0,0 L 96,0 96,48 0,48 Z" Fill="#FFFF0000"/>${brush}</FixedPage>`,
      ),
    });
  };

  for (const scheme of ["file://", ""])
    for (const out of ["png", "svg"]) {
      it(`an ImageBrush whose ImageSource is ${scheme ? "a file: URL" : "an absolute path"} → ${out} (${out === "svg" ? "MuPDF" : "libgxps"}): never opened; the page is its twin's`, async () => {
        const secret = join(scratch, `secret-${unique()}.png`);
        const watch = watchedFile(secret, "SECRET");
        const bad = await outcome(
          execute(
            "convert",
            { output_format: out },
            [bytesInput("hostile.xps", xps(`${scheme}${secret}`))],
            nativeOnly(),
          ),
        );
        const good = await outcome(
          execute("convert", { output_format: out }, [bytesInput("twin.xps", xps())], nativeOnly()),
        );
        expect(await watch.opened(), `the engine opened ${secret}`).toBe(false);
        expect(good.data, good.message).toBeDefined();
        if (!bad.data) expect(bad.code).toBe("OPEN_FAILED");
        else if (out === "png")
          expect(differingPixels(bad.data, good.data!), "pixels that differ from the twin").toBe(0);
        // issue 34's xps → svg: no picture drawn from outside the package
        else expect(new TextDecoder().decode(bad.data)).not.toMatch(/<image|SECRET/);
      });
    }
});

describe("the native server's request-body limit (NATIVE_MAX_BODY_MB)", () => {
  const BOUNDARY = "hostile-boundary-0123456789";
  /** A valid wire body (native-protocol/wire.ts) for imagemagick-native/info of exactly `size` bytes: json, then a padding part. */
  function wireBody(size: number): Uint8Array {
    const head = `--${BOUNDARY}\r\ncontent-disposition: form-data; name="json"\r\n\r\n{}\r\n--${BOUNDARY}\r\ncontent-disposition: form-data; name="pad"\r\n\r\n`;
    const tail = `\r\n--${BOUNDARY}--\r\n`;
    const pad = size - head.length - tail.length;
    return utf8(head + "x".repeat(pad) + tail);
  }
  const post = (body: Uint8Array | ReadableStream<Uint8Array>) =>
    fetch(`${native.url}/invoke/imagemagick-native/info`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit);
  /** The same bytes with no Content-Length (chunked): the server learns the size only while reading. */
  const chunked = (bytes: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) c.enqueue(bytes.subarray(i, i + 64 * 1024));
        c.close();
      },
    });
  const answered = async (res: Response) => {
    expect(
      res.status,
      await res
        .clone()
        .text()
        .then((t) => t.slice(0, 200)),
    ).toBe(200);
    const form = await res.formData();
    return JSON.parse(String(form.get("json"))) as { ok: boolean; engineVersion: string };
  };

  it("a body of exactly the limit is read and answered by the engine", async () => {
    const body = wireBody(LIMIT);
    expect(body.length).toBe(LIMIT);
    const a = await answered(await post(body));
    expect(a.ok).toBe(true);
    expect(a.engineVersion).toMatch(/^\d/);
  });

  it("one byte over (Content-Length) → 413 with the wire's error body naming the limit", async () => {
    const res = await post(wireBody(LIMIT + 1));
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ message: `Request body over ${LIMIT} bytes.` });
  });

  it("chunked (no Content-Length): at the limit answered; one byte over → 413 too, and the server keeps serving", async () => {
    expect((await answered(await post(chunked(wireBody(LIMIT))))).ok).toBe(true);
    const res = await post(chunked(wireBody(LIMIT + 1)));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: `Request body over ${LIMIT} bytes.` });
    expect((await answered(await post(wireBody(1000)))).ok).toBe(true);
  });
});

describe("framed bodies that lie (issue 35: native-protocol/frame.ts): a coded answer, never a hang or a 500", () => {
  /** The 4-byte length and the header JSON of a framed body; `claim` overrides the length the prefix declares. */
  function head(header: unknown, claim?: number): Uint8Array {
    const json = utf8(typeof header === "string" ? header : JSON.stringify(header));
    const out = new Uint8Array(4 + json.byteLength);
    new DataView(out.buffer).setUint32(0, claim ?? json.byteLength);
    out.set(json, 4);
    return out;
  }
  const cat = (...parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of parts) out.set(p, (at += p.byteLength) - p.byteLength);
    return out;
  };
  /** An ffmpeg-native/run request whose input is part 0 of `size` bytes. */
  const media = (sizes: number[]) => ({
    value: { op: "convert", input: { data: { $bytes: 0 }, filename: "a.mp4" }, outputFormat: "mkv", options: {} },
    sizes,
  });
  /** `bytes` sent chunked (no Content-Length); `hold` keeps the body open after them (a stalled client). */
  const chunked = (bytes: Uint8Array, hold = false) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes);
        if (!hold) c.close();
      },
    });
  const post = (path: string, body: Uint8Array | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    fetch(`${native.url}/invoke/${path}`, {
      method: "POST",
      headers: { "content-type": FRAMED_TYPE, ...headers },
      body,
      ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit);
  const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as { message: string } });

  it("a body cut off before its declared parts end (chunked) → 400 naming it", async () => {
    const res = await post("ffmpeg-native/run", chunked(cat(head(media([1000])), new Uint8Array(10))));
    expect(await answer(res)).toEqual({
      status: 400,
      body: {
        message: "Malformed request: framed body: the body ended before its parts did (cut off, or a size that lies)",
      },
    });
  });

  it("parts that do not make the Content-Length → 400 at once, before any part is read", async () => {
    const res = await post("ffmpeg-native/run", cat(head(media([10])), new Uint8Array(500)));
    const a = await answer(res);
    expect(a.status).toBe(400);
    expect(a.body.message).toMatch(/its parts make \d+ bytes, its Content-Length says \d+/);
  });

  it("bytes after the last part (chunked) → 400", async () => {
    const res = await post("ffmpeg-native/run", chunked(cat(head(media([10])), new Uint8Array(11))));
    expect(await answer(res)).toEqual({
      status: 400,
      body: { message: "Malformed request: framed body: the body is longer than its parts" },
    });
  });

  it("a header that is not one: 4 GiB long, not JSON, sizes that are not byte counts, a part it does not hold → 400 each", async () => {
    const bad = [
      [head(media([0]), 0xffffffff), /header of 4294967295 bytes, over/],
      [head("{not json"), /the header is not JSON/],
      [head({ value: {}, sizes: [-1] }), /"sizes" is not a list of byte counts/],
      [head({ value: { input: { data: { $bytes: 7 } } }, sizes: [] }), /part 7 is not in the body/],
    ] as const;
    for (const [body, message] of bad) {
      const a = await answer(await post("ffmpeg-native/run", body));
      expect(a.status, String(message)).toBe(400);
      expect(a.body.message).toMatch(message);
    }
  });

  it("declared parts over NATIVE_MAX_STREAM_MB → 413 before they are read, by Content-Length or by the header", async () => {
    // a Content-Length over the limit, with only the header sent (node:http: fetch checks a body against its length)
    const over = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const req = request(
        `${native.url}/invoke/ffmpeg-native/run`,
        { method: "POST", headers: { "content-type": FRAMED_TYPE, "content-length": String(STREAM_LIMIT + 1) } },
        (res) => {
          let text = "";
          res.on("data", (d) => (text += d));
          res.on("end", () => (resolve({ status: res.statusCode!, body: JSON.parse(text) }), req.destroy()));
        },
      );
      req.on("error", reject);
      req.write(head(media([STREAM_LIMIT])));
    });
    expect(over).toEqual({ status: 413, body: { message: `Request body over ${STREAM_LIMIT} bytes.` } });
    const t0 = Date.now();
    const res = await post("ffmpeg-native/run", chunked(head(media([STREAM_LIMIT])), true));
    expect(await answer(res)).toEqual({ status: 413, body: { message: `Request body over ${STREAM_LIMIT} bytes.` } });
    expect(Date.now() - t0, "answered from the header, not after the idle limit").toBeLessThan(IDLE_S * 1000);
  });

  it("an engine that takes no files keeps framed parts in memory: over NATIVE_MAX_BODY_MB → 413", async () => {
    const res = await post(
      // fontTools takes no files (issue 49: fonts stay bytes, rows.ts NATIVE_FONT_MAX_BYTES; LibRaw takes files now)
      "fonttools/convert",
      chunked(head({ value: { data: { $bytes: 0 } }, sizes: [LIMIT + 1] }), true),
    );
    expect(await answer(res)).toEqual({ status: 413, body: { message: `Request body over ${LIMIT} bytes.` } });
  });

  it("a client that stalls mid-body → 408 after the idle limit (NATIVE_BODY_IDLE_SECONDS), not a hang", async () => {
    const t0 = Date.now();
    const res = await post("ffmpeg-native/run", chunked(cat(head(media([1000])), new Uint8Array(10)), true));
    expect(await answer(res)).toEqual({
      status: 408,
      body: { message: `No byte of the request body arrived for ${IDLE_S} s.` },
    });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(IDLE_S * 1000 - 50);
  });

  it("a file path in the JSON is not a file: {path, size} as the input is a coded failure as data, never converted", async () => {
    const secret = join(scratch, "secret.mp4");
    execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=5", "-t", "1", secret]);
    const value = {
      op: "convert",
      input: { data: { path: secret, size: 10 }, filename: "a.mp4" },
      outputFormat: "mkv",
      options: {},
    };
    const res = await post("ffmpeg-native/run", cat(head({ value, sizes: [] })));
    expect(res.status).toBe(200);
    const reader = new FrameReader(res.body!);
    const { value: got } = await reader.header();
    expect(got).toMatchObject({ ok: false, error: { code: "INTERNAL_ERROR" } });
  });

  it("the server keeps serving: a well-formed framed call is answered framed", async () => {
    const f = frame({ data: new Uint8Array(1000) });
    const res = await post("imagemagick-native/info", new Uint8Array(await new Response(f.body).arrayBuffer()));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(FRAMED_TYPE);
    const { value } = await new FrameReader(res.body!).header();
    expect(value).toMatchObject({ ok: true });
  });
});

// (the zip bomb of issue 32 is in office-convert.test.ts: its server takes bodies over this file's 1 MiB limit)
describe("documents naming local files and loopback URLs, and XXE (issue 32's new inputs and outputs)", () => {
  /** A loopback HTTP server counting the requests it gets (none may come). */
  let hits = 0;
  let port = 0;
  let server: import("node:http").Server;
  beforeAll(async () => {
    const { createServer } = await import("node:http");
    server = createServer((_q, s) => {
      hits++;
      s.end("x");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const media = (docx: Uint8Array) => {
    const p = join(scratch, `o-${unique()}.zip`);
    writeFileSync(p, docx);
    return execFileSync("unzip", ["-Z1", p], { encoding: "utf8" })
      .split("\n")
      .filter((l) => /^(word\/media|Pictures)\//.test(l));
  };

  it.each([
    ["md", (fifo: string, url: string) => `# T\n\n![a](file://${fifo})\n\n![b](${fifo})\n\n![c](${url})\n\nend\n`],
    ["html", (fifo: string, url: string) => `<h1>T</h1><img src="file://${fifo}"><img src="${url}"><p>end</p>`],
  ])("%s → docx (pandoc): no local file opened, no request, no picture in the output", async (ext, doc) => {
    const fifo = join(scratch, `p-${unique()}`);
    const watch = watchedFile(fifo, "SECRET-CONTENT");
    const before = hits;
    const r = await outcome(
      execute(
        "convert",
        { output_format: "docx" },
        [bytesInput(`h.${ext}`, utf8(doc(fifo, `http://127.0.0.1:${port}/i.png`)))],
        nativeOnly(),
      ),
    );
    expect(r.code, r.message).toBeUndefined();
    expect(media(r.data!)).toEqual([]);
    expect(await watch.opened()).toBe(false);
    expect(hits - before).toBe(0);
  });

  const fodt = (body: string, doctype = "") => `<?xml version="1.0" encoding="UTF-8"?>${doctype}
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text><text:p>own text</text:p>${body}</office:text></office:body></office:document>`;

  it("an fodt linking a picture by file:// and a loopback URL → docx (LibreOffice): neither read nor fetched", async () => {
    const fifo = join(scratch, `l-${unique()}`);
    const watch = watchedFile(fifo, "SECRET-CONTENT");
    const before = hits;
    const frame = (href: string) =>
      `<text:p><draw:frame svg:width="2cm" svg:height="2cm"><draw:image xlink:href="${href}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`;
    const r = await outcome(
      execute(
        "convert",
        { output_format: "docx" },
        [bytesInput("l.fodt", utf8(fodt(frame(`file://${fifo}`) + frame(`http://127.0.0.1:${port}/i.png`))))],
        nativeOnly(),
      ),
    );
    expect(r.code, r.message).toBeUndefined();
    expect(media(r.data!)).toEqual([]);
    expect(await watch.opened()).toBe(false);
    expect(hits - before).toBe(0);
  });

  it("an fodt with an external entity (XXE) naming a local file → txt: the file is not read into the document", async () => {
    const fifo = join(scratch, `x-${unique()}`);
    const watch = watchedFile(fifo, "SECRET-CONTENT");
    const r = await outcome(
      execute(
        "convert",
        { output_format: "txt" },
        [
          bytesInput(
            "x.fodt",
            utf8(fodt("<text:p>&x;</text:p>", `<!DOCTYPE office:document [<!ENTITY x SYSTEM "file://${fifo}">]>`)),
          ),
        ],
        nativeOnly(),
      ),
    );
    // either refused as damaged or converted without the entity's content — never with it
    if (r.data) expect(new TextDecoder().decode(r.data)).not.toContain("SECRET-CONTENT");
    else expect(r.code).toBe("OPEN_FAILED");
    expect(await watch.opened()).toBe(false);
  });
});

describe("SVG → font (issue 33: FontForge reads SVG fonts and drawings) and DWG drawings (LibreDWG)", () => {
  const font = (body: string, doctype = "") =>
    `<?xml version="1.0"?>${doctype}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><rect x="10" y="10" width="80" height="80"/>${body}</svg>`;
  const laughs =
    '<!DOCTYPE svg [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;"><!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">]>';
  const CASES: [string, (secret: string) => string][] = [
    [
      "XXE: an external entity in a glyph name",
      (s) => font(`<text>&x;</text>`, `<!DOCTYPE svg [<!ENTITY x SYSTEM "file://${s}">]>`),
    ],
    ["<image xlink:href> with file:", (s) => font(`<image width="50" height="50" xlink:href="file://${s}"/>`)],
    ["<use xlink:href> into another file", (s) => font(`<use xlink:href="file://${s}#g"/>`)],
    [
      "an SVG font whose glyph is an external entity",
      (s) =>
        `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file://${s}">]><svg xmlns="http://www.w3.org/2000/svg"><defs><font horiz-adv-x="500"><font-face font-family="X" units-per-em="1000"/><glyph unicode="a" d="&x;"/></font></defs></svg>`,
    ],
  ];

  it.each(CASES)("%s: the named file is never opened; a coded error or a font without it", async (_name, hostile) => {
    const secret = join(scratch, `secret-${unique()}.svg`);
    const watch = watchedFile(
      secret,
      `<svg xmlns="http://www.w3.org/2000/svg"><g id="g"><path d="M0 0L9 9"/></g></svg>`,
    );
    const r = await outcome(
      execute("convert", { output_format: "ttf" }, [bytesInput("hostile.svg", utf8(hostile(secret)))], nativeOnly()),
    );
    expect(await watch.opened(), `FontForge opened ${secret}`).toBe(false);
    if (r.data) expect(Buffer.from(r.data).includes(secret)).toBe(false);
    else {
      expect(r.code).toMatch(/^[A-Z_]+$/);
      expect(r.code).not.toBe("INTERNAL_ERROR");
    }
  });

  it("billion laughs in an SVG → OPEN_FAILED before FontForge reads it, within 20 s", async () => {
    const t = Date.now();
    const r = await outcome(
      execute(
        "convert",
        { output_format: "woff2" },
        [bytesInput("lol.svg", utf8(font("<text>&i;</text>", laughs)))],
        nativeOnly(),
      ),
    );
    expect(r.code).toBe("OPEN_FAILED");
    expect(Date.now() - t).toBeLessThan(20_000);
  });

  it(
    "a garbled DWG (an AC1024 header over the rest of a PDF) and an empty one → OPEN_FAILED, within 30 s each",
    async () => {
      const pdf = readFileSync(corpusPath("pdf/cloudconvert-input.pdf"));
      const garbled = new Uint8Array(pdf.length);
      garbled.set(pdf);
      garbled.set(utf8("AC1024"));
      for (const data of [garbled, utf8("AC1018")]) {
        const t = Date.now();
        const r = await outcome(
          execute("convert", { output_format: "pdf" }, [bytesInput("bad.dwg", data)], nativeOnly()),
        );
        expect(r.code).toBe("OPEN_FAILED");
        expect(Date.now() - t).toBeLessThan(30_000);
      }
    },
    scaled(90_000),
  );
});
