/**
 * Storage imports and exports through the official SDK against real stores on loopback (issue 35),
 * started here and stopped by PID: S3 = OpenStack Swift 2.30 with s3api + tempauth (real SigV4 and
 * payload-hash checks); Azure Blob = azurite 3.37 (Shared Key, SAS signatures and SAS permissions
 * checked); OpenStack = Keystone v3 (Debian python3-keystone) + a Swift proxy validating its tokens
 * (keystonemiddleware); Google Cloud Storage = a loopback double whose token endpoint verifies the
 * RS256 assertion (NOT a real server: none runs offline; test/support/stores/gcs-double.ts). The service runs with ALLOW_PRIVATE_IMPORTS=true (loopback stores allowed, development
 * only) and AZURE_BLOB_ENDPOINT pointing at azurite; the guarded shared server shows the production rule.
 *
 * Oracles come from the stores themselves, never from this project's code: objects are seeded and
 * read back through Swift's own object API (v1, tempauth), not S3, and through Microsoft's
 * @azure/storage-blob SDK for azurite; image outputs are checked with
 * Debian's `identify`; the bytes a store holds are compared with what export/url serves.
 */
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  BlobServiceClient,
  ContainerSASPermissions,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
  type ContainerClient,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath } from "../support/corpus";
import { identify } from "../support/image-helpers";
import { expectedSha256, startBytesServer } from "../support/bytes-server";
import { type JobBody, sdk, withPayload } from "../support/sdk";
import { startDevServer, type DevServer } from "../support/server";
import { sharedServer } from "../support/servers";
import { AZURITE_ACCOUNT, AZURITE_KEY, startAzurite, type Azurite } from "../support/stores/azurite";
import { startGcsDouble, type GcsDouble } from "../support/stores/gcs-double";
import { keystoneLogin, startKeystoneSwift, type KeystoneSwift } from "../support/stores/keystone";
import { freePort } from "../support/stores/proc";
import { startSwift, type SwiftServers } from "../support/stores/swift";
import {
  createContainer,
  getObject,
  listObjects,
  putObject,
  tempauth,
  type SwiftAccount,
} from "../support/stores/swift-client";
import { scaled } from "../support/time-scale";

const PNG = new Uint8Array(readFileSync(corpusPath("images/cloudconvert-input.png")));
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const KEY = "key-s";
const MiB = 1024 * 1024;
let server: DevServer;
let swift: SwiftServers;
let account: SwiftAccount;
let azurite: Azurite;
let keystone: KeystoneSwift;
let gcs: GcsDouble;

