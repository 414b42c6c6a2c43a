/**
 * One watermark parameter schema for images, PDFs (and office documents through PDF) and video
 * (issue 30 "Also"; CloudConvert documents one set, shared/reference/cloudconvert-v2.md): the same
 * names, bounds and spellings through every handler of `watermark`, judged by the validator the
 * API uses at job creation.
 */
import { describe, expect, it } from "vitest";
import { handlersOf } from "../../src/operations/registry";
import { validateTaskParams } from "../../src/operations/validate";
import { normalizeColor, watermarkParams } from "../../src/operations/watermark-params";

const handlers = handlersOf("watermark")!;
/** One handler per input family: an image, a PDF, a video. */
const TARGETS = [
  ["png", "image"],
  ["pdf", "pdf"],
  ["mp4", "media"],
] as const;
const judge = (input_format: string, p: Record<string, unknown>) =>
  validateTaskParams(handlers, { input_format, ...p });

describe("the watermark schema", () => {
  it("every handler of watermark takes the shared schema's keys (PDFs add pages and password)", () => {
    const shared = Object.keys(watermarkParams.shape).sort();
    expect(new Set(handlers.map((h) => h.kind))).toEqual(new Set(["image", "pdf", "media", "office"]));
    for (const h of handlers) {
      const keys = Object.keys((h.params as unknown as { shape: Record<string, unknown> }).shape);
      expect(keys.filter((k) => !["pages", "password"].includes(k)).sort(), `${h.kind}`).toEqual(shared);
    }
  });

  for (const [fmt, kind] of TARGETS) {
    it(`${kind} (${fmt}): the same bounds and spellings`, () => {
      expect(judge(fmt, { text: "x".repeat(2000), font_color: "f00", font_size: "40" })).toMatchObject({
        params: { font_color: "#FF0000", font_size: 40 },
      });
      expect(judge(fmt, { text: "x", font_color: "#12345678" })).toMatchObject({ params: { font_color: "#12345678" } });
      expect(judge(fmt, { text: "x", rotation: 30, font_name: "Some Font" })).toMatchObject({
        params: { rotation: 30, font_name: "Some Font" },
      });
      expect(judge(fmt, { text: "x".repeat(2001) })).toMatchObject({ errors: [expect.stringMatching(/^text: /)] });
      expect(judge(fmt, { text: "x", font_color: "red" })).toMatchObject({
        errors: [expect.stringMatching(/^font_color: must be a colour/)],
      });
      expect(judge(fmt, { text: "x", opacity: 101 })).toMatchObject({ errors: [expect.stringMatching(/^opacity: /)] });
      expect(judge(fmt, {})).toMatchObject({ errors: [expect.stringMatching(/^text or image is required/)] });
      expect(judge(fmt, { text: "x", image: "logo" })).toMatchObject({ errors: [expect.stringMatching(/not both/)] });
    });
  }

  it("normalizes colours to #RRGGBB or #RRGGBBAA", () => {
    expect(["f00", "#F00", "ff0000", "#ff0000"].map(normalizeColor)).toEqual(Array(4).fill("#FF0000"));
    expect(normalizeColor("11223344")).toBe("#11223344");
  });
});
