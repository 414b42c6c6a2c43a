/**
 * The storage connectors' pure parts (issue 35): SigV4 as the S3 connector configures aws4fetch
 * (against AWS's published example signature), the S3 URL and header mapping, export naming
 * (printf %d, prefixes, directories), the task errors of store answers, the SSRF guard on
 * endpoints, the masking of secrets in payloads, and the Java SDK's operation spellings.
 */
import { describe, expect, it } from "vitest";
import { parseJobTasks } from "../../src/graph/parse";
import { handlersOf } from "../../src/operations/registry";
import { TASK_CATALOG } from "../../src/operations/validate";
import { exportPaths, numbered, printfNumber, splitPath } from "../../src/operations/storage/naming";
import { storeError } from "../../src/stores/errors";
import { downloadOf, guardUrl, listPages } from "../../src/stores/http";
import { s3BucketUrl, s3Client, s3PutHeaders, s3ExportParams } from "../../src/stores/s3";
import { azureAccountUrl, withSas } from "../../src/stores/azure-blob";
import { stringToSign } from "../../src/stores/azure-blob/shared-key";
import { keystoneAuthBody, keystoneTokenUrl, objectStoreUrl } from "../../src/stores/openstack";
import { z } from "zod";
import { enginesFor } from "../../src/engines/routing";
import { testContext } from "../support/context";

