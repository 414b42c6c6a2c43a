/**
 * Issue 33 (vector) and issue 31 (SVG with text), end to end through the official SDK under `npm start`:
 * an Inkscape SVG with text on paths converted by default (resvg in its engine Worker) to png and a webp
 * thumbnail, and drawings Inkscape converts in the native engine (emf → pdf, vsd → svg, cdr → png; Skencil sk →
 * pdf and sK1 sk1 → svg through the engine's own reader, fixtures of test/fixtures/vector/).
 * Oracles: Inkscape's own pixels with the shipped faces (raster oracle tolerance), identify, pdfinfo,
 * pdftotext, rsvg-convert, corpus/facts.json.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { identify, pdfinfo, run } from "../support/native";
import { runCorpusJob, runFileJob } from "../support/jobs";
import { matches, rgb } from "../support/raster-oracle";
import { sharedServer, type SharedServer } from "../support/servers";
import { inkscapePng } from "../support/svg-oracle";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

describe("vector drawings through the SDK", () => {
  it("an SVG with text on paths: png and a webp thumbnail by resvg, as Inkscape draws it", async () => {
    const rel = "vector/inkscape-text-on-path.svg";
    const { job, files, task } = await runCorpusJob(server.base, rel, {
      png: { operation: "convert", input: "in", output_format: "png" },
      thumb: { operation: "thumbnail", input: "in", output_format: "webp", width: 400 },
    });
    expect(job.status).toBe("finished");
    expect([task("png").engine, task("thumb").engine]).toEqual(["resvg", "resvg"]);
    const m = matches(rgb(readFileSync(files.png[0].path)), rgb(inkscapePng(readFileSync(corpusPath(rel)))));
    expect(m.ok, m.why).toBe(true);
    expect(identify(files.thumb[0].path)).toMatchObject({ format: "WEBP", width: 400 });
  });

  it("emf → pdf, vsd → svg and cdr → png by Inkscape in the native engine", async () => {
    const emf = await runCorpusJob(server.base, "vector/tika-testEMF.emf", {
      pdf: { operation: "convert", input: "in", output_format: "pdf" },
    });
    expect(emf.task("pdf")).toMatchObject({ status: "finished", engine: "inkscape" });
    expect(Number(pdfinfo(emf.files.pdf[0].path).Pages)).toBe(1);

    const vsd = await runCorpusJob(server.base, "vector/tika-testVISIO.vsd", {
      svg: { operation: "convert", input: "in", output_format: "svg" },
    });
    expect(vsd.task("svg")).toMatchObject({ status: "finished", engine: "inkscape" });
    const svg = vsd.files.svg[0].path;
    expect(readFileSync(svg, "utf8")).toContain("Test View");
    expect(run("rsvg-convert", ["-o", `${svg}.png`, svg]).code).toBe(0);

    const cdr = await runCorpusJob(server.base, "vector/xapian-test1.cdr", {
      png: { operation: "convert", input: "in", output_format: "png", pixel_density: 48 },
    });
    expect(cdr.task("png")).toMatchObject({ status: "finished", engine: "inkscape" });
    expect(identify(cdr.files.png[0].path).format).toBe("PNG");
  });

  it("Skencil sk → pdf (the survey's page size and station labels) and sK1 sk1 → svg (its one rectangle)", async () => {
    const fixture = (name: string) => new URL(`../fixtures/vector/${name}`, import.meta.url).pathname;
    const sk = await runFileJob(server.base, fixture("survex-3dexport.sk"), {
      pdf: { operation: "convert", input: "in", output_format: "pdf" },
    });
    expect(sk.task("pdf")).toMatchObject({ status: "finished", engine: "inkscape" });
    const info = pdfinfo(sk.files.pdf[0].path);
    expect(info["Page size"]).toMatch(/^1129\.\d+ x 1073\.\d+ pts/); // layout((1129.550,1073.083),0)
    expect(run("pdftotext", [sk.files.pdf[0].path, "-"]).out).toMatch(/\b5\b/);

    const sk1 = await runFileJob(server.base, fixture("probe.sk1"), {
      svg: { operation: "convert", input: "in", output_format: "svg" },
    });
    expect(sk1.task("svg")).toMatchObject({ status: "finished", engine: "inkscape" });
    const svg = readFileSync(sk1.files.svg[0].path, "utf8");
    expect(svg.match(/<path/g)).toHaveLength(1); // r(398.285,0,0,-244.282,48.0456,528.924)
    expect(run("rsvg-convert", ["-o", `${sk1.files.svg[0].path}.png`, sk1.files.svg[0].path]).code).toBe(0);
  });
});
