/**
 * Imports through the official SDK against a real loopback server (issue 11): import/base64,
 * import/url with `headers`, multi-hop redirect chains (relative and absolute Locations), a chain
 * longer than the hop limit (5), and a hop into a private or metadata address. Oracle: the SHA-256
 * of the bytes served, compared with what export/url serves back.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { type JobBody, sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

const PNG = readFileSync(corpusPath("images/cloudconvert-input.png"));
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
let server: SharedServer;
let origin: Server;
let base: string;
const seen: { url: string; token?: string }[] = [];

beforeAll(async () => {
  origin = createServer((req, res) => {
    const url = req.url ?? "/";
    seen.push({ url, token: req.headers["x-token"] as string | undefined });
    const hop = /^\/chain\/(\d+)$/.exec(url);
    if (url === "/secret.png") {
      if (req.headers["x-token"] !== "s3cret") return void res.writeHead(403).end("no token");
      return void res.writeHead(200, { "content-type": "image/png" }).end(PNG);
    }
    if (url === "/file.png") return void res.writeHead(200, { "content-type": "image/png" }).end(PNG);
    if (hop) {
      const n = Number(hop[1]);
      // Even hops answer a relative Location, odd ones an absolute URL; hop 0 serves the file.
      if (n === 0) return void res.writeHead(302, { location: "../file.png" }).end();
      return void res.writeHead(n % 2 ? 301 : 307, { location: n % 2 ? `${base}/chain/${n - 1}` : `${n - 1}` }).end();
    }
    if (url === "/to-metadata")
      return void res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (url === "/to-private") return void res.writeHead(302, { location: "http://10.0.0.1/file.png" }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => origin.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  // Loopback is allowed for this test's origin server only (development setting); private and metadata ranges stay refused.
  server = sharedServer("open");
});

afterAll(async () => {
  origin?.close();
});

/** Runs import → export/url with the SDK; answers the finished job or the import task's error. */
async function importJob(importTask: Record<string, unknown>) {
  const cc = sdk("key-a", server.base);
  const job = await cc.jobs.wait(
    (
      await cc.jobs.create({
        tasks: { in: importTask, out: { operation: "export/url", input: "in" } },
      } as unknown as JobBody)
    ).id, // any import task the API takes
  );
  const task = job.tasks.find((t) => t.name === "in")!;
  if (job.status !== "finished") return { job, error: { code: task.code, message: task.message } };
  const [file] = cc.jobs.getExportUrls(job);
  return { job, bytes: new Uint8Array(await (await fetch(file.url!)).arrayBuffer()), filename: file.filename };
}

describe("imports against a real loopback server", () => {
  it("import/base64 stores exactly the decoded bytes", async () => {
    const r = await importJob({ operation: "import/base64", file: PNG.toString("base64"), filename: "b64.png" });
    expect(r.filename).toBe("b64.png");
    expect(sha256(r.bytes!)).toBe(sha256(PNG));
  });

  it("import/url sends the task's headers", async () => {
    const refused = await importJob({ operation: "import/url", url: `${base}/secret.png` });
    expect(refused.error?.code).toBe("DOWNLOAD_FAILED");
    const r = await importJob({ operation: "import/url", url: `${base}/secret.png`, headers: { "X-Token": "s3cret" } });
    expect(sha256(r.bytes!)).toBe(sha256(PNG));
    expect(seen.filter((s) => s.url === "/secret.png").map((s) => s.token)).toEqual([undefined, "s3cret"]);
  });

  it("follows a chain of 5 redirects, relative and absolute, to the file", async () => {
    seen.length = 0;
    const r = await importJob({ operation: "import/url", url: `${base}/chain/4` });
    expect(r.error).toBeUndefined();
    expect(sha256(r.bytes!)).toBe(sha256(PNG));
    expect(seen.map((s) => s.url)).toEqual(["/chain/4", "/chain/3", "/chain/2", "/chain/1", "/chain/0", "/file.png"]);
  });

  it("refuses a chain longer than 5 redirects", async () => {
    const r = await importJob({ operation: "import/url", url: `${base}/chain/5` });
    expect(r.error?.code).toBe("DOWNLOAD_FAILED");
    expect(r.error?.message).toMatch(/Too many redirects/);
  });

  it("refuses a hop into a metadata or private address, without fetching it", async () => {
    for (const path of ["/to-metadata", "/to-private"]) {
      const r = await importJob({ operation: "import/url", url: `${base}${path}` });
      expect(r.error?.code, path).toBe("IMPORT_FORBIDDEN");
      expect(r.error?.message, path).toMatch(/Redirect refused/);
    }
  });
});
