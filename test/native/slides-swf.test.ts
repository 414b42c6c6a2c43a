/**
 * Presentations → SWF (issue 32): LibreOffice 7.4 has no Flash export (checked below with its own CLI), so the slides
 * of its PDF become JPEG frames of an SWF muxed by ffmpeg (container/engines/slides-swf.ts). Oracles outside our code:
 * `file`'s magic, ffprobe's frame count against the slides counted in the source package (unzip: ppt/slides/slideN.xml
 * of a pptx, draw:page elements of an odp's content.xml), and the frame width against the package's slide width.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import { corpusPath } from "../support/corpus";
import { nativeEngineForFile } from "../support/native-engine";
import { corpusInput, dataOf, testContext } from "../support/pdf-helpers";
import { scaled } from "../support/time-scale";

const native = nativeEngineForFile();

const dir = mkdtempSync(join(tmpdir(), "slides-swf-"));
const ctx = () => testContext({ engines: native.engines() });

/** Slides of a package, counted by unzip. */
function slidesOf(rel: string): number {
  const path = corpusPath(rel);
  if (rel.endsWith(".odp"))
    return (execFileSync("unzip", ["-p", path, "content.xml"], { encoding: "utf8" }).match(/<draw:page /g) ?? [])
      .length;
  return execFileSync("unzip", ["-Z1", path], { encoding: "utf8" })
    .split("\n")
    .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).length;
}

/** The slide width of a package at 96 dpi: sldSz cx (EMU) of a pptx, fo:page-width of the layout an odp's master pages use. */
function slideWidthPx(rel: string): number {
  const path = corpusPath(rel);
  if (rel.endsWith(".odp")) {
    const styles = execFileSync("unzip", ["-p", path, "styles.xml"], { encoding: "utf8" });
    // the page layout the master pages name (the other, PM0, is the handout's)
    const layout = /<style:master-page [^>]*style:page-layout-name="([^"]+)"/.exec(styles)![1];
    const props = new RegExp(`<style:page-layout style:name="${layout}">\\s*<style:page-layout-properties [^>]*`).exec(
      styles,
    )![0];
    const [, n, unit] = /fo:page-width="([\d.]+)(cm|in|mm)"/.exec(props)!;
    return (Number(n) / { cm: 2.54, in: 1, mm: 25.4 }[unit as "cm" | "in" | "mm"]) * 96;
  }
  const pres = execFileSync("unzip", ["-p", path, "ppt/presentation.xml"], { encoding: "utf8" });
  return (Number(/<p:sldSz cx="(\d+)"/.exec(pres)![1]) / 914400) * 96;
}

describe("presentations → swf", () => {
  it(
    "LibreOffice 7.4's own CLI has no swf export filter (why the slides are muxed by ffmpeg)",
    () => {
      copyFileSync(corpusPath("office/xapian-presentation.odp"), join(dir, "cli.odp"));
      const r = spawnSync(
        "soffice",
        [
          `-env:UserInstallation=file://${join(dir, "profile")}`,
          "--headless",
          "--convert-to",
          "swf",
          "--outdir",
          dir,
          join(dir, "cli.odp"),
        ],
        { encoding: "utf8", timeout: 180_000 },
      );
      expect(`${r.stdout}${r.stderr}`).toMatch(/no export filter/);
      expect(existsSync(join(dir, "cli.swf"))).toBe(false);
    },
    scaled(200_000),
  );

  it.each(["office/python-pptx-cht-charts.pptx", "office/xapian-presentation.odp"])(
    "%s → swf: a Flash file with one frame per slide (ffprobe)",
    async (rel) => {
      const r = await execute("convert", { output_format: "swf" }, [corpusInput(rel)], ctx());
      expect(r.engine.name).toBe("libreoffice");
      const path = join(dir, rel.split("/").pop()! + ".swf");
      writeFileSync(path, dataOf(r.out.files[0]!));
      expect(execFileSync("file", ["-b", path], { encoding: "utf8" })).toMatch(/Macromedia Flash data/);
      const probe = execFileSync(
        "ffprobe",
        [
          "-v",
          "error",
          "-count_frames",
          "-select_streams",
          "v:0",
          "-show_entries",
          "stream=nb_read_frames,width",
          "-of",
          "json",
          path,
        ],
        { encoding: "utf8" },
      );
      const stream = JSON.parse(probe).streams[0];
      expect(Number(stream.nb_read_frames)).toBe(slidesOf(rel));
      expect(slidesOf(rel)).toBeGreaterThan(0);
      // the slide's width in the package at 96 dpi (pdftoppm rounds up)
      expect(Math.abs(stream.width - slideWidthPx(rel))).toBeLessThanOrEqual(1);
    },
    300_000,
  );
});
