/**
 * import/sftp and export/sftp through the official SDK against a real OpenSSH sshd on 127.0.0.1
 * (issue 35; storage-connectors.md §4.5), started and stopped here with its own config, host key,
 * free port and a throw-away user (test/support/stores/sshd.ts; needs root, as CI has). The service
 * runs with ALLOW_PRIVATE_IMPORTS=true (loopback hosts allowed, development only); the guarded shared
 * server shows the production rule.
 *
 * Oracles come from outside this project's code: files are seeded and read back with OpenSSH's own
 * `sftp` client (and on disk), images are checked with Debian's `identify`, and the bytes the server
 * holds are compared with what export/url serves.
 */
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { identify } from "../support/image-helpers";
import { type JobBody, sdk, withPayload } from "../support/sdk";
import { startDevServer, type DevServer } from "../support/server";
import { sharedServer } from "../support/servers";
import { freePort } from "../support/stores/proc";
import { startSshd, type Sshd } from "../support/stores/sshd";
import { scaled } from "../support/time-scale";

const PNG = new Uint8Array(readFileSync(corpusPath("images/cloudconvert-input.png")));
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const KEY = "key-sftp";
let server: DevServer;
let sshd: Sshd;

beforeAll(async () => {
  const started = await Promise.allSettled([
    startSshd().then((s) => (sshd = s)),
    startDevServer({ API_KEYS: `${KEY}:sftp`, ALLOW_PRIVATE_IMPORTS: "true", NATIVE: "off" }, scaled(300_000)).then(
      (d) => (server = d),
    ),
  ]);
  const failed = started.find((r) => r.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
}, scaled(400_000));

afterAll(async () => {
  await Promise.all([server?.stop(), sshd?.stop()]);
});

/** A task of the job as read here; `result` holds the fields the tests read (undefined at runtime where absent). */
type Task = {
  name: string;
  status: string;
  code?: string;
  message?: string;
  result: { files: { filename: string; size: number; dir?: string; file?: string }[]; warnings: string[] };
  id: string;
};

/** Runs a job with the SDK and waits for it; answers the job and a task-by-name lookup. */
async function runJob(tasks: Record<string, unknown>) {
  const cc = sdk(KEY, server.base);
  const job = await cc.jobs.wait((await cc.jobs.create({ tasks } as JobBody)).id);
  const task = (n: string) => job.tasks.find((t) => t.name === n) as unknown as Task;
  return { cc, job, task };
}

const states = (job: { tasks: { name?: string; code?: unknown; message?: unknown }[] }) =>
  JSON.stringify(job.tasks.map((t) => [t.name, t.code, t.message]));

/** A fresh directory name for one test's files. */
const dirName = () => `d-${randomBytes(4).toString("hex")}`;

describe("SFTP (OpenSSH sshd on loopback: password and key logins)", () => {
  const withPassword = () => ({ host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password });

  it("import/sftp → convert → export/sftp with a password: the server holds the converted file", async () => {
    const d = dirName();
    sshd.put(`${d}/in/my photo+1.png`, PNG);
    const { job, task, cc } = await runJob({
      in: { operation: "import/sftp", ...withPassword(), file: `${d}/in/my photo+1.png` },
      jpg: { operation: "convert", input: "in", output_format: "jpg" },
      out: { operation: "export/sftp", input: "jpg", ...withPassword(), file: `${d}/out/result.jpg` },
      url: { operation: "export/url", input: "jpg" },
    });
    expect(job.status, states(job)).toBe("finished");
    expect(task("in").result.files).toEqual([{ filename: "my photo+1.png", size: PNG.byteLength }]);
    const stored = sshd.get(`${d}/out/result.jpg`);
    expect(stored).not.toBeNull();
    expect(identify(stored!).format).toBe("JPEG");
    const served = new Uint8Array(await (await fetch(cc.jobs.getExportUrls(job)[0].url!)).arrayBuffer());
    expect(sha256(stored!)).toBe(sha256(served));
    // the file is the user's (written through its SFTP session), in the directory the export created
    expect(statSync(join(sshd.root, d, "out", "result.jpg")).uid).toBe(sshd.uid);
    expect(task("out").result.files).toEqual([
      { filename: "my photo+1.jpg", size: stored!.byteLength, host: sshd.host, file: `${d}/out/result.jpg` },
    ]);
  });

  it("key logins (OpenSSH ed25519 and PEM RSA), port as a string, an absolute path and filename; 3 MB streams both ways", async () => {
    const d = dirName();
    const big = randomBytes(3 * 1024 * 1024 + 17);
    sshd.put(`${d}/big.bin`, big);
    const key = (k: string) => ({ host: sshd.host, port: String(sshd.port), username: sshd.username, private_key: k });
    const { job, task } = await runJob({
      in: {
        operation: "import/sftp",
        ...key(sshd.ed25519Key),
        file: `${sshd.root}/${d}/big.bin`,
        filename: "renamed.bin",
      },
      out: { operation: "export/sftp", input: "in", ...key(sshd.rsaPemKey), file: `${d}/copy/big-copy.bin` },
    });
    expect(job.status, states(job)).toBe("finished");
    expect(task("in").result.files).toEqual([{ filename: "renamed.bin", size: big.byteLength }]);
    expect(sha256(sshd.get(`${d}/copy/big-copy.bin`)!)).toBe(sha256(big));
  });

  it("path imports every file under a directory (with its dir); %d, path and a plain file name several exports", async () => {
    const d = dirName();
    const a = randomBytes(3000);
    const b = randomBytes(70_000);
    sshd.put(`${d}/set/a.bin`, a);
    sshd.put(`${d}/set/sub/b.bin`, b);
    sshd.put(`${d}/other/c.bin`, randomBytes(10));
    const { job, task } = await runJob({
      in: { operation: "import/sftp", ...withPassword(), path: `${d}/set` },
      numbered: { operation: "export/sftp", input: "in", ...withPassword(), file: `${d}/num/file-%02d.bin` },
      inpath: { operation: "export/sftp", input: "in", ...withPassword(), path: `${d}/copy/` },
      plain: { operation: "export/sftp", input: "in", ...withPassword(), file: `${d}/plain/x.bin` },
    });
    expect(job.status, states(job)).toBe("finished");
    expect(task("in").result.files).toEqual([
      { filename: "a.bin", size: a.byteLength, dir: `${d}/set/` },
      { filename: "b.bin", size: b.byteLength, dir: `${d}/set/sub/` },
    ]);
    for (const [name, data] of [
      ["copy/a.bin", a],
      ["copy/b.bin", b],
      ["num/file-01.bin", a],
      ["num/file-02.bin", b],
      ["plain/x-1.bin", a],
      ["plain/x-2.bin", b],
    ] as const)
      expect(sha256(sshd.get(`${d}/${name}`) ?? new Uint8Array()), name).toBe(sha256(data));
    expect(task("numbered").result.files.map((f) => f.file)).toEqual([`${d}/num/file-01.bin`, `${d}/num/file-02.bin`]);
    expect(task("plain").result.warnings).toEqual([expect.stringMatching(/no %d placeholder for 2 files/)]);
  });

  it("wrong password or key → INVALID_CREDENTIALS, missing → FILE_NOT_FOUND, no write permission → PERMISSION_DENIED, no server → DOWNLOAD_FAILED", async () => {
    const d = dirName();
    sshd.put(`${d}/x.png`, PNG);
    mkdirSync(join(sshd.root, d, "empty")); // a directory with no file in it
    // a directory the user may not write into, and a file it may not read (root's, on disk)
    const locked = join(sshd.root, d, "locked");
    mkdirSync(locked, { mode: 0o755 });
    chownSync(locked, 0, 0);
    writeFileSync(join(sshd.root, d, "secret.png"), PNG, { mode: 0o600 });
    chmodSync(join(sshd.root, d, "secret.png"), 0o600);
    const stranger = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }) as string;
    const closed = await freePort();
    const { task } = await runJob({
      wrong: { operation: "import/sftp", ...withPassword(), password: "not-the-password", file: `${d}/x.png` },
      stranger: {
        operation: "import/sftp",
        host: sshd.host,
        port: sshd.port,
        username: sshd.username,
        private_key: stranger,
        file: `${d}/x.png`,
      },
      garbage: {
        operation: "import/sftp",
        host: sshd.host,
        port: sshd.port,
        username: sshd.username,
        private_key: "-----BEGIN OPENSSH PRIVATE KEY-----\nnot a key\n-----END OPENSSH PRIVATE KEY-----\n",
        file: `${d}/x.png`,
      },
      missing: { operation: "import/sftp", ...withPassword(), file: `${d}/nope.png` },
      empty: { operation: "import/sftp", ...withPassword(), path: `${d}/empty` },
      nodir: { operation: "import/sftp", ...withPassword(), path: `${d}/no-such-dir` },
      unreadable: { operation: "import/sftp", ...withPassword(), file: `${d}/secret.png` },
      down: { operation: "import/sftp", ...withPassword(), port: closed, file: `${d}/x.png` },
      ok: { operation: "import/sftp", ...withPassword(), file: `${d}/x.png` },
      denied: { operation: "export/sftp", input: "ok", ...withPassword(), file: `${d}/locked/y.png` },
    });
    expect(task("wrong")).toMatchObject({ status: "error", code: "INVALID_CREDENTIALS" });
    expect(task("wrong").message).not.toContain("not-the-password");
    expect(task("stranger")).toMatchObject({ status: "error", code: "INVALID_CREDENTIALS" });
    expect(task("garbage")).toMatchObject({ status: "error", code: "INVALID_CREDENTIALS" });
    expect(task("garbage").message).not.toContain("not a key");
    expect(task("missing")).toMatchObject({ status: "error", code: "FILE_NOT_FOUND" });
    expect(task("empty")).toMatchObject({ status: "error", code: "FILE_NOT_FOUND" });
    expect(task("nodir")).toMatchObject({ status: "error", code: "FILE_NOT_FOUND" });
    expect(task("unreadable")).toMatchObject({ status: "error", code: "PERMISSION_DENIED" });
    expect(task("down")).toMatchObject({ status: "error", code: "DOWNLOAD_FAILED" });
    expect(task("down").message).toMatch(/could not be reached/);
    expect(task("ok").status).toBe("finished");
    expect(task("denied")).toMatchObject({ status: "error", code: "PERMISSION_DENIED" });
    expect(sshd.get(`${d}/locked/y.png`)).toBeNull();
    for (const t of ["wrong", "stranger", "garbage", "missing", "down", "denied"])
      expect(task(t).message ?? "").not.toContain(sshd.password);
  });

  it("password and private_key are masked in the payload the API shows; bad parameters are a 422 naming task and field", async () => {
    const cc = sdk(KEY, server.base);
    const job = await cc.jobs.create({
      tasks: {
        in: { operation: "import/sftp", ...withPassword(), private_key: sshd.ed25519Key, file: "nothing-here.png" },
      },
    });
    const shown = await cc.tasks.get(job.tasks[0].id, withPayload());
    expect(shown.payload).toMatchObject({ password: "********", private_key: "********", username: sshd.username });
    expect(JSON.stringify(shown)).not.toContain(sshd.password);
    expect(JSON.stringify(shown)).not.toContain("PRIVATE KEY");
    const res = await fetch(`${server.base}/v2/jobs`, {
      method: "POST",
      headers: { Authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({
        tasks: {
          a: { operation: "import/sftp", host: sshd.host, username: "u", password: "p" },
          b: { operation: "export/sftp", input: "a", host: sshd.host, port: "http", username: "u", password: "p" },
          c: { operation: "export/sftp", input: "a", host: "sftp://x/y", username: "u" },
        },
      }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: Record<string, string[]> };
    expect(body.errors["tasks.a"]).toEqual([expect.stringMatching(/^Task a: file: file or path is required/)]);
    expect(body.errors["tasks.b"]).toEqual([expect.stringMatching(/^Task b: port: /)]);
    expect(body.errors["tasks.c"]).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Task c: host: /),
        expect.stringMatching(/^Task c: password: password or private_key is required/),
      ]),
    );
  });

  it("GET /v2/operations lists import/sftp and export/sftp with CloudConvert's options", async () => {
    for (const [op, extra] of [
      ["import/sftp", ["file", "path", "filename"]],
      ["export/sftp", ["file", "path"]],
    ] as const) {
      const res = await fetch(`${server.base}/v2/operations?filter[operation]=${op}&include=options`);
      const { data } = (await res.json()) as {
        data: { operation: string; options: { name: string; type: string }[] }[];
      };
      expect(data.length, op).toBeGreaterThan(0);
      const names = data[0].options.map((o) => o.name);
      expect(names).toEqual(expect.arrayContaining(["host", "port", "username", "password", "private_key", ...extra]));
      expect(data[0].options.find((o) => o.name === "port")?.type).toBe("integer");
    }
  });

  it("the production rule refuses a loopback host (IMPORT_FORBIDDEN), without contacting it", async () => {
    const guarded = sharedServer("guarded");
    const cc = sdk("key-a", guarded.base);
    const job = await cc.jobs.wait(
      (await cc.jobs.create({ tasks: { in: { operation: "import/sftp", ...withPassword(), file: "x.png" } } })).id,
    );
    expect(job.tasks[0]).toMatchObject({ status: "error", code: "IMPORT_FORBIDDEN" });
    expect(job.tasks[0].message).toMatch(/^host: /);
  });
});
