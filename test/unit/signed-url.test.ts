/**
 * Signed URLs (issue 18, contract §1.7): URLs written by the official SDK's own
 * `signedUrls.sign` verify and decode, including job text whose base64 has several `+` and `/`
 * (the SDK replaces only the first of each); any change to the signed text is refused.
 */
import CloudConvert from "cloudconvert";
import { describe, expect, it } from "vitest";
import { decodeLenientBase64, verifySignedUrl } from "../../src/security/signed-url";
import type { JobBody } from "../support/sdk";

const cc = new CloudConvert("unused");
const BASE = "http://127.0.0.1:8787/s/0b4f4ae1-7c52-4b6f-9a43-6f0e0c8e2b11";
// "?>?>?>" and "~~~" encode to several '+' and '/' in standard base64
const job: JobBody = {
  tasks: {
    a: { operation: "import/url", url: "https://example.com/?q=>>>???~~~" },
    b: { operation: "export/url", input: "a" },
  },
  tag: "ÿÿÿ",
};

describe("signed URLs", () => {
  it("a URL signed by the SDK verifies and gives back the job, with and without cache_key", async () => {
    const url = cc.signedUrls.sign(BASE, "secret-1", job, undefined as never);
    const raw = Buffer.from(JSON.stringify(job)).toString("base64");
    expect((raw.match(/[+/]/g) ?? []).length).toBeGreaterThan(2); // the SDK's half-replaced text is exercised
    expect(await verifySignedUrl(url, "secret-1")).toEqual({ job });
    const keyed = cc.signedUrls.sign(BASE, "secret-1", job, "my-key_1");
    expect(await verifySignedUrl(keyed, "secret-1")).toEqual({ job, cacheKey: "my-key_1" });
  });

  it("refuses a wrong secret, a changed job, a changed cache_key and a missing signature", async () => {
    const url = cc.signedUrls.sign(BASE, "secret-1", job, "k1");
    expect(await verifySignedUrl(url, "secret-2")).toMatchObject({ status: 403 });
    const tampered = url.replace(/job=(.)/, (_m, ch: string) => `job=${ch === "e" ? "f" : "e"}`);
    expect(await verifySignedUrl(tampered, "secret-1")).toMatchObject({ status: 403 });
    expect(await verifySignedUrl(url.replace("cache_key=k1", "cache_key=k2"), "secret-1")).toMatchObject({
      status: 403,
    });
    expect(await verifySignedUrl(url.replace(/&s=.*$/, ""), "secret-1")).toMatchObject({ status: 400 });
  });

  it("decodes base64 and base64url, padded or not; refuses what is not base64", () => {
    const bytes = new Uint8Array([251, 255, 191, 0, 1]);
    const std = Buffer.from(bytes).toString("base64");
    expect(decodeLenientBase64(std)).toEqual(bytes);
    expect(decodeLenientBase64(Buffer.from(bytes).toString("base64url"))).toEqual(bytes);
    expect(decodeLenientBase64(std.replace(/=+$/, ""))).toEqual(bytes);
    expect(decodeLenientBase64("abc$")).toBeNull();
    expect(decodeLenientBase64("a")).toBeNull();
  });
});
