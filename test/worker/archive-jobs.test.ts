/**
 * Archives inside workerd through the whole path (issue 15): POST /v2/jobs → JobDO → queue → runner
 * → service binding → the 7-Zip engine Worker (wasm/7z, its precompiled module) → R2. Inputs are
 * made here (workerd has no file system); archives the engine writes are read back with fflate, a
 * ZIP implementation independent of 7-Zip, and zips fflate writes are what the engine extracts.
 * Native oracles (unzip, tar, 7z, bsdtar) judge the engine in test/engines-heavy/archive-engine.test.ts and
 * the SDK path in test/e2e/sdk-archive.test.ts.
 */
import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { type ApiOperation, api, createJob, taskByName, waitJob } from "./helpers";

const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
const text = (s: string) => ({ operation: "import/base64", file: b64(strToU8(s)) });

async function download(url: string): Promise<Uint8Array> {
  const { exports } = await import("cloudflare:workers");
  return new Uint8Array(await (await exports.default.fetch(url)).arrayBuffer());
}

describe("archive and extraction with the 7-Zip engine Worker", () => {
  it("archives three files (two of one name) as zip, kept apart, and exports it", async () => {
    const job = await createJob({
      a: { ...text("first a\n"), filename: "a.txt" },
      b: { ...text("second a\n"), filename: "a.txt" },
      c: { ...text("c".repeat(10000)), filename: "c.log" },
      zip: { operation: "archive", input: ["a", "b", "c"], output_format: "zip", filename: "bundle.zip" },
      out: { operation: "export/url", input: "zip" },
    });
    const done = await waitJob(job.id);
    const zip = taskByName(done, "zip");
    expect(zip.status, JSON.stringify(zip)).toBe("finished");
    expect(zip).toMatchObject({ engine: "7z", engine_version: "24.09" });
    const [file] = taskByName(done, "out").result.files;
    expect(file.filename).toBe("bundle.zip");
    const members = unzipSync(await download(file.url));
    expect(Object.keys(members).sort()).toEqual(["a-2.txt", "a.txt", "c.log"]);
    expect(new TextDecoder().decode(members["a.txt"])).toBe("first a\n");
    expect(new TextDecoder().decode(members["a-2.txt"])).toBe("second a\n");
    expect(members["c.log"]!.length).toBe(10000);
  });

  it("extracts a zip into one output per file (paths in the result), which a later task archives again", async () => {
    const zip = zipSync({
      "docs/a.txt": strToU8("A"),
      "docs/b.txt": strToU8("B1"),
      "b.txt": strToU8("B2"),
      "empty/": new Uint8Array(0),
    });
    const job = await createJob({
      in: { operation: "import/base64", file: b64(zip), filename: "docs.zip" },
      files: { operation: "convert", input: "in", output_format: "files" },
      again: { operation: "archive", input: "files", output_format: "tar.gz" },
      out: { operation: "export/url", input: ["files", "again"] },
    });
    const done = await waitJob(job.id);
    const files = taskByName(done, "files");
    expect(files.status, JSON.stringify(files)).toBe("finished");
    expect(files.result.files.map((f) => [f.filename, f.size])).toEqual([
      ["a.txt", 1],
      ["b.txt", 2],
      ["b-2.txt", 2],
    ]);
    expect(files.result.members.map((m) => [m.path, m.filename])).toEqual([
      ["docs/a.txt", "a.txt"],
      ["docs/b.txt", "b.txt"],
      ["b.txt", "b-2.txt"],
    ]);
    const urls = taskByName(done, "out").result.files;
    expect(new TextDecoder().decode(await download(urls[1].url))).toBe("B1");
    expect(taskByName(done, "again").status).toBe("finished");
    const tgz = await download(urls[3].url);
    expect([tgz[0], tgz[1]]).toEqual([0x1f, 0x8b]); // gzip
  });

  it("repacks a zip as 7z, and an encrypted 7z opens only with its password", async () => {
    const zip = zipSync({ "x/y.txt": strToU8("why") });
    const job = await createJob({
      in: { operation: "import/base64", file: b64(zip), filename: "in.zip" },
      seven: { operation: "convert", input: "in", output_format: "7z" },
      locked: { operation: "archive", input: "in", output_format: "7z", password: "pw" },
      open: { operation: "convert", input: "locked", input_format: "7z", output_format: "files", password: "pw" },
      wrong: { operation: "convert", input: "locked", input_format: "7z", output_format: "files", password: "nope" },
      missing: { operation: "convert", input: "locked", input_format: "7z", output_format: "files" },
      back: { operation: "convert", input: "seven", output_format: "zip" },
      out: { operation: "export/url", input: ["back", "open"] },
    });
    const done = await waitJob(job.id);
    expect(taskByName(done, "seven").result.files[0].filename).toBe("in.7z");
    expect(taskByName(done, "wrong")).toMatchObject({ status: "error", code: "INVALID_PASSWORD" });
    expect(taskByName(done, "missing")).toMatchObject({ status: "error", code: "INVALID_PASSWORD" });
    const urls = taskByName(done, "out").result.files;
    const back = unzipSync(await download(urls[0].url));
    expect(new TextDecoder().decode(back["x/y.txt"])).toBe("why");
    // the locked 7z holds the uploaded in.zip itself; opened with its password it comes back byte for byte
    expect(urls[1].filename).toBe("in.zip");
    expect(new TextDecoder().decode(unzipSync(await download(urls[1].url))["x/y.txt"])).toBe("why");
  });

  it("refuses a zip-slip archive with UNSAFE_ARCHIVE and writes nothing", async () => {
    const evil = zipSync({ "ok.txt": strToU8("ok"), "../../escape.txt": strToU8("evil") });
    const job = await createJob({
      in: { operation: "import/base64", file: b64(evil), filename: "evil.zip" },
      files: { operation: "convert", input: "in", output_format: "files" },
    });
    const done = await waitJob(job.id);
    const t = taskByName(done, "files");
    expect(t).toMatchObject({ status: "error", code: "UNSAFE_ARCHIVE" });
    expect(t.message).toContain("../../escape.txt");
    expect(t.result?.files ?? []).toEqual([]);
  });

  it("answers RAR as an archive output with a 422 that says why, and lists archive formats in the catalogue", async () => {
    const r = await api("POST", "/v2/jobs", {
      body: { tasks: { in: text("x"), rar: { operation: "archive", input: "in", output_format: "rar" } } },
    });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.json)).toMatch(/RAR archives can be read .* but not written/);
    const tar = await api("POST", "/v2/jobs", {
      body: { tasks: { in: text("x"), t: { operation: "archive", input: "in", output_format: "tar", password: "x" } } },
    });
    expect(tar.status).toBe(422);
    expect(JSON.stringify(tar.json)).toMatch(/password: parameter not supported by archive/);
    const ops = await api<ApiOperation[]>("GET", "/v2/operations?filter[operation]=archive");
    expect(ops.json.data.map((o) => o.output_format).sort()).toEqual([
      "7z",
      "tar",
      "tar.bz2",
      "tar.gz",
      "tbz2",
      "tgz",
      "zip",
    ]);
    const ex = await api<ApiOperation[]>("GET", "/v2/operations?filter[operation]=convert&filter[input_format]=rar");
    expect(ex.json.data.map((o) => o.output_format)).toContain("files");
  });
});