describe("S3 signing (aws4fetch as the connector configures it)", () => {
  it("reproduces AWS's example GET signature (S3 docs, 'GET Object' example, 2013-05-24)", async () => {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html — example "GET Object"
    const client = s3Client({
      bucket: "examplebucket",
      region: "us-east-1",
      access_key_id: "AKIAIOSFODNN7EXAMPLE",
      secret_access_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    });
    const req = await client.sign("https://examplebucket.s3.amazonaws.com/test.txt", {
      method: "GET",
      headers: {
        range: "bytes=0-9",
        "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      },
      aws: { datetime: "20130524T000000Z", allHeaders: true },
    });
    expect(req.headers.get("authorization")).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, " +
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, " +
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
  });

  it("streams unsigned payloads and sends the session token", async () => {
    const client = s3Client({
      bucket: "b",
      region: "eu-west-1",
      access_key_id: "AK",
      secret_access_key: "SK",
      session_token: "TOKEN",
    });
    const req = await client.sign("https://b.s3.eu-west-1.amazonaws.com/k", { method: "PUT", body: "x" });
    expect(req.headers.get("x-amz-content-sha256")).toBe("UNSIGNED-PAYLOAD");
    expect(req.headers.get("x-amz-security-token")).toBe("TOKEN");
    expect(req.headers.get("authorization")).toMatch(/Credential=AK\/\d{8}\/eu-west-1\/s3\/aws4_request/);
  });
});

describe("S3 URLs and headers", () => {
  it("uses the endpoint path-style, AWS virtual-hosted style, and path style for dotted buckets", () => {
    expect(s3BucketUrl({ bucket: "b", region: "us-west-2" })).toBe("https://b.s3.us-west-2.amazonaws.com");
    expect(s3BucketUrl({ bucket: "my.bucket", region: "eu-west-1" })).toBe(
      "https://s3.eu-west-1.amazonaws.com/my.bucket",
    );
    expect(s3BucketUrl({ bucket: "b", region: "auto", endpoint: "https://acc.r2.cloudflarestorage.com/" })).toBe(
      "https://acc.r2.cloudflarestorage.com/b",
    );
    expect(s3BucketUrl({ bucket: "b", region: "nyc3", endpoint: "nyc3.digitaloceanspaces.com" })).toBe(
      "https://nyc3.digitaloceanspaces.com/b",
    );
  });

  it("maps acl, cache_control, content_disposition, content_type, metadata, server_side_encryption and tagging", () => {
    const p = s3ExportParams.parse({
      bucket: "b",
      region: "r",
      access_key_id: "a",
      secret_access_key: "s",
      acl: "public-read",
      cache_control: "max-age=172800",
      content_disposition: 'attachment; filename="x.pdf"',
      metadata: { Origin: "cc", "project-id": "7" },
      server_side_encryption: "AES256",
      tagging: { team: "a b", "k:1": "v=1&2" },
    });
    expect(s3PutHeaders(p, "application/pdf")).toEqual({
      "content-type": "application/pdf",
      "x-amz-acl": "public-read",
      "cache-control": "max-age=172800",
      "content-disposition": 'attachment; filename="x.pdf"',
      "x-amz-server-side-encryption": "AES256",
      "x-amz-meta-origin": "cc",
      "x-amz-meta-project-id": "7",
      "x-amz-tagging": "team=a+b&k%3A1=v%3D1%262",
    });
    expect(s3PutHeaders({ ...p, content_type: "text/x-mine" }, "application/pdf")["content-type"]).toBe("text/x-mine");
  });
});

describe("export naming", () => {
  it("formats %d, %03d and %3d 1-based; leaves templates without one", () => {
    expect(printfNumber("myfile-%d.pdf", 2)).toBe("myfile-2.pdf");
    expect(printfNumber("p%03d.png", 7)).toBe("p007.png");
    expect(printfNumber("p%3d.png", 7)).toBe("p  7.png");
    expect(printfNumber("plain.png", 1)).toBeNull();
    expect(numbered("dir/a.tar.gz", 3)).toBe("dir/a-3.tar.gz");
    expect(numbered("noext", 1)).toBe("noext-1");
  });

  it("names several files by key, prefix or directory, and warns when a key has no placeholder", () => {
    const names = ["a.pdf", "b.pdf"];
    expect(exportPaths(["a.pdf"], "out/x-%d.pdf", undefined, false, "key")).toEqual({
      paths: ["out/x-1.pdf"],
      warnings: [],
    });
    expect(exportPaths(["a.pdf"], "out/x.pdf", undefined, false, "key").paths).toEqual(["out/x.pdf"]);
    expect(exportPaths(names, "x-%d.pdf", undefined, false, "key").paths).toEqual(["x-1.pdf", "x-2.pdf"]);
    const unnumbered = exportPaths(names, "x.pdf", undefined, false, "key");
    expect(unnumbered.paths).toEqual(["x-1.pdf", "x-2.pdf"]);
    expect(unnumbered.warnings).toEqual([expect.stringMatching(/^key "x.pdf" has no %d placeholder for 2 files/)]);
    expect(exportPaths(names, undefined, "pre/fix-", false, "key").paths).toEqual(["pre/fix-a.pdf", "pre/fix-b.pdf"]);
    expect(exportPaths(names, undefined, "/upload", true, "file").paths).toEqual(["/upload/a.pdf", "/upload/b.pdf"]);
    expect(exportPaths(names, undefined, undefined, false, "key").paths).toEqual(names);
    expect(splitPath("a/b/c.txt")).toEqual({ name: "c.txt", dir: "a/b/" });
    expect(splitPath("c.txt")).toEqual({ name: "c.txt", dir: "" });
  });
});

describe("store errors", () => {
  it("codes what retrying cannot fix, and retries 5xx/429 only", () => {
    expect(storeError("S3", "download", 403, "SignatureDoesNotMatch", { badCredentials: true }).code).toBe(
      "INVALID_CREDENTIALS",
    );
    expect(storeError("Azure", "download", 401, "").code).toBe("INVALID_CREDENTIALS");
    const denied = storeError("S3", "upload", 403, "AccessDenied: Access Denied", { permission: "s3:PutObject" });
    expect(denied.code).toBe("PERMISSION_DENIED");
    expect(denied.message).toMatch(/need s3:PutObject\)/);
    expect(storeError("S3", "download", 404, "NoSuchKey").code).toBe("FILE_NOT_FOUND");
    for (const s of [500, 503, 429]) expect(storeError("S3", "upload", s, "").retryable, String(s)).toBe(true);
    const bad = storeError("S3", "upload", 400, "InvalidArgument");
    expect([bad.code, bad.retryable]).toEqual(["UPLOAD_FAILED", false]);
  });
});

describe("endpoints pass the import/url SSRF guard", () => {
  it("refuses loopback in production, allows it only with ALLOW_PRIVATE_IMPORTS; never metadata or private ranges", () => {
    const prod = testContext().settings;
    const dev = { ...prod, allowPrivateImports: true };
    expect(() => guardUrl("http://127.0.0.1:9000/b", prod, "endpoint")).toThrow(/^endpoint: points to a loopback/);
    expect(() => guardUrl("http://127.0.0.1:9000/b", dev, "endpoint")).not.toThrow();
    for (const u of ["http://169.254.169.254/b", "http://10.0.0.2/b", "http://metadata.google.internal/b"])
      expect(() => guardUrl(u, dev, "endpoint"), u).toThrow(expect.objectContaining({ code: "IMPORT_FORBIDDEN" }));
    expect(() => guardUrl("https://s3.us-east-1.amazonaws.com/b", prod, "endpoint")).not.toThrow();
  });
});

