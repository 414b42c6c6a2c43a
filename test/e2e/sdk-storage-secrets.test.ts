/**
 * Storage secrets never leave the service (issue 35): `secret_access_key`, `session_token`,
 * `storage_access_key`, `sas_token`, `private_key` and `password` are absent from the five places
 * a caller or an operator sees — `GET /v2/tasks/{id}?include=payload` (and the job with its tasks),
 * webhooks (job.created, job.finished, job.failed, received by a real HTTP server on loopback), live
 * events (every socket.io message of the user's channels), the server's stdout/stderr, and task
 * error messages — for a job that finishes (S3 → SFTP → S3 against real servers: OpenStack Swift
 * s3api and OpenSSH sshd) and one whose tasks all fail on their credentials or their store
 * (wrong S3 secret with a session token, wrong SFTP password, an unauthorised key, Azure key and SAS,
 * an OpenStack password, a Google service-account key).
 *
 * Every secret is a fresh random string, so its absence cannot be a coincidence of wording; the
 * oracle is a plain substring search over what was received.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { sdk } from "../support/sdk";
import { startDevServer, type DevServer } from "../support/server";
import { freePort } from "../support/stores/proc";
import { startSshd, type Sshd } from "../support/stores/sshd";
import { startSwift, type SwiftServers } from "../support/stores/swift";
import { createContainer, getObject, putObject, tempauth } from "../support/stores/swift-client";
import { until } from "../support/wait";
import { scaled } from "../support/time-scale";

const PNG = new Uint8Array(readFileSync(corpusPath("images/cloudconvert-input.png")));
const KEY = "key-secrets";
const S3_SECRET = `s3secret-${randomBytes(12).toString("hex")}`;
let server: DevServer;
let sshd: Sshd;
let swift: SwiftServers;
let hooks: Server;
let hookUrl: string;
const webhooks: string[] = [];

beforeAll(async () => {
  hooks = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      webhooks.push(body);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => hooks.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
  const closed = await freePort();
  const started = await Promise.allSettled([
    startSshd().then((s) => (sshd = s)),
    startSwift(S3_SECRET).then((s) => (swift = s)),
    startDevServer(
      {
        API_KEYS: `${KEY}:secrets`,
        ALLOW_PRIVATE_IMPORTS: "true",
        NATIVE: "off",
        AZURE_BLOB_ENDPOINT: `http://127.0.0.1:${closed}/{account}`,
        GCS_ENDPOINT: `http://127.0.0.1:${closed}`,
      },
      300_000,
    ).then((d) => (server = d)),
  ]);
  const failed = started.find((r) => r.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
}, scaled(600_000));

afterAll(async () => {
  hooks?.close();
  await Promise.all([server?.stop(), sshd?.stop(), swift?.stop()]);
});

/** The distinctive part of a PEM or OpenSSH private key: its longest base64 line. */
const keyBody = (pem: string) => pem.split("\n").reduce((a, b) => (b.length > a.length ? b : a), "");

