/**
 * Issue 12, end to end through the official SDK under `npm start` (wrangler dev + the native engine
 * as a local process): an uploaded DOCX converted by LibreOffice, made PDF/A-2b by Ghostscript and
 * exported; an ImageMagick `command` with captured output; the catalogue listing the native
 * operations. Oracles: pdfinfo, pdftotext, pdffonts, exiftool, qpdf, identify.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { identify, pdfinfo, run } from "../support/native";
import { runCorpusJob } from "../support/jobs";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
beforeAll(async () => {
  server = sharedServer("guarded");
});

describe("the native engine through the SDK", () => {
  it("uploads a DOCX, converts it to PDF, makes it PDF/A-2b and exports it", async () => {
    const { job, files, task } = await runCorpusJob(server.base, "office/gotenberg-pages_3.docx", {
      _pdf: { operation: "convert", input: "in", output_format: "pdf" },
      pdfa: { operation: "pdf/a", input: "pdf", conformance_level: "2b" },
    });
    expect(job.status).toBe("finished");
    expect(task("pdf")).toMatchObject({ engine: "libreoffice", status: "finished" });
    expect(task("pdfa")).toMatchObject({ engine: "ghostscript", status: "finished" });
    const out = files.pdfa[0];
    expect(out.filename).toBe("gotenberg-pages_3.pdf");
    expect(Number(pdfinfo(out.path).Pages)).toBe(3);
    expect(run("pdftotext", [out.path, "-"]).out).toMatch(/Page 1[\s\S]*Page 2[\s\S]*Page 3/);
    const xmp = JSON.parse(run("exiftool", ["-j", "-XMP-pdfaid:all", out.path]).out)[0];
    expect(xmp).toMatchObject({ Part: 2, Conformance: "B" });
    const fonts = run("pdffonts", [out.path]).out.trim().split("\n").slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    for (const line of fonts) expect(line).toMatch(/\s+yes\s+yes\s+/); // embedded and subset
    expect([0, 3]).toContain(run("qpdf", ["--check", out.path]).code);
  });

  it("runs an ImageMagick command with captured output", async () => {
    const { job, files, task } = await runCorpusJob(server.base, "images/exif-orientation-Landscape_6.jpg", {
      cmd: {
        operation: "command",
        input: "in",
        engine: "imagemagick",
        command: "convert",
        arguments: "/input/in/exif-orientation-Landscape_6.jpg -resize 50% -verbose /output/half.png",
        capture_output: true,
      },
    });
    expect(job.status).toBe("finished");
    const cmd = task("cmd");
    expect(cmd.engine).toBe("imagemagick");
    expect(cmd.result).toMatchObject({
      command: "convert /input/in/exif-orientation-Landscape_6.jpg -resize 50% -verbose /output/half.png",
    });
    const output = (cmd.result as { output: string }).output;
    expect(output).toContain("/input/in/exif-orientation-Landscape_6.jpg");
    expect(output).not.toMatch(/native-engine-|call-/); // no server path leaks
    const src = identify(corpusPath("images/exif-orientation-Landscape_6.jpg"));
    const half = identify(files.cmd[0].path);
    expect(files.cmd[0].filename).toBe("half.png");
    expect(half.format).toBe("PNG");
    expect(half.width).toBe(Math.round(src.width / 2));
  });

  it("lists the native operations in the catalogue and refuses a path outside /input and /output", async () => {
    const ops = (await (await fetch(`${server.base}/v2/operations?filter[operation]=pdf/a`)).json()) as {
      data: { engine: string }[];
    };
    expect(ops.data.map((o) => o.engine)).toEqual(["ghostscript"]);
    const docx = (await (
      await fetch(
        `${server.base}/v2/operations?filter[operation]=convert&filter[input_format]=docx&filter[output_format]=pdf`,
      )
    ).json()) as { data: { engine: string }[] };
    expect(docx.data.map((o) => o.engine)).toEqual(["libreoffice"]);
    const res = await fetch(`${server.base}/v2/jobs`, {
      method: "POST",
      headers: { Authorization: "Bearer key-a", "content-type": "application/json" },
      body: JSON.stringify({
        tasks: {
          in: { operation: "import/upload" },
          c: {
            operation: "command",
            input: "in",
            engine: "imagemagick",
            command: "convert",
            arguments: "/etc/passwd /output/x.png",
          },
        },
      }),
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("only files under /input/ and /output/");
  });
});