describe("task payloads", () => {
  it("mask every secret parameter and keep the rest as posted", () => {
    const r = parseJobTasks(
      {
        in: {
          operation: "import/s3",
          bucket: "b",
          region: "r",
          key: "k",
          access_key_id: "AKID",
          secret_access_key: "SECRET",
          session_token: "TOKEN",
        },
      },
      TASK_CATALOG,
    );
    if (!("specs" in r)) throw new Error(JSON.stringify(r.errors));
    expect(r.specs[0].payload).toEqual({
      operation: "import/s3",
      bucket: "b",
      region: "r",
      key: "k",
      access_key_id: "AKID",
      secret_access_key: "********",
      session_token: "********",
    });
    expect(r.specs[0].params.secret_access_key).toBe("SECRET");
  });

  it("refuses an import with neither key nor key_prefix, and a malformed endpoint, naming the field", () => {
    const r = parseJobTasks(
      {
        a: { operation: "import/s3", bucket: "b", region: "r", access_key_id: "a", secret_access_key: "s" },
        b: {
          operation: "import/s3",
          bucket: "b",
          region: "r",
          access_key_id: "a",
          secret_access_key: "s",
          key: "k",
          endpoint: "ftp://x",
        },
      },
      TASK_CATALOG,
    );
    expect("errors" in r && r.errors).toEqual({
      "tasks.a": ["Task a: key: key or key_prefix is required."],
      "tasks.b": [expect.stringMatching(/^Task b: endpoint: scheme ftp: is not allowed/)],
    });
  });
});

describe("Azure Blob", () => {
  it("builds the string to sign: empty Content-Length for 0, sorted x-ms-* headers, /account + path + sorted query", () => {
    const url = new URL("http://127.0.0.1:10000/acct/c?restype=container&comp=list&prefix=a%2Fb");
    const headers = {
      "x-ms-version": "2021-12-02",
      "x-ms-date": "Wed, 25 Nov 2026 19:00:00 GMT",
      "content-length": "0",
    };
    expect(stringToSign("GET", url, headers, "acct")).toBe(
      "GET\n\n\n\n\n\n\n\n\n\n\n\n" +
        "x-ms-date:Wed, 25 Nov 2026 19:00:00 GMT\nx-ms-version:2021-12-02\n" +
        "/acct/acct/c\ncomp:list\nprefix:a/b\nrestype:container",
    );
  });

  it("uses the fixed host unless a development override is given; appends SAS tokens with or without '?'", () => {
    expect(azureAccountUrl("acct")).toBe("https://acct.blob.core.windows.net");
    expect(azureAccountUrl("acct", "http://127.0.0.1:1/{account}/")).toBe("http://127.0.0.1:1/acct");
    expect(withSas("https://a/c/b", "?sv=1&sig=x")).toBe("https://a/c/b?sv=1&sig=x");
    expect(withSas("https://a/c?comp=list", "sv=1")).toBe("https://a/c?comp=list&sv=1");
  });

  it("accepts the Java SDK's import/azure-blob; needs a key or a SAS; masks both", () => {
    const r = parseJobTasks(
      {
        a: {
          operation: "import/azure-blob",
          storage_account: "acct",
          container: "box",
          blob: "x",
          sas_token: "sv=1&sig=S",
        },
        b: { operation: "export/azure/blob", input: "a", storage_account: "acct", container: "box" },
      },
      TASK_CATALOG,
    );
    expect("errors" in r && r.errors).toEqual({
      "tasks.b": ["Task b: storage_access_key: storage_access_key or sas_token is required."],
    });
    const ok = parseJobTasks(
      {
        a: {
          operation: "import/azure-blob",
          storage_account: "acct",
          container: "box",
          blob: "x",
          sas_token: "sv=1&sig=S",
        },
      },
      TASK_CATALOG,
    );
    if (!("specs" in ok)) throw new Error("refused");
    expect(ok.specs[0].payload).toMatchObject({ operation: "import/azure-blob", sas_token: "********" });
  });
});

