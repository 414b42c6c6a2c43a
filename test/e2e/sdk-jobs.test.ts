/**
 * Issue 2, "Done when": the official cloudconvert SDK drives the service under `wrangler dev`:
 * upload → export job, wait, download and compare bytes (oracle: sha256 from corpus/facts.json),
 * list/get/delete, a standalone task, webhook delivery verified with `webhooks.verify`, import/url.
 */
import { createHash } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath, fact } from "../support/corpus";
import { sdk } from "../support/sdk";
import { sharedServer, type SharedServer } from "../support/servers";

let server: SharedServer;
let hooks: Server;
let hookUrl: string;
const received: { body: string; signature: string }[] = [];
const PNG = "images/cloudconvert-input.png";
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

beforeAll(async () => {
  hooks = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.url === "/files/input.png") {
        res.writeHead(200, { "content-type": "image/png" }).end(readFileSync(corpusPath(PNG)));
        return;
      }
      received.push({ body, signature: String(req.headers["cloudconvert-signature"]) });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => hooks.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
  server = sharedServer("open");
});

afterAll(async () => {
  hooks?.close();
});

describe("the official SDK against the service", () => {
  it("runs an upload → export job and serves the same bytes back", async () => {
    const cc = sdk("key-a", server.base);
    let job = await cc.jobs.create({
      tag: "sdk-upload",
      tasks: {
        "upload-my-file": { operation: "import/upload" },
        "export-it": { operation: "export/url", input: "upload-my-file" },
      },
    });
    expect(job.status).toBe("waiting");
    const upload = job.tasks.find((t) => t.name === "upload-my-file")!;
    await cc.tasks.upload(upload, createReadStream(corpusPath(PNG)), "input.png", fact(PNG).size);
    job = await cc.jobs.wait(job.id);
    expect(job.status).toBe("finished");
    const [file] = cc.jobs.getExportUrls(job);
    expect(file.filename).toBe("input.png");
    const res = await fetch(file.url!);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toContain('attachment; filename="input.png"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.byteLength).toBe(fact(PNG).size);
    expect(sha256(bytes)).toBe(fact(PNG).sha256);

    const tampered = file.url!.replace(/signature=([0-9a-f])/, (_, c) => `signature=${c === "0" ? "1" : "0"}`);
    expect((await fetch(tampered)).status).toBe(403);
  });

  it("lists, gets and deletes jobs; another user's job is 404", async () => {
    const cc = sdk("key-a", server.base);
    const job = await cc.jobs.create({
      tag: "to-delete",
      tasks: { a: { operation: "import/raw", file: "x", filename: "a.txt" } },
    });
    const listed = await cc.jobs.all({ "filter[tag]": "to-delete" });
    expect(listed.map((j) => j.id)).toContain(job.id);
    expect((await cc.jobs.get(job.id)).id).toBe(job.id);
    await expect(sdk("key-b", server.base).jobs.get(job.id)).rejects.toThrow("Not Found");
    await cc.jobs.delete(job.id);
    await expect(cc.jobs.get(job.id)).rejects.toThrow("Not Found");
  });

  it("runs a standalone upload task and waits for it", async () => {
    const cc = sdk("key-a", server.base);
    const task = await cc.tasks.create("import/upload");
    expect(task.status).toBe("waiting");
    await cc.tasks.upload(task, createReadStream(corpusPath(PNG)), "input.png");
    const done = await cc.tasks.wait(task.id);
    expect(done.status).toBe("finished");
    expect(done.result!.files![0].filename).toBe("input.png");
    const exp = await cc.tasks.create("export/url", { input: task.id });
    const exported = await cc.tasks.wait(exp.id);
    expect(exported.status).toBe("finished");
    const bytes = new Uint8Array(await (await fetch(exported.result!.files![0].url!)).arrayBuffer());
    expect(sha256(bytes)).toBe(fact(PNG).sha256);
  });

  it("imports by URL from a loopback server when ALLOW_PRIVATE_IMPORTS=true", async () => {
    const cc = sdk("key-a", server.base);
    const job = await cc.jobs.wait(
      (
        await cc.jobs.create({
          tasks: {
            in: { operation: "import/url", url: `${hookUrl}/files/input.png` },
            out: { operation: "export/url", input: "in" },
          },
        })
      ).id,
    );
    expect(job.status).toBe("finished");
    const [file] = cc.jobs.getExportUrls(job);
    expect(file.filename).toBe("input.png");
    expect(sha256(new Uint8Array(await (await fetch(file.url!)).arrayBuffer()))).toBe(fact(PNG).sha256);
  });

  it("delivers signed webhooks that webhooks.verify accepts", async () => {
    const cc = sdk("key-a", server.base);
    const res = await fetch(`${server.base}/v2/webhooks`, {
      method: "POST",
      headers: { authorization: "Bearer key-a", "content-type": "application/json" },
      body: JSON.stringify({ url: `${hookUrl}/hook`, events: ["job.created", "job.finished", "job.failed"] }),
    });
    expect(res.status).toBe(201);
    const secret = (await res.json()).data.signing_secret as string;
    const job = await cc.jobs.create({
      tag: "hooked",
      tasks: { a: { operation: "import/raw", file: "hi", filename: "a.txt" } },
    });
    await cc.jobs.wait(job.id);
    const until = Date.now() + 15_000;
    const mine = () => received.filter((r) => JSON.parse(r.body).job?.id === job.id);
    while (mine().length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const events = mine()
      .map((r) => JSON.parse(r.body).event)
      .sort();
    expect(events).toEqual(["job.created", "job.finished"]);
    for (const r of mine()) expect(cc.webhooks.verify(r.body, r.signature, secret)).toBe(true);
    expect(cc.webhooks.verify(mine()[0].body, mine()[0].signature, "wrong-secret")).toBe(false);
  });

  it("answers users/me as the SDK expects", async () => {
    const me = await sdk("key-a", server.base).users.me();
    expect(me.username).toBe("alice");
    expect(Number.isInteger(me.id)).toBe(true);
    expect(Number.isInteger(me.credits)).toBe(true);
  });
});
