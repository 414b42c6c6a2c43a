/**
 * Fonts in workerd through the job API (issue 47): POST /v2/jobs → JobDO → TASKS queue → runner → the
 * fonteditor-core engine in the api Worker's isolate (row "fonteditor", in-worker) → R2 → export. The
 * input is a real font written by others (Noto Sans, as the fonts Worker ships it over the FONTS
 * binding); the output is judged by the WOFF 1.0 header and table directory read here by the W3C
 * specification (§4–5): the flavour, every table of the input with its original length, and the stated
 * sfnt size. A truncated font ends with a task error code.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type ApiJob, b64, createJob, taskByName, waitJob } from "./helpers";

async function download(job: ApiJob, name = "out"): Promise<Uint8Array> {
  const url = taskByName(job, name).result.files[0].url as string;
  const { exports } = await import("cloudflare:workers");
  return new Uint8Array(await (await exports.default.fetch(url)).arrayBuffer());
}

const tagAt = (d: Uint8Array, at: number) => String.fromCharCode(...d.subarray(at, at + 4));

/** An sfnt's table directory: tag → length (OpenType spec, "Table directory"). */
function sfntTables(d: Uint8Array): Record<string, number> {
  const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const out: Record<string, number> = {};
  for (let i = 0; i < v.getUint16(4); i++) out[tagAt(d, 12 + 16 * i)] = v.getUint32(12 + 16 * i + 12);
  return out;
}

/** A WOFF's header and table directory: flavour, totalSfntSize, tag → origLength (WOFF 1.0 §4–5). */
function woffTables(d: Uint8Array): {
  signature: string;
  flavour: string;
  length: number;
  tables: Record<string, number>;
} {
  const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const tables: Record<string, number> = {};
  for (let i = 0; i < v.getUint16(12); i++) tables[tagAt(d, 44 + 20 * i)] = v.getUint32(44 + 20 * i + 12);
  return { signature: tagAt(d, 0), flavour: tagAt(d, 4), length: v.getUint32(8), tables };
}

/** DejaVu Sans Mono, 343 KB: within fonteditor-core's 384 KiB in the api Worker (issue 49; Noto Sans, 629 KB, is not). */
const dejaVuMono = () =>
  (env as unknown as { FONTS: { font(f: string): Promise<Uint8Array> } }).FONTS.font("DejaVuSansMono.ttf");

describe("fonts in the api Worker", () => {
  it("convert ttf → woff runs in fonteditor-core in the isolate, every table kept", async () => {
    const ttf = await dejaVuMono();
    const job = await createJob({
      in: { operation: "import/base64", file: b64(ttf), filename: "DejaVuSansMono.ttf" },
      conv: { operation: "convert", input: "in", output_format: "woff" },
      out: { operation: "export/url", input: "conv" },
    });
    const done = await waitJob(job.id);
    const conv = taskByName(done, "conv");
    expect(done.status, JSON.stringify(conv)).toBe("finished");
    expect(conv).toMatchObject({ engine: "fonteditor" });
    expect(taskByName(done, "out").result.files[0].filename).toBe("DejaVuSansMono.woff");
    const woff = await download(done);
    const got = woffTables(woff);
    expect(got.signature).toBe("wOFF");
    expect(got.flavour).toBe("\0\x01\0\0");
    expect(got.length).toBe(woff.byteLength);
    expect(got.tables).toEqual(sfntTables(ttf));
    expect(woff.byteLength).toBeLessThan(ttf.byteLength);
  });

  it("a truncated font ends with a task error code, and the job ends", async () => {
    const ttf = (await dejaVuMono()).subarray(0, 900);
    const job = await createJob({
      in: { operation: "import/base64", file: b64(ttf), filename: "cut.ttf" },
      conv: { operation: "convert", input: "in", output_format: "eot" },
    });
    const done = await waitJob(job.id);
    const conv = taskByName(done, "conv");
    expect(done.status).toBe("error");
    expect(conv).toMatchObject({ status: "error", code: "OPEN_FAILED", engine: "fonteditor" });
  });
});