beforeAll(async () => {
  const azurePort = await freePort();
  gcs = await startGcsDouble();
  // everything starts at once; whatever started is stopped by afterAll even when another start fails
  const swiftStarted = startSwift().then((s) => (swift = s));
  const started = await Promise.allSettled([
    swiftStarted,
    swiftStarted.then((s) => startKeystoneSwift(s)).then((k) => (keystone = k)),
    startAzurite(azurePort).then((a) => (azurite = a)),
    startDevServer(
      {
        API_KEYS: `${KEY}:storage`,
        ALLOW_PRIVATE_IMPORTS: "true",
        NATIVE: "off",
        AZURE_BLOB_ENDPOINT: `http://127.0.0.1:${azurePort}/{account}`,
        GCS_ENDPOINT: gcs.base,
        // large files (issue 35) at test scale: stores get parts of 5 MiB, R2 multipart parts of 5 MiB, a 20 MiB cap
        STORE_PART_BYTES: String(5 * MiB),
        R2_PART_BYTES: String(5 * MiB),
        MAX_IMPORT_BYTES: String(20 * MiB),
      },
      300_000,
    ).then((d) => (server = d)),
  ]);
  const failed = started.find((r) => r.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
  account = await tempauth(swift.s3, swift.accessKeyId, swift.secretAccessKey);
}, scaled(600_000));

afterAll(async () => {
  await keystone?.stop();
  await Promise.all([server?.stop(), swift?.stop(), azurite?.stop(), gcs?.stop()]);
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

/** A fresh bucket name (S3 names: lower case, digits, dashes). */
const bucketName = () => `b-${randomBytes(5).toString("hex")}`;

describe("S3 (Swift s3api: SigV4 checked)", () => {
  const s3 = () => ({
    region: "us-east-1",
    endpoint: swift.s3,
    access_key_id: swift.accessKeyId,
    secret_access_key: swift.secretAccessKey,
  });

  it("import/s3 → convert → export/s3: the object the store holds is the converted file", async () => {
    const bucket = bucketName();
    await createContainer(account, bucket);
    await putObject(account, bucket, "in/my photo+1.png", PNG, "image/png");
    const { job, task, cc } = await runJob({
      in: { operation: "import/s3", ...s3(), bucket, key: "in/my photo+1.png" },
      jpg: { operation: "convert", input: "in", output_format: "jpg" },
      out: {
        operation: "export/s3",
        input: "jpg",
        ...s3(),
        bucket,
        key: "out/result.jpg",
        cache_control: "max-age=60",
        content_disposition: "attachment",
        metadata: { origin: "e2e" },
        acl: "public-read",
      },
      url: { operation: "export/url", input: "jpg" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.code, t.message]))).toBe("finished");
    expect(task("in").result.files).toEqual([{ filename: "my photo+1.png", size: PNG.byteLength }]);
    const stored = await getObject(account, bucket, "out/result.jpg");
    expect(stored).not.toBeNull();
    expect(identify(stored!.bytes).format).toBe("JPEG");
    const served = new Uint8Array(await (await fetch(cc.jobs.getExportUrls(job)[0].url!)).arrayBuffer());
    expect(sha256(stored!.bytes)).toBe(sha256(served));
    expect(stored!.headers.get("content-type")).toBe("image/jpeg");
    expect(stored!.headers.get("cache-control")).toBe("max-age=60");
    expect(stored!.headers.get("content-disposition")).toBe("attachment");
    expect(stored!.headers.get("x-object-meta-origin")).toBe("e2e");
    expect(task("out").result.files).toEqual([
      { filename: "my photo+1.jpg", size: stored!.bytes.byteLength, bucket, key: "out/result.jpg" },
    ]);
  });

  it("key_prefix imports every object under it (with its dir); %d and key_prefix name several exports", async () => {
    const bucket = bucketName();
    await createContainer(account, bucket);
    const a = randomBytes(3000);
    const b = randomBytes(70_000);
    await putObject(account, bucket, "set/a.bin", a);
    await putObject(account, bucket, "set/sub/b.bin", b);
    await putObject(account, bucket, "other/c.bin", randomBytes(10));
    const { job, task } = await runJob({
      in: { operation: "import/s3", ...s3(), bucket, key_prefix: "set/" },
      numbered: { operation: "export/s3", input: "in", ...s3(), bucket, key: "num/file-%02d.bin" },
      prefixed: { operation: "export/s3", input: "in", ...s3(), bucket, key_prefix: "copy/" },
      plain: { operation: "export/s3", input: "in", ...s3(), bucket, key: "plain/x.bin" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.code, t.message]))).toBe("finished");
    expect(task("in").result.files).toEqual([
      { filename: "a.bin", size: a.byteLength, dir: "set/" },
      { filename: "b.bin", size: b.byteLength, dir: "set/sub/" },
    ]);
    const names = (await listObjects(account, bucket)).map((o) => o.name).sort();
    expect(names).toEqual([
      "copy/a.bin",
      "copy/b.bin",
      "num/file-01.bin",
      "num/file-02.bin",
      "other/c.bin",
      "plain/x-1.bin",
      "plain/x-2.bin",
      "set/a.bin",
      "set/sub/b.bin",
    ]);
    for (const [name, data] of [
      ["copy/a.bin", a],
      ["copy/b.bin", b],
      ["num/file-01.bin", a],
      ["num/file-02.bin", b],
      ["plain/x-2.bin", b],
    ] as const)
      expect(sha256((await getObject(account, bucket, name))!.bytes), name).toBe(sha256(data));
    expect(task("plain").result.warnings).toEqual([expect.stringMatching(/no %d placeholder for 2 files/)]);
  });

  it("wrong secret → INVALID_CREDENTIALS, missing object → FILE_NOT_FOUND, empty prefix → FILE_NOT_FOUND, no store → DOWNLOAD_FAILED", async () => {
    const bucket = bucketName();
    await createContainer(account, bucket);
    await putObject(account, bucket, "x.png", PNG);
    const closed = await freePort();
    const { task } = await runJob({
      wrong: { operation: "import/s3", ...s3(), bucket, key: "x.png", secret_access_key: "not-the-secret" },
      missing: { operation: "import/s3", ...s3(), bucket, key: "nope.png" },
      empty: { operation: "import/s3", ...s3(), bucket, key_prefix: "nothing/" },
      down: { operation: "import/s3", ...s3(), endpoint: `http://127.0.0.1:${closed}`, bucket, key: "x.png" },
      ok: { operation: "import/s3", ...s3(), bucket, key: "x.png" },
      badput: {
        operation: "export/s3",
        input: "ok",
        ...s3(),
        bucket: bucketName(),
        key: "y.png",
      },
    });
    expect(task("wrong")).toMatchObject({ status: "error", code: "INVALID_CREDENTIALS" });
    expect(task("wrong").message).toMatch(/SignatureDoesNotMatch/);
    expect(task("wrong").message).not.toContain("not-the-secret");
    expect(task("missing")).toMatchObject({ status: "error", code: "FILE_NOT_FOUND" });
    expect(task("missing").message).toMatch(/NoSuchKey/);
    expect(task("empty")).toMatchObject({ status: "error", code: "FILE_NOT_FOUND" });
    expect(task("down")).toMatchObject({ status: "error", code: "DOWNLOAD_FAILED" });
    expect(task("down").message).toMatch(/could not be reached/);
    expect(task("ok").status).toBe("finished");
    expect(task("badput")).toMatchObject({ status: "error", code: "FILE_NOT_FOUND" });
    expect(task("badput").message).toMatch(/NoSuchBucket/);
  });

  it("secrets are masked in the payload the API shows; bad parameters are a 422 naming task and field", async () => {
    const cc = sdk(KEY, server.base);
    const bucket = bucketName();
    const job = await cc.jobs.create({
      tasks: { in: { operation: "import/s3", ...s3(), bucket, key: "k", session_token: "tok-123" } },
    });
    const shown = await cc.tasks.get(job.tasks[0].id, withPayload());
    expect(shown.payload).toMatchObject({
      secret_access_key: "********",
      session_token: "********",
      access_key_id: swift.accessKeyId,
    });
    expect(JSON.stringify(shown)).not.toContain(
      swift.secretAccessKey === "testing" ? '"testing"' : swift.secretAccessKey,
    );
    const standalone = await cc.tasks.create("import/s3", { ...s3(), bucket, key: "k" });
    const again = await cc.tasks.get(standalone.id, withPayload());
    expect((again.payload as Record<string, unknown>).secret_access_key).toBe("********");
    const res = await fetch(`${server.base}/v2/jobs`, {
      method: "POST",
      headers: { Authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({
        tasks: {
          a: { operation: "import/s3", ...s3(), bucket: "" },
          b: { operation: "export/s3", input: "a", ...s3(), bucket, acl: "everyone" },
        },
      }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: Record<string, string[]> };
    expect(body.errors["tasks.a"]).toEqual(expect.arrayContaining([expect.stringMatching(/^Task a: bucket: /)]));
    expect(body.errors["tasks.b"]).toEqual([expect.stringMatching(/^Task b: acl: /)]);
  });

  it("the production rule refuses a loopback endpoint (IMPORT_FORBIDDEN), without contacting it", async () => {
    const guarded = sharedServer("guarded");
    const cc = sdk("key-a", guarded.base);
    const job = await cc.jobs.wait(
      (await cc.jobs.create({ tasks: { in: { operation: "import/s3", ...s3(), bucket: "b", key: "x.png" } } })).id,
    );
    expect(job.tasks[0]).toMatchObject({ status: "error", code: "IMPORT_FORBIDDEN" });
    expect(job.tasks[0].message).toMatch(/^endpoint: /);
  });
});

describe("Azure Blob (azurite: Shared Key, SAS and SAS permissions checked)", () => {
  const cred = () => new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
  /** A fresh container, created with Microsoft's SDK. */
  async function container(): Promise<ContainerClient> {
    const c = new BlobServiceClient(azurite.accountUrl, cred()).getContainerClient(
      `c-${randomBytes(5).toString("hex")}`,
    );
    await c.create();
    return c;
  }
  /** A container SAS token with `perms` (e.g. "rl", "cw"), made by Microsoft's SDK. */
  const sas = (c: ContainerClient, perms: string) =>
    generateBlobSASQueryParameters(
      {
        containerName: c.containerName,
        permissions: ContainerSASPermissions.parse(perms),
        expiresOn: new Date(Date.now() + 3600_000),
        version: "2021-12-02",
      },
      cred(),
    ).toString();
  const read = async (c: ContainerClient, name: string) =>
    new Uint8Array(await c.getBlobClient(name).downloadToBuffer());
  const key = { storage_account: AZURITE_ACCOUNT, storage_access_key: AZURITE_KEY };

  it("import/azure/blob → convert → export/azure/blob with the account key: the blob holds the converted file", async () => {
    const c = await container();
    await c.getBlockBlobClient("in/photo one.png").uploadData(PNG);
    const { job, task, cc } = await runJob({
      in: { operation: "import/azure/blob", ...key, container: c.containerName, blob: "in/photo one.png" },
      jpg: { operation: "convert", input: "in", output_format: "jpg" },
      out: {
        operation: "export/azure/blob",
        input: "jpg",
        ...key,
        container: c.containerName,
        blob: "out/result-%d.jpg",
        metadata: { origin: "e2e" },
      },
      url: { operation: "export/url", input: "jpg" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.code, t.message]))).toBe("finished");
    expect(task("in").result.files).toEqual([{ filename: "photo one.png", size: PNG.byteLength }]);
    const stored = await read(c, "out/result-1.jpg");
    expect(identify(stored).format).toBe("JPEG");
    const served = new Uint8Array(await (await fetch(cc.jobs.getExportUrls(job)[0].url!)).arrayBuffer());
    expect(sha256(stored)).toBe(sha256(served));
    const props = await c.getBlobClient("out/result-1.jpg").getProperties();
    expect(props.contentType).toBe("image/jpeg");
    expect(props.metadata).toEqual({ origin: "e2e" });
    expect(task("out").result.files).toEqual([
      { filename: "photo one.jpg", size: stored.byteLength, container: c.containerName, blob: "out/result-1.jpg" },
    ]);
  });

  it("SAS tokens: a read/list SAS imports a prefix, cannot write (PERMISSION_DENIED); a create/write SAS can (Java spelling)", async () => {
    const c = await container();
    const a = randomBytes(5000);
    const b = randomBytes(40_000);
    await c.getBlockBlobClient("set/a.bin").uploadData(a);
    await c.getBlockBlobClient("set/deep/b.bin").uploadData(b);
    const ro = sas(c, "rl");
    const { task } = await runJob({
      in: {
        operation: "import/azure/blob",
        storage_account: AZURITE_ACCOUNT,
        sas_token: `?${ro}`,
        container: c.containerName,
        blob_prefix: "set/",
      },
      denied: {
        operation: "export/azure/blob",
        input: "in",
        storage_account: AZURITE_ACCOUNT,
        sas_token: ro,
        container: c.containerName,
        blob_prefix: "ro/",
      },
      copy: {
        operation: "export/azure-blob",
        input: "in",
        storage_account: AZURITE_ACCOUNT,
        sas_token: sas(c, "cw"),
        container: c.containerName,
        blob_prefix: "copy/",
      },
    });
    expect(task("in").result.files).toEqual([
      { filename: "a.bin", size: a.byteLength, dir: "set/" },
      { filename: "b.bin", size: b.byteLength, dir: "set/deep/" },
    ]);
    expect(task("denied")).toMatchObject({ status: "error", code: "PERMISSION_DENIED" });
    expect(task("copy").status).toBe("finished");
    expect(sha256(await read(c, "copy/a.bin"))).toBe(sha256(a));
    expect(sha256(await read(c, "copy/b.bin"))).toBe(sha256(b));
    const names: string[] = [];
    for await (const blob of c.listBlobsFlat()) names.push(blob.name);
    expect(names.sort()).toEqual(["copy/a.bin", "copy/b.bin", "set/a.bin", "set/deep/b.bin"]);
  });

  it("wrong key → INVALID_CREDENTIALS, tampered SAS → INVALID_CREDENTIALS, missing blob → FILE_NOT_FOUND; secrets masked", async () => {
    const c = await container();
    await c.getBlockBlobClient("x.png").uploadData(PNG);
    const wrongKey = Buffer.from(randomBytes(64)).toString("base64");
    const tampered = sas(c, "rl").replace(/sig=[^&]+/, "sig=AAAA");
    const { task, cc } = await runJob({
      wrong: {
        operation: "import/azure/blob",
        storage_account: AZURITE_ACCOUNT,
        storage_access_key: wrongKey,
        container: c.containerName,
        blob: "x.png",
      },
      forged: {
        operation: "import/azure/blob",
        storage_account: AZURITE_ACCOUNT,
        sas_token: tampered,
        container: c.containerName,
        blob: "x.png",
      },
      missing: { operation: "import/azure/blob", ...key, container: c.containerName, blob: "nope.png" },
    });
    expect(task("wrong")).toMatchObject({ status: "error", code: "INVALID_CREDENTIALS" });
    expect(task("forged")).toMatchObject({ status: "error", code: "INVALID_CREDENTIALS" });
    expect(task("missing")).toMatchObject({ status: "error", code: "FILE_NOT_FOUND" });
    expect(task("missing").message).toMatch(/BlobNotFound/);
    const shown = await cc.tasks.get(task("wrong").id, withPayload());
    expect(shown.payload).toMatchObject({ storage_access_key: "********", storage_account: AZURITE_ACCOUNT });
    const forged = await cc.tasks.get(task("forged").id, withPayload());
    expect((forged.payload as Record<string, unknown>).sas_token).toBe("********");
    expect(JSON.stringify([shown, forged])).not.toContain(wrongKey);
  });
});

describe("OpenStack (Keystone v3 + Swift validating its tokens)", () => {
  const os = () => ({
    auth_url: keystone.authUrl,
    username: keystone.username,
    password: keystone.password,
    region: keystone.region,
  });
  /** The user's own Swift account, through a Keystone token the test gets itself (the oracle's client). */
  async function userAccount(): Promise<SwiftAccount> {
    const { token, body } = await keystoneLogin(keystone.authUrl, keystone.username, keystone.password);
    const store = body.token.catalog.find((e) => e.type === "object-store")!;
    return { url: store.endpoints[0]!.url, token };
  }

  it("import/openstack → convert → export/openstack: the object holds the converted file", async () => {
    const acct = await userAccount();
    const box = `c-${randomBytes(5).toString("hex")}`;
    await createContainer(acct, box);
    await putObject(acct, box, "in/photo.png", PNG, "image/png");
    const { job, task, cc } = await runJob({
      in: { operation: "import/openstack", ...os(), container: box, file: "in/photo.png" },
      jpg: { operation: "convert", input: "in", output_format: "jpg" },
      out: {
        operation: "export/openstack",
        input: "jpg",
        ...os(),
        tenant_name: keystone.project,
        container: box,
        file: "out/p-%d.jpg",
      },
      url: { operation: "export/url", input: "jpg" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.code, t.message]))).toBe("finished");
    expect(task("in").result.files).toEqual([{ filename: "photo.png", size: PNG.byteLength }]);
    const stored = await getObject(acct, box, "out/p-1.jpg");
    expect(identify(stored!.bytes).format).toBe("JPEG");
    const served = new Uint8Array(await (await fetch(cc.jobs.getExportUrls(job)[0].url!)).arrayBuffer());
    expect(sha256(stored!.bytes)).toBe(sha256(served));
    expect(stored!.headers.get("content-type")).toBe("image/jpeg");
    expect(task("out").result.files).toEqual([
      { filename: "photo.jpg", size: stored!.bytes.byteLength, container: box, file: "out/p-1.jpg" },
    ]);
  });

  it("file_prefix imports several objects and exports them under another prefix", async () => {
    const acct = await userAccount();
    const box = `c-${randomBytes(5).toString("hex")}`;
    await createContainer(acct, box);
    const a = randomBytes(1234);
    const b = randomBytes(54_321);
    await putObject(acct, box, "set/a.bin", a);
    await putObject(acct, box, "set/b.bin", b);
    const { job, task } = await runJob({
      in: { operation: "import/openstack", ...os(), container: box, file_prefix: "set/" },
      out: { operation: "export/openstack", input: "in", ...os(), container: box, file_prefix: "copy/" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.code, t.message]))).toBe("finished");
    expect(task("in").result.files).toEqual([
      { filename: "a.bin", size: a.byteLength, dir: "set/" },
      { filename: "b.bin", size: b.byteLength, dir: "set/" },
    ]);
    expect((await listObjects(acct, box)).map((o) => o.name)).toEqual([
      "copy/a.bin",
      "copy/b.bin",
      "set/a.bin",
      "set/b.bin",
    ]);
    expect(sha256((await getObject(acct, box, "copy/a.bin"))!.bytes)).toBe(sha256(a));
    expect(sha256((await getObject(acct, box, "copy/b.bin"))!.bytes)).toBe(sha256(b));
  });

  it("wrong password → INVALID_CREDENTIALS, missing object → FILE_NOT_FOUND, unknown region → a coded error; password masked", async () => {
    const acct = await userAccount();
    const box = `c-${randomBytes(5).toString("hex")}`;
    await createContainer(acct, box);
    const { task, cc } = await runJob({
      wrong: { operation: "import/openstack", ...os(), password: "not-the-password", container: box, file: "x" },
      missing: { operation: "import/openstack", ...os(), container: box, file: "nope.png" },
      region: { operation: "import/openstack", ...os(), region: "Atlantis", container: box, file: "x" },
    });
    expect(task("wrong")).toMatchObject({ status: "error", code: "INVALID_CREDENTIALS" });
    expect(task("missing")).toMatchObject({ status: "error", code: "FILE_NOT_FOUND" });
    expect(task("region")).toMatchObject({ status: "error", code: "DOWNLOAD_FAILED" });
    expect(task("region").message).toMatch(/no public object-store endpoint in region Atlantis/);
    const shown = await cc.tasks.get(task("wrong").id, withPayload());
    expect((shown.payload as Record<string, unknown>).password).toBe("********");
    expect(JSON.stringify(shown)).not.toContain("not-the-password");
  });
});

describe("Google Cloud Storage (a loopback double verifying the RS256 assertion; not a real server)", () => {
  const g = () => ({ project_id: "e2e-project", client_email: gcs.clientEmail, private_key: gcs.privateKey });
  const bucket = () => {
    const name = `g-${randomBytes(5).toString("hex")}`;
    gcs.buckets.set(name, new Map());
    return name;
  };

  it("import → convert → export with the service account: the object holds the converted file", async () => {
    const b = bucket();
    gcs.buckets.get(b)!.set("in/photo.png", { bytes: PNG, contentType: "image/png" });
    const escaped = gcs.privateKey.replace(/\n/g, "\\n"); // as pasted from a JSON key file
    const { job, task, cc } = await runJob({
      in: { operation: "import/google-cloud-storage", ...g(), private_key: escaped, bucket: b, file: "in/photo.png" },
      jpg: { operation: "convert", input: "in", output_format: "jpg" },
      out: { operation: "export/google-cloud-storage", input: "jpg", ...g(), bucket: b, file: "out/p-%d.jpg" },
      url: { operation: "export/url", input: "jpg" },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.code, t.message]))).toBe("finished");
    expect(task("in").result.files).toEqual([{ filename: "photo.png", size: PNG.byteLength }]);
    const stored = gcs.buckets.get(b)!.get("out/p-1.jpg")!;
    expect(identify(stored.bytes).format).toBe("JPEG");
    expect(stored.contentType).toBe("image/jpeg");
    const served = new Uint8Array(await (await fetch(cc.jobs.getExportUrls(job)[0].url!)).arrayBuffer());
    expect(sha256(stored.bytes)).toBe(sha256(served));
    expect(task("out").result.files).toEqual([
      { filename: "photo.jpg", size: stored.bytes.byteLength, bucket: b, file: "out/p-1.jpg" },
    ]);
  });

  it("file_prefix follows list pages; a forged key is refused for its signature (INVALID_CREDENTIALS); missing → FILE_NOT_FOUND", async () => {
    const b = bucket();
    const files = [randomBytes(100), randomBytes(2000), randomBytes(30_000)];
    files.forEach((bytes, i) =>
      gcs.buckets.get(b)!.set(`set/f${i}.bin`, { bytes, contentType: "application/octet-stream" }),
    );
    const forged = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    const before = gcs.refused.length;
    const { task, cc } = await runJob({
      in: { operation: "import/google-cloud-storage", ...g(), bucket: b, file_prefix: "set/" },
      copy: { operation: "export/google-cloud-storage", input: "in", ...g(), bucket: b, file_prefix: "copy/" },
      forged: { operation: "import/google-cloud-storage", ...g(), private_key: forged, bucket: b, file: "set/f0.bin" },
      missing: { operation: "import/google-cloud-storage", ...g(), bucket: b, file: "nope" },
    });
    expect(task("in").result.files).toEqual(
      files.map((f, i) => ({ filename: `f${i}.bin`, size: f.byteLength, dir: "set/" })),
    );
    expect(task("copy").status).toBe("finished");
    files.forEach((f, i) => expect(sha256(gcs.buckets.get(b)!.get(`copy/f${i}.bin`)!.bytes)).toBe(sha256(f)));
    expect(task("forged")).toMatchObject({ status: "error", code: "INVALID_CREDENTIALS" });
    expect(gcs.refused.slice(before)).toContain("Invalid JWT Signature.");
    expect(task("missing")).toMatchObject({ status: "error", code: "FILE_NOT_FOUND" });
    const shown = await cc.tasks.get(task("forged").id, withPayload());
    expect((shown.payload as Record<string, unknown>).private_key).toBe("********");
    expect(JSON.stringify(shown)).not.toContain("PRIVATE KEY");
  });
});

