/** SSRF guard, file names and signatures (issue 2). */
import { afterEach, describe, expect, it, vi } from "vitest";
import { TaskError } from "../../src/engines/errors";
import { filenameFromDisposition, safeFilename } from "../../src/operations/io/filenames";
import { importUrl } from "../../src/operations/io/import-url";
import { checkFileGrant, hmacHex, signFileUrl } from "../../src/security/signing";
import { refuseUrl } from "../../src/security/ssrf";
import { testContext } from "../support/context";

describe("refuseUrl", () => {
  const refused = [
    "http://127.0.0.1/",
    "http://0177.0.0.1/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://localhost:8080/",
    "http://a.localhost/",
    "http://10.1.2.3/",
    "http://192.168.0.1/",
    "http://172.16.5.4/",
    "http://100.64.0.1/",
    "http://169.254.169.254/",
    "http://0.0.0.0/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[fe80::1]/",
    "http://[fd00::1]/",
    "http://[64:ff9b::a00:1]/",
    "http://metadata.google.internal/",
    "http://intranet/",
    "ftp://example.com/a",
    "file:///etc/passwd",
    "gopher://x.org/",
    "not a url",
  ];
  for (const u of refused) it(`refuses ${u}`, () => expect(refuseUrl(u, false)).not.toBeNull());
  it("allows public addresses and names", () => {
    expect(refuseUrl("https://example.com/a.png", false)).toBeNull();
    expect(refuseUrl("http://93.184.216.34/a", false)).toBeNull();
  });
  it("allows only loopback when private imports are allowed", () => {
    expect(refuseUrl("http://127.0.0.1:3000/a", true)).toBeNull();
    expect(refuseUrl("http://localhost:3000/a", true)).toBeNull();
    expect(refuseUrl("http://10.0.0.1/a", true)).not.toBeNull();
    expect(refuseUrl("http://169.254.169.254/a", true)).not.toBeNull();
  });
});

describe("file names", () => {
  it("strips directories, traversal and control characters", () => {
    expect(safeFilename("../../etc/passwd")).toBe("passwd");
    expect(safeFilename("C:\\Windows\\evil.exe")).toBe("evil.exe");
    expect(safeFilename("a\u0000b.txt")).toBe("ab.txt");
    expect(safeFilename("..")).toBe("file");
    expect(safeFilename("Special_Chars_ß.docx")).toBe("Special_Chars_ß.docx");
  });
  it("reads Content-Disposition, preferring filename*", () => {
    expect(filenameFromDisposition(`attachment; filename="a b.pdf"`)).toBe("a b.pdf");
    expect(filenameFromDisposition(`attachment; filename="x.pdf"; filename*=UTF-8''%C3%9F.pdf`)).toBe("ß.pdf");
    expect(filenameFromDisposition(`inline; filename=plain.txt`)).toBe("plain.txt");
  });
});

describe("signatures", () => {
  it("matches the CloudConvert webhook signature (hex HMAC-SHA256 of the raw body)", async () => {
    // Oracle: Node's own crypto, independent of the WebCrypto code under test.
    const { createHmac } = await import("node:crypto");
    expect(await hmacHex("secret", '{"event":"job.finished"}')).toBe(
      createHmac("sha256", "secret").update('{"event":"job.finished"}').digest("hex"),
    );
  });
  it("refuses tampered and expired file grants", async () => {
    const g = { key: "jobs/j/t/0/a.png", expires: 2_000_000_000, inline: false };
    const url = new URL(await signFileUrl("http://x", "s", g));
    const sig = url.searchParams.get("signature")!;
    expect(await checkFileGrant("s", g, sig, 1_000)).toBeNull();
    expect(await checkFileGrant("s", { ...g, key: "jobs/other/t/0/a.png" }, sig, 1_000)).toContain("invalid");
    expect(await checkFileGrant("s", { ...g, inline: true }, sig, 1_000)).toContain("invalid");
    expect(await checkFileGrant("s", g, sig, 2_000_000_001)).toContain("expired");
  });
});

