/** SSRF guard, file names and signatures (issue 2). */
import { describe, expect, it } from "vitest";
import { filenameFromDisposition, safeFilename } from "../../src/operations/io/filenames";
import { checkFileGrant, hmacHex, signFileUrl } from "../../src/security/signing";
import { refuseUrl } from "../../src/security/ssrf";

describe("refuseUrl", () => {
  const refused = [
    "http://127.0.0.1/", "http://0177.0.0.1/", "http://2130706433/", "http://0x7f.1/", "http://localhost:8080/", "http://a.localhost/",
    "http://10.1.2.3/", "http://192.168.0.1/", "http://172.16.5.4/", "http://100.64.0.1/", "http://169.254.169.254/", "http://0.0.0.0/",
    "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:a9fe:a9fe]/", "http://[fe80::1]/", "http://[fd00::1]/", "http://[64:ff9b::a00:1]/",
    "http://metadata.google.internal/", "http://intranet/", "ftp://example.com/a", "file:///etc/passwd", "gopher://x.org/", "not a url",
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
    expect(await hmacHex("secret", '{"event":"job.finished"}')).toBe(createHmac("sha256", "secret").update('{"event":"job.finished"}').digest("hex"));
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
