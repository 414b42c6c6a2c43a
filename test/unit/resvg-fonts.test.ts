/**
 * How the SVG renderer reads font families (src/engines/resvg/fonts.ts, issue 33): resvg matches a
 * family by name only and ignores its generic-family options, so generics become the shipped face
 * fontconfig would pick on Debian (fc-match sans-serif → DejaVu Sans, serif → DejaVu Serif, monospace
 * → DejaVu Sans Mono), and a list of unknown families gets the face fontconfig substitutes by name.
 */
import { describe, expect, it } from "vitest";
import { addGenericFamilies, genericFor, hasText, withGeneric } from "../../src/engines/resvg/fonts";

describe("font families for resvg", () => {
  it("replaces generics in place and leaves lists naming a shipped face alone", () => {
    expect(withGeneric("sans-serif")).toBe("DejaVu Sans");
    expect(withGeneric("'Helvetica Neue', serif")).toBe("'Helvetica Neue', DejaVu Serif");
    expect(withGeneric("monospace")).toBe("DejaVu Sans Mono");
    expect(withGeneric("'DejaVu Sans', sans-serif")).toBe("'DejaVu Sans', sans-serif");
    expect(withGeneric("Noto Naskh Arabic")).toBe("Noto Naskh Arabic");
  });

  it("appends fontconfig's substitute to unknown families", () => {
    expect(withGeneric("Bitstream Vera Serif")).toBe("Bitstream Vera Serif, DejaVu Serif");
    expect(withGeneric("Times New Roman")).toBe("Times New Roman, DejaVu Serif");
    expect(withGeneric("'Courier New'")).toBe("'Courier New', DejaVu Sans Mono");
    expect(withGeneric("Arial")).toBe("Arial, DejaVu Sans");
    expect(genericFor("Sazanami Gothic")).toBe("sans-serif");
  });

  it("rewrites attributes, style declarations and CSS rules, nothing else", () => {
    const svg = `<svg><style>text{font-family:Georgia}</style><text font-family="sans-serif" style="font-size:9px;font-family:'Bitstream Vera Sans';fill:red">font-family</text></svg>`;
    expect(addGenericFamilies(svg)).toBe(
      `<svg><style>text{font-family:Georgia, DejaVu Serif}</style><text font-family="DejaVu Sans" style="font-size:9px;font-family:'Bitstream Vera Sans', DejaVu Sans;fill:red">font-family</text></svg>`,
    );
  });

  it("finds text in any namespace prefix", () => {
    expect(hasText(`<svg><svg:text>a</svg:text></svg>`)).toBe(true);
    expect(hasText(`<svg><textPath/></svg>`)).toBe(false);
    expect(hasText(`<svg><rect/></svg>`)).toBe(false);
  });
});