describe("OpenStack", () => {
  it("derives the v3 token URL from auth_url with or without a version, and scopes to tenant_name only when given", () => {
    for (const u of ["https://id.example.com:5000", "https://id.example.com:5000/", "https://id.example.com:5000/v3/"])
      expect(keystoneTokenUrl(u), u).toBe("https://id.example.com:5000/v3/auth/tokens");
    expect(keystoneAuthBody({ username: "u", password: "p" })).toEqual({
      auth: {
        identity: {
          methods: ["password"],
          password: { user: { name: "u", domain: { id: "default" }, password: "p" } },
        },
      },
    });
    expect(keystoneAuthBody({ username: "u", password: "p", tenant_name: "t" })).toMatchObject({
      auth: { scope: { project: { name: "t", domain: { id: "default" } } } },
    });
  });

  it("picks the public object-store endpoint of the region from the catalog", () => {
    const catalog = [
      { type: "identity", endpoints: [{ interface: "public", region_id: "R1", url: "https://id/v3" }] },
      {
        type: "object-store",
        endpoints: [
          { interface: "internal", region_id: "R1", url: "http://10.0.0.1/v1/AUTH_x" },
          { interface: "public", region_id: "R2", url: "https://r2/v1/AUTH_x" },
          { interface: "public", region_id: "R1", url: "https://r1/v1/AUTH_x/" },
        ],
      },
    ];
    expect(objectStoreUrl(catalog, "R1")).toBe("https://r1/v1/AUTH_x");
    expect(objectStoreUrl(catalog, "R3")).toBeUndefined();
    expect(objectStoreUrl(undefined, "R1")).toBeUndefined();
  });
});

describe("catalogue", () => {
  it("gives every store operation CloudConvert's parameter names (the catalogue's options come from these schemas), run by the platform engine", () => {
    const expected: Record<string, string[]> = {
      "import/s3": [
        "bucket",
        "region",
        "endpoint",
        "key",
        "key_prefix",
        "access_key_id",
        "secret_access_key",
        "session_token",
      ],
      "export/s3": [
        "acl",
        "cache_control",
        "content_disposition",
        "content_type",
        "metadata",
        "server_side_encryption",
        "tagging",
      ],
      "import/azure/blob": ["storage_account", "storage_access_key", "sas_token", "container", "blob", "blob_prefix"],
      "export/azure/blob": ["storage_account", "container", "blob", "blob_prefix", "metadata"],
      "import/google-cloud-storage": ["project_id", "bucket", "client_email", "private_key", "file", "file_prefix"],
      "export/google-cloud-storage": ["project_id", "bucket", "client_email", "private_key", "file", "file_prefix"],
      "import/openstack": [
        "auth_url",
        "username",
        "password",
        "region",
        "container",
        "file",
        "file_prefix",
        "tenant_name",
      ],
      "export/openstack": ["auth_url", "username", "password", "region", "container", "file", "file_prefix"],
    };
    for (const [op, names] of Object.entries(expected)) {
      const [h] = handlersOf(op) ?? [];
      expect(h, op).toBeDefined();
      expect(h.kind).toBe("platform");
      expect(Object.keys((z.toJSONSchema(h.params, { io: "input" }) as { properties: object }).properties), op).toEqual(
        expect.arrayContaining(names),
      );
      expect(
        enginesFor({ kind: "platform", operation: op }).map((e) => e.name),
        op,
      ).toEqual(["cloudflare"]);
    }
  });
});

describe("what the HTTP stores share (stores/http.ts)", () => {
  it("listPages follows the next-page tokens, leaves out folder markers and empty names, and stops once past max", async () => {
    const pages: Record<string, { objects: { path: string; size: number }[]; next?: string }> = {
      "": {
        objects: [
          { path: "a/", size: 0 },
          { path: "a/1", size: 1 },
          { path: "", size: 0 },
        ],
        next: "t2",
      },
      t2: { objects: [{ path: "a/2", size: 2 }], next: "t3" },
      t3: {
        objects: [
          { path: "a/3", size: 3 },
          { path: "a/4", size: 4 },
        ],
      },
    };
    const asked: string[] = [];
    const page = async (token: string) => (asked.push(token), pages[token]!);
    expect(await listPages(10, page)).toEqual([
      { path: "a/1", size: 1 },
      { path: "a/2", size: 2 },
      { path: "a/3", size: 3 },
      { path: "a/4", size: 4 },
    ]);
    expect(asked).toEqual(["", "t2", "t3"]);
    asked.length = 0;
    // max 1: the first page's one object is not more than max, the second's makes two, so no third page is asked
    expect((await listPages(1, page)).map((o) => o.path)).toEqual(["a/1", "a/2"]);
    expect(asked).toEqual(["", "t2"]);
  });

  it("downloadOf answers the body with its Content-Length, and DOWNLOAD_FAILED without one", async () => {
    const ok = downloadOf(
      new Response("abc", { headers: { "content-length": "3", "content-type": "text/plain" } }),
      "S3",
      "object k",
    );
    expect(ok.length).toBe(3);
    expect(ok.contentType).toBe("text/plain");
    expect(await new Response(ok.stream).text()).toBe("abc");
    let err: unknown;
    try {
      downloadOf(new Response("abc"), "S3", "object k");
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: "DOWNLOAD_FAILED" });
    expect(String((err as Error).message)).toContain("object k");
  });
});