describe("Large files (issue 35) at test scale: 5 MiB parts, a 20 MiB import cap", () => {
  const SIZE = 12 * MiB + 4321; // three parts of 5 MiB: the last one short and not a multiple of 256 KiB
  let files: Awaited<ReturnType<typeof startBytesServer>>;
  beforeAll(async () => void (files = await startBytesServer()));
  afterAll(() => files?.stop());

  it("import/url (sized and chunked) → export/s3 (multipart), export/azure/blob (block list), export/google-cloud-storage (resumable), export/url: same SHA-256 everywhere", async () => {
    const want = expectedSha256(SIZE);
    const bucket = bucketName();
    await createContainer(account, bucket);
    const c = new BlobServiceClient(
      azurite.accountUrl,
      new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY),
    ).getContainerClient(`c-${randomBytes(5).toString("hex")}`);
    await c.create();
    const gBucket = `g-${randomBytes(5).toString("hex")}`;
    gcs.buckets.set(gBucket, new Map());
    const s3 = {
      region: "us-east-1",
      endpoint: swift.s3,
      access_key_id: swift.accessKeyId,
      secret_access_key: swift.secretAccessKey,
      bucket,
    };
    const { job, task, cc } = await runJob({
      sized: { operation: "import/url", url: `${files.base}/sized/${SIZE}/big.bin` },
      chunked: { operation: "import/url", url: `${files.base}/chunked/${SIZE}/big-chunked.bin` },
      s3: { operation: "export/s3", input: "sized", ...s3, key: "big/big.bin", metadata: { origin: "large" } },
      azure: {
        operation: "export/azure/blob",
        input: "sized",
        storage_account: AZURITE_ACCOUNT,
        storage_access_key: AZURITE_KEY,
        container: c.containerName,
        blob: "big/big.bin",
        metadata: { origin: "large" },
      },
      gcs: {
        operation: "export/google-cloud-storage",
        input: "sized",
        project_id: "e2e-project",
        client_email: gcs.clientEmail,
        private_key: gcs.privateKey,
        bucket: gBucket,
        file: "big/big.bin",
      },
      url: { operation: "export/url", input: ["sized", "chunked"] },
    });
    expect(job.status, JSON.stringify(job.tasks.map((t) => [t.name, t.code, t.message]))).toBe("finished");
    expect(task("chunked").result.files[0].size).toBe(SIZE);
    // S3: Swift's s3api stores a multipart upload as a static large object (its own object API says so)
    const stored = await getObject(account, bucket, "big/big.bin");
    expect(stored!.headers.get("x-static-large-object")).toBe("True");
    expect(stored!.headers.get("x-object-meta-origin")).toBe("large");
    expect(sha256(stored!.bytes)).toBe(want);
    // Azure: three committed blocks, read with Microsoft's SDK
    const blob = c.getBlockBlobClient("big/big.bin");
    const blocks = await blob.getBlockList("committed");
    expect(blocks.committedBlocks?.map((b) => b.size)).toEqual([5 * MiB, 5 * MiB, SIZE - 10 * MiB]);
    expect(sha256(new Uint8Array(await blob.downloadToBuffer()))).toBe(want);
    const props = await blob.getProperties();
    expect(props.contentType).toBe("application/octet-stream");
    expect(props.metadata).toEqual({ origin: "large" });
    // GCS: a resumable session of three chunks (the double checked every Content-Range)
    expect(gcs.resumable.filter((r) => r.name === "big/big.bin")).toEqual([{ name: "big/big.bin", chunks: 3 }]);
    expect(sha256(gcs.buckets.get(gBucket)!.get("big/big.bin")!.bytes)).toBe(want);
    // export/url serves both R2 objects (the chunked one went into R2 as a multipart upload) unchanged
    for (const u of cc.jobs.getExportUrls(job)) {
      const served = new Uint8Array(await (await fetch(u.url!)).arrayBuffer());
      expect(sha256(served), u.filename).toBe(want);
    }
  });

  it("the import cap: a declared length over it, and a chunked body passing it, are FILE_TOO_LARGE", async () => {
    const over = 21 * MiB;
    const { task } = await runJob({
      sized: { operation: "import/url", url: `${files.base}/sized/${over}/a.bin` },
      chunked: { operation: "import/url", url: `${files.base}/chunked/${over}/b.bin` },
    });
    expect([task("sized").code, task("sized").message]).toEqual([
      "FILE_TOO_LARGE",
      `The file is ${over} bytes; imports are limited to ${20 * MiB} bytes.`,
    ]);
    expect([task("chunked").code, task("chunked").message]).toEqual([
      "FILE_TOO_LARGE",
      `The download passed ${20 * MiB} bytes; imports are limited to ${20 * MiB} bytes.`,
    ]);
  });
});
