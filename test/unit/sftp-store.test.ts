/**
 * The SFTP connector's pure parts (issue 35): parameters as CloudConvert's SDKs send them (port as a
 * number or the Java SDK's string), the creation-time checks, paths, the task errors of SFTP status
 * codes (draft-ietf-secsh-filexfer-02 §7), secrets scrubbed out of messages, and the precompiled
 * Poly1305 WASM held to the bytes inside the installed ssh2 (scripts/extract-poly1305.mjs).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { poly1305Bytes } from "../../scripts/extract-poly1305.mjs";
import { hostProblem, hostUrl, parentDirs, scrub, sftp, sftpError, sftpImportParams } from "../../src/stores/sftp";

/** What `check` takes: parsed parameters. The cases leave out `port` (its default), which check does not read. */
type Checked = Parameters<NonNullable<typeof sftp.check>>[0];

describe("SFTP parameters", () => {
  it("port is a number or a numeric string (Java SDK), 1–65535; default 22", () => {
    expect(sftpImportParams.parse({ host: "h", username: "u", port: "2222" }).port).toBe(2222);
    expect(sftpImportParams.parse({ host: "h", username: "u", port: 22 }).port).toBe(22);
    expect(sftpImportParams.parse({ host: "h", username: "u" }).port).toBe(22);
    for (const port of ["http", "", 0, 70000, 22.5, "1e3"])
      expect(sftpImportParams.safeParse({ host: "h", username: "u", port }).success, String(port)).toBe(false);
  });

  it("checks: a bare host, a password or a key, file or path on import", () => {
    expect(
      sftp.check!({ host: "sftp.example.com", username: "u", password: "p", file: "a" } as Checked, "import"),
    ).toEqual([]);
    expect(sftp.check!({ host: "2001:db8::1", username: "u", private_key: "k" } as Checked, "export")).toEqual([]);
    expect(hostProblem("sftp://x/y")).toHaveLength(1);
    expect(hostProblem("user@host")).toHaveLength(1);
    expect(hostProblem("host:22")).toHaveLength(1);
    expect(sftp.check!({ host: "h", username: "u" } as Checked, "import")).toEqual([
      "password: password or private_key is required.",
      "file: file or path is required.",
    ]);
  });

  it("the SSRF guard sees the host as an http URL (IPv6 in brackets)", () => {
    expect(hostUrl("::1", 22)).toBe("http://[::1]:22/");
    expect(hostUrl("127.0.0.1", 2222)).toBe("http://127.0.0.1:2222/");
  });

  it("parent directories an export creates, outermost first", () => {
    expect(parentDirs("a/b/c.pdf")).toEqual(["a", "a/b"]);
    expect(parentDirs("/srv/in/c.pdf")).toEqual(["/srv", "/srv/in"]);
    expect(parentDirs("c.pdf")).toEqual([]);
  });
});

describe("SFTP errors", () => {
  const e = (code: number | string, message = "x") => Object.assign(new Error(message), { code });
  it("status 2 → FILE_NOT_FOUND, 3 → PERMISSION_DENIED, lost connection → retryable, other failures → not", () => {
    expect(sftpError(e(2), "download", "a.png", [])).toMatchObject({ code: "FILE_NOT_FOUND", retryable: false });
    expect(sftpError(e(3), "upload", "a.png", [])).toMatchObject({ code: "PERMISSION_DENIED", retryable: false });
    expect(sftpError(e(7), "upload", "a.png", [])).toMatchObject({ code: "UPLOAD_FAILED", retryable: true });
    expect(sftpError(e("ECONNRESET"), "download", "a", [])).toMatchObject({ code: "DOWNLOAD_FAILED", retryable: true });
    expect(sftpError(e(4), "download", "a", [])).toMatchObject({ code: "DOWNLOAD_FAILED", retryable: false });
  });

  it("never repeats a secret the server's words might echo", () => {
    expect(scrub("bad password hunter22 for u", ["hunter22", undefined])).toBe("bad password ******** for u");
    expect(sftpError(e(4, "echo s3cr3t-pw"), "download", "a", ["s3cr3t-pw"]).message).not.toContain("s3cr3t-pw");
  });
});

describe("the precompiled Poly1305 WASM", () => {
  it("is byte for byte the module inside the installed ssh2 (run scripts/extract-poly1305.mjs after an upgrade)", () => {
    const committed = readFileSync(new URL("../../src/stores/sftp/poly1305.wasm", import.meta.url));
    expect(Buffer.compare(committed, poly1305Bytes())).toBe(0);
    expect(WebAssembly.Module.exports(new WebAssembly.Module(committed)).length).toBeGreaterThan(0);
  });
});
