/**
 * Issue 33, end to end through the official SDK under `npm start` (the native engine as a local process):
 * a font, an e-book and a CAD drawing of the corpus uploaded, converted and exported — ttf → woff2
 * (fontTools), epub → mobi and fb2 → pdf (calibre), dxf → pdf, png and dxf (Inkscape, ezdxf) — and the catalogue
 * naming those engines. Oracles: fc-scan and Debian's fontTools, the MOBI's PalmDOC text, pdfinfo and
 * pdftotext, identify.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { mobiText, plain, zipText } from "../support/ebook-oracles";
import { runCorpusJob } from "../support/jobs";
import { identify, pdfinfo, run } from "../support/native";
import { sharedServer, type SharedServer } from "../support/servers";
import { scaled } from "../support/time-scale";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

const glyphs = (path: string) =>
  Number(
    spawnSync(
      "/usr/bin/python3",
      ["-c", "import sys; from fontTools.ttLib import TTFont; print(TTFont(sys.argv[1])['maxp'].numGlyphs)", path],
      {
        encoding: "utf8",
      },
    ).stdout,
  );

describe("fonts, e-books and CAD drawings through the SDK", () => {
  it("ttf → woff2: the same family, format and glyph count (fc-scan, fontTools)", async () => {
    const rel = "fonts/opensans-OpenSans-Regular.ttf";
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      font: { operation: "convert", input: "in", output_format: "woff2" },
    });
    expect(job.status).toBe("finished");
    expect(task("font")).toMatchObject({ engine: "fonttools", status: "finished" });
    const out = files.font[0]!;
    expect(out.filename).toBe("opensans-OpenSans-Regular.woff2");
    expect(readFileSync(out.path).subarray(0, 4).toString("latin1")).toBe("wOF2");
    expect(run("fc-scan", ["--format", "%{family[0]}", out.path]).out).toBe("Open Sans");
    expect(glyphs(out.path)).toBe(glyphs(corpusPath(rel)));
  });

  it("epub → mobi: a Mobipocket book with the EPUB's chapter text (unzip, PalmDOC)", async () => {
    const rel = "ebooks/tika-testEPUB_multi-metadata-vals.epub";
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      book: { operation: "convert", input: "in", output_format: "mobi" },
    });
    expect(job.status).toBe("finished");
    expect(task("book")).toMatchObject({ engine: "calibre", status: "finished" });
    const words = /We went through the old gateway/.exec(
      plain(zipText(corpusPath(rel), "epub/text/chapter-1.xhtml")),
    )![0];
    expect(mobiText(new Uint8Array(readFileSync(files.book[0]!.path)))).toContain(words);
  });

  it(
    "fb2 → pdf with page_format a5 and a title: pdfinfo's size and Title, pdftotext's text",
    async () => {
      const { job, files, task } = await runCorpusJob(server.base, "ebooks/tika-test.fb2", {
        book: {
          operation: "convert",
          input: "in",
          output_format: "pdf",
          page_format: "a5",
          title: "War and Peace (test)",
        },
      });
      expect(job.status).toBe("finished");
      expect(task("book").engine).toBe("calibre");
      const info = pdfinfo(files.book[0]!.path);
      expect(info.Title).toBe("War and Peace (test)");
      expect(info["Page size"]).toMatch(/\(A5\)$/); // poppler names the ISO size it measures
      expect(run("pdftotext", [files.book[0]!.path, "-"]).out).toContain("Представляется логичным");
    },
    scaled(300_000),
  ); // calibre renders PDF in two runs (EPUB first); 20 s idle, minutes on a loaded 2-core machine

  it("dxf → pdf (the drawing's text), → png (not blank) and → dxf (its 376 TEXT entities again)", async () => {
    const { job, files, task } = await runCorpusJob(server.base, "cad/tika-testDXF_ascii.dxf", {
      pdf: { operation: "convert", input: "in", output_format: "pdf" },
      png: { operation: "convert", input: "in", output_format: "png", width: 1200 },
      dxf: { operation: "convert", input: "in", output_format: "dxf" },
    });
    expect(job.status).toBe("finished");
    expect(task("pdf").engine).toBe("inkscape-cad");
    expect(pdfinfo(files.pdf[0]!.path).Pages).toBe("1");
    expect(run("pdftotext", [files.pdf[0]!.path, "-"]).out).toContain("Power supply for LIPCA ROBOT");
    const png = identify(files.png[0]!.path);
    expect(png).toMatchObject({ format: "PNG", width: 1200 });
    const mean = Number(run("identify", ["-format", "%[fx:mean]", files.png[0]!.path]).out);
    expect(mean).toBeLessThan(0.995);
    expect(task("dxf").engine).toBe("inkscape-cad");
    // group code 0 then TEXT, as many as the corpus file holds (native-cad.test.ts counts them by type)
    const texts = (path: string) => readFileSync(path, "latin1").match(/^\s*0\r?\nTEXT\r?$/gm)?.length;
    expect(texts(files.dxf[0]!.path)).toBe(376);
    expect(texts(corpusPath("cad/tika-testDXF_ascii.dxf"))).toBe(376);
  });

  it(
    "dwg (AutoCAD 2010) → pdf (the title sentence its bytes hold, by strings -el) and → dxf of its version",
    async () => {
      const { job, files, task } = await runCorpusJob(server.base, "cad/tika-testDWG2010.dwg", {
        pdf: { operation: "convert", input: "in", output_format: "pdf" },
        dxf: { operation: "convert", input: "in", output_format: "dxf" },
      });
      expect(job.status).toBe("finished");
      expect(task("pdf").engine).toBe("inkscape-cad");
      const sentence = /The quick brown fox jumps over the lazy dog/.exec(
        run("strings", ["-el", "-n", "8", corpusPath("cad/tika-testDWG2010.dwg")]).out,
      )?.[0];
      expect(sentence).toBeDefined();
      expect(run("pdftotext", [files.pdf[0]!.path, "-"]).out).toContain(sentence);
      expect(readFileSync(files.dxf[0]!.path, "latin1")).toMatch(/\$ACADVER\r?\n\s*1\r?\nAC1024/);
    },
    scaled(300_000),
  );

  it(
    "svg (a drawing) → ttf: an icon font whose one glyph is U+E000 (fc-scan)",
    async () => {
      const { job, files } = await runCorpusJob(server.base, "vector/inkscape-gradient.svg", {
        font: { operation: "convert", input: "in", output_format: "ttf" },
      });
      expect(job.status).toBe("finished");
      expect(run("fc-scan", ["--format", "%{family}|%{charset}", files.font[0]!.path]).out).toMatch(
        /^inkscape-gradient\|.*\be000\b/,
      );
    },
    scaled(300_000),
  );

  it("the catalogue names fonttools, calibre and inkscape-cad for their pairs", async () => {
    const engines = async (i: string, o: string) =>
      (
        (await (
          await fetch(
            `${server.base}/v2/operations?filter[operation]=convert&filter[input_format]=${i}&filter[output_format]=${o}`,
          )
        ).json()) as { data: { engine: string }[] }
      ).data.map((d) => d.engine);
    expect(await engines("ttf", "woff2")).toEqual(["fonttools"]);
    expect(await engines("epub", "mobi")).toEqual(["calibre"]);
    expect(await engines("cbr", "pdf")).toEqual(["calibre"]);
    expect(await engines("dxf", "pdf")).toEqual(["inkscape-cad"]);
    expect(await engines("dwg", "pdf")).toEqual(["inkscape-cad"]);
    expect(await engines("svg", "woff2")).toEqual(["fonttools"]);
  });
});
