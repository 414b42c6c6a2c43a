/**
 * A deployment without the native engine (NATIVE_ENGINE = "off" in this project's vitest config, as
 * `NATIVE=off npm start` or a Worker deployed without the container): its operations are absent
 * from the catalogue, and a job that needs one ends in ENGINE_UNAVAILABLE naming the engine — a
 * task error, never a hang or a 500. Work the WebAssembly engines can do still runs.
 */
import { describe, expect, it } from "vitest";
import { pdfOf } from "../contract/engines.cases";
import { type ApiOperation, api, createJob, taskByName, waitJob } from "./helpers";

const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

describe("without the native engine", () => {
  it("lists no native operation and no native engine in GET /v2/operations", async () => {
    const all = await api<ApiOperation[]>("GET", "/v2/operations", { key: null });
    const engines = new Set(all.json.data.map((o) => o.engine));
    for (const e of ["ghostscript", "qpdf", "libreoffice", "imagemagick-native", "native-command", "ffmpeg-native"])
      expect(engines.has(e), e).toBe(false);
    const ops = new Set(all.json.data.map((o) => o.operation));
    for (const op of ["pdf/a", "pdf/x"]) expect(ops.has(op)).toBe(false);
    expect(ops.has("pdf/rotate-pages")).toBe(true);
    // `command` remains, with ffmpeg in WebAssembly only (ImageMagick/GraphicsMagick command lines are native)
    expect(new Set(all.json.data.filter((o) => o.operation === "command").map((o) => o.engine))).toEqual(
      new Set(["ffmpeg"]),
    );
    expect(all.json.links.next, "the whole catalogue fits the default page").toBeNull();
  });

  it("ends a pdf/a task in ENGINE_UNAVAILABLE naming Ghostscript, and still runs the rest of the job", async () => {
    const job = await createJob({
      in: { operation: "import/base64", file: b64(await pdfOf([[200, 300]])), filename: "a.pdf" },
      pdfa: { operation: "pdf/a", input: "in", conformance_level: "2b" },
      rot: { operation: "pdf/rotate-pages", input: "in", rotation: "90" },
    });
    const done = await waitJob(job.id);
    expect(taskByName(done, "pdfa")).toMatchObject({ status: "error", code: "ENGINE_UNAVAILABLE" });
    expect(taskByName(done, "pdfa").message).toContain("ghostscript");
    expect(taskByName(done, "rot")).toMatchObject({ status: "finished", engine: "pdflib" });
  });
});