describe("import/url follows redirects by hand, each hop through the SSRF guard", () => {
  /**
   * A fake network that behaves like fetch: with `redirect: "follow"` (fetch's default) it follows
   * Location itself and answers the final response, as a real fetch would; only with
   * `redirect: "manual"` does the caller see the 3xx. So code that forgets `redirect: "manual"`
   * reaches the private address behind the redirect and these tests fail.
   */
  type Route = { status: number; location?: string; body?: string };
  const calls: { url: string; redirect: RequestRedirect }[] = [];
  const reached: string[] = [];
  function network(routes: Record<string, Route>) {
    calls.length = 0;
    reached.length = 0;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      let url = String(input);
      const mode = init?.redirect ?? "follow";
      calls.push({ url, redirect: mode });
      for (let hop = 0; ; hop++) {
        reached.push(url);
        const route = routes[url] ?? { status: 404 };
        const isRedirect = route.status >= 300 && route.status < 400 && route.location !== undefined;
        if (isRedirect && mode === "follow") {
          if (hop >= 20) throw new TypeError("fetch failed: redirect count exceeded");
          url = new URL(route.location!, url).toString();
          continue;
        }
        if (isRedirect && mode === "error") throw new TypeError("fetch failed: unexpected redirect");
        const headers: Record<string, string> = route.location ? { location: route.location } : {};
        return new Response(route.body ?? null, { status: route.status, headers });
      }
    });
  }
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const run = (url: string) => importUrl.run([], { url }, testContext());
  async function taskError(p: Promise<unknown>): Promise<TaskError> {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, "expected a task error").toBeInstanceOf(TaskError);
    return err as TaskError;
  }
  async function text(data: Uint8Array | { stream: ReadableStream<Uint8Array>; length?: number }): Promise<string> {
    return data instanceof Uint8Array ? new TextDecoder().decode(data) : new Response(data.stream).text();
  }

  it("refuses a redirect into a private address without fetching it", async () => {
    network({
      "https://files.example.org/a.png": { status: 302, location: "http://169.254.169.254/latest/meta-data/" },
      "http://169.254.169.254/latest/meta-data/": { status: 200, body: "iam/security-credentials" },
    });
    const err = await taskError(run("https://files.example.org/a.png"));
    expect(err.code).toBe("IMPORT_FORBIDDEN");
    expect(err.message).toContain("Redirect refused");
    expect(reached).toEqual(["https://files.example.org/a.png"]);
  });

  it("follows a public redirect itself, asking fetch for every hop with redirect: manual", async () => {
    network({
      "https://files.example.org/a.png": { status: 302, location: "/b/a.png" },
      "https://files.example.org/b/a.png": { status: 301, location: "https://cdn.example.net/a.png" },
      "https://cdn.example.net/a.png": { status: 200, body: "the file" },
    });
    const { files } = await run("https://files.example.org/a.png");
    expect(await text(files[0].data)).toBe("the file");
    expect(calls).toEqual([
      { url: "https://files.example.org/a.png", redirect: "manual" },
      { url: "https://files.example.org/b/a.png", redirect: "manual" },
      { url: "https://cdn.example.net/a.png", redirect: "manual" },
    ]);
  });

  it("gives up after 5 redirects", async () => {
    const routes: Record<string, Route> = {};
    for (let i = 0; i < 10; i++) routes[`https://files.example.org/${i}`] = { status: 302, location: `/${i + 1}` };
    routes["https://files.example.org/10"] = { status: 200, body: "too far" };
    network(routes);
    const err = await taskError(run("https://files.example.org/0"));
    expect(err.code).toBe("DOWNLOAD_FAILED");
    expect(err.message).toContain("Too many redirects");
    expect(calls).toHaveLength(6);
  });
});