describe("storage secrets (S3, SFTP, Azure, OpenStack, GCS) in the five places", () => {
  it("are absent from payloads, webhooks, live events, the server's logs and error messages", async () => {
    const cc = sdk(KEY, server.base);
    const hook = await fetch(`${server.base}/v2/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ url: hookUrl, events: ["job.created", "job.finished", "job.failed"] }),
    });
    expect(hook.status).toBe(201);

    // every message of the user's live channels, raw, once a probe job shows the subscriptions are in place
    const me = await cc.users.me();
    const live: string[] = [];
    const heard: string[] = [];
    for (const ev of ["created", "updated", "finished", "failed"] as const) {
      cc.users.subscribeJobEvent(me.id, ev, ((e: { job: { id: string } }) => heard.push(e.job.id)) as never);
      cc.users.subscribeTaskEvent(me.id, ev, (() => {}) as never);
    }
    (cc as unknown as { socket: { onAny(f: (...a: unknown[]) => void): void } }).socket.onAny((...a) =>
      live.push(JSON.stringify(a)),
    );
    await until(async () => {
      const probe = await cc.jobs.create({ tasks: { p: { operation: "import/raw", file: "p", filename: "p.txt" } } });
      await new Promise((r) => setTimeout(r, 1_000));
      return heard.includes(probe.id);
    }, "the user's live channel never delivered a probe job");

    const bucket = `b-${randomBytes(5).toString("hex")}`;
    const account = await tempauth(swift.s3, swift.accessKeyId, swift.secretAccessKey);
    await createContainer(account, bucket);
    await putObject(account, bucket, "in.png", PNG, "image/png");
    sshd.put("secrets/seed.png", PNG);
    const s3 = { region: "us-east-1", endpoint: swift.s3, access_key_id: swift.accessKeyId, bucket };
    const login = { host: sshd.host, port: sshd.port, username: sshd.username };
    const stranger = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }) as string;
    const gcsKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
      type: "pkcs8",
      format: "pem",
    }) as string;
    const wrong = (what: string) => `${what}-${randomBytes(10).toString("hex")}`;
    const badS3 = wrong("s3wrong");
    const token = wrong("sessiontoken");
    const badPassword = wrong("sftpwrong");
    const azureKey = Buffer.from(wrong("azurekey")).toString("base64");
    const sas = `sv=2021-12-02&ss=b&srt=co&sp=rl&sig=${wrong("sassig")}`;
    const osPassword = wrong("ospassword");

    const good = await cc.jobs.create({
      tasks: {
        in: { operation: "import/s3", ...s3, secret_access_key: S3_SECRET, key: "in.png" },
        up: { operation: "export/sftp", input: "in", ...login, password: sshd.password, file: "secrets/in.png" },
        back: { operation: "export/s3", input: "in", ...s3, secret_access_key: S3_SECRET, key: "out/in.png" },
        keyed: { operation: "import/sftp", ...login, private_key: sshd.ed25519Key, file: "secrets/seed.png" },
      },
    });
    const bad = await cc.jobs.create({
      tasks: {
        s3: { operation: "import/s3", ...s3, secret_access_key: badS3, session_token: token, key: "in.png" },
        pw: { operation: "import/sftp", ...login, password: badPassword, file: "x.png" },
        key: { operation: "import/sftp", ...login, private_key: stranger, file: "x.png" },
        azkey: {
          operation: "import/azure/blob",
          storage_account: "acct",
          storage_access_key: azureKey,
          container: "c",
          blob: "x.png",
        },
        azsas: {
          operation: "import/azure/blob",
          storage_account: "acct",
          sas_token: sas,
          container: "c",
          blob: "x.png",
        },
        os: {
          operation: "import/openstack",
          auth_url: `http://127.0.0.1:${await freePort()}`,
          username: "u",
          password: osPassword,
          region: "RegionOne",
          container: "c",
          file: "x.png",
        },
        gcs: {
          operation: "import/google-cloud-storage",
          project_id: "p",
          bucket: "b",
          client_email: "sa@p.iam.gserviceaccount.com",
          private_key: gcsKey,
          file: "x.png",
        },
      },
    });
    const doneGood = await cc.jobs.wait(good.id);
    const doneBad = await cc.jobs.wait(bad.id);
    // the good job really moved the bytes (so its secrets were used, not just stored)
    expect(doneGood.status, JSON.stringify(doneGood.tasks.map((t) => [t.name, t.code, t.message]))).toBe("finished");
    expect(Buffer.compare(Buffer.from(sshd.get("secrets/in.png")!), Buffer.from(PNG))).toBe(0);
    expect((await getObject(account, bucket, "out/in.png"))?.bytes.byteLength).toBe(PNG.byteLength);
    expect(doneBad.status).toBe("error");
    for (const t of doneBad.tasks) expect(t.status, t.name!).toBe("error");
    expect(Object.fromEntries(doneBad.tasks.map((t) => [t.name, t.code]))).toMatchObject({
      s3: "INVALID_CREDENTIALS",
      pw: "INVALID_CREDENTIALS",
      key: "INVALID_CREDENTIALS",
    });

    await until(
      () =>
        [good.id, bad.id].every((id) =>
          webhooks.some((b) => JSON.parse(b).job?.id === id && /job\.(finished|failed)/.test(JSON.parse(b).event)),
        ),
      "job.finished and job.failed webhooks",
    );
    await until(() => heard.includes(good.id) && heard.includes(bad.id), "live events of both jobs");

    const payloads: string[] = [];
    for (const t of [...doneGood.tasks, ...doneBad.tasks]) {
      const res = await fetch(`${server.base}/v2/tasks/${t.id}?include=payload`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      payloads.push(await res.text());
    }
    for (const id of [good.id, bad.id])
      payloads.push(
        await (await fetch(`${server.base}/v2/jobs/${id}`, { headers: { authorization: `Bearer ${KEY}` } })).text(),
      );
    const messages = doneBad.tasks.map((t) => `${t.name}: ${t.message}`);
    for (const m of messages) expect(m).toMatch(/: \S/); // every failed task says why

    const places: Record<string, string> = {
      payload: payloads.join("\n"),
      webhooks: webhooks.join("\n"),
      "live events": live.join("\n"),
      logs: server.log(),
      "error messages": messages.join("\n"),
    };
    // each place really holds these jobs (so an absence means masking, not an empty capture)
    for (const [place, text] of Object.entries(places))
      if (place !== "logs") expect(text, place).toContain(place === "error messages" ? "s3:" : bad.id);
    expect(places.logs).toContain(`/v2/jobs`); // wrangler logs every request: the capture is live
    expect(places.payload).toContain('"secret_access_key":"********"');
    expect(places.webhooks).toContain('"password":"********"');
    const secrets = {
      S3_SECRET,
      badS3,
      token,
      sftpPassword: sshd.password,
      badPassword,
      ed25519: keyBody(sshd.ed25519Key),
      stranger: keyBody(stranger),
      azureKey,
      sasSig: sas.slice(sas.indexOf("sig=") + 4),
      osPassword,
      gcsKey: keyBody(gcsKey),
    };
    for (const [place, text] of Object.entries(places))
      for (const [name, secret] of Object.entries(secrets))
        expect(text.includes(secret), `${name} appears in ${place}`).toBe(false);
    cc.closeSocket();
  });
});
