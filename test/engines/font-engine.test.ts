/**
 * The JavaScript font engine (row "fonteditor", issue 47): what its row claims, and hostile fonts —
 * truncated, absurd table sizes, too many glyphs, a WOFF zlib bomb, a lying or MTX-compressed EOT —
 * ending with a task error code, never a crash, a RangeError or an unbounded allocation. Judged by the
 * task's error code, and a control WOFF built here from DejaVu's tables read back by fontTools. Every
 * corpus font to every output is test/engines-heavy/font-corpus.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute } from "../../src/runner/execute";
import type { FontEngine } from "../../src/engines/kinds/font";
import { ENGINES, type EngineInstances } from "../../src/engines/registry";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath } from "../support/corpus";
import { fontFacts } from "../support/font-oracles";
import { bytesInput, dataOf, expectTaskError, testContext } from "../support/pdf-helpers";

const FONTS = {
  woff: "fonts/comicneue-ComicNeue-Regular.woff",
  ttf: "fonts/dejavu-DejaVuSansMono.ttf",
  eot: "fonts/fontawesome-webfont.eot",
};
const ROW = ENGINES.find((e) => e.name === "fonteditor")!;
const claims = (input: string) => (ROW.offers.formats ?? []).filter((f) => f.input === input).map((f) => f.output);
const ctx = () => testContext({ engines: nodeEngines(["fonteditor"]) });
const read = (rel: string) => new Uint8Array(readFileSync(corpusPath(rel)));

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "font-engine-"));
});
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the row", () => {
  it("the row claims ttf, woff, eot and svg from every input it reads, otf from otf and woff, and no WOFF2", () => {
    expect(ROW.placement).toBe("in-worker");
    for (const input of ["ttf", "otf", "woff", "eot"])
      expect(claims(input)).toEqual(expect.arrayContaining(["ttf", "woff", "eot", "svg"]));
    expect(claims("otf")).toContain("otf");
    expect(claims("woff")).toContain("otf");
    expect(claims("ttf")).not.toContain("otf");
    expect(
      (ROW.offers.formats ?? []).some((f) => f.input === "woff2" || f.output === "woff2" || f.input === "svg"),
    ).toBe(false);
  });
});

/** The compressed stream if it is smaller, else the table itself (WOFF §5: a table that does not shrink is stored). */
const smaller = (comp: Uint8Array, data: Uint8Array) => (comp.byteLength < data.byteLength ? comp : data);

/** A WOFF 1.0 of `sfnt`'s tables (each zlib-compressed), with `swap` replacing one table's compressed stream. */
function woffOf(sfnt: Uint8Array, swap?: { tag: string; stream: Uint8Array }): Uint8Array {
  const v = new DataView(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
  const num = v.getUint16(4);
  const tables = Array.from({ length: num }, (_, i) => {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(...sfnt.subarray(at, at + 4));
    const data = sfnt.subarray(v.getUint32(at + 8), v.getUint32(at + 8) + v.getUint32(at + 12));
    return {
      tag,
      checksum: v.getUint32(at + 4),
      orig: data.byteLength,
      comp: tag === swap?.tag ? swap.stream : smaller(new Uint8Array(deflateSync(data)), data),
    };
  });
  let size = 44 + 20 * num;
  const offsets = tables.map((t) => {
    const o = size;
    size += Math.ceil(t.comp.byteLength / 4) * 4;
    return o;
  });
  const out = new Uint8Array(size);
  const w = new DataView(out.buffer);
  out.set([0x77, 0x4f, 0x46, 0x46]);
  out.set(sfnt.subarray(0, 4), 4);
  w.setUint32(8, size);
  w.setUint16(12, num);
  w.setUint32(16, sfnt.byteLength);
  tables.forEach((t, i) => {
    const at = 44 + 20 * i;
    out.set(
      [...t.tag].map((ch) => ch.charCodeAt(0)),
      at,
    );
    w.setUint32(at + 4, offsets[i]!);
    w.setUint32(at + 8, t.comp.byteLength);
    w.setUint32(at + 12, t.orig);
    w.setUint32(at + 16, t.checksum);
    out.set(t.comp, offsets[i]!);
  });
  return out;
}

/** `data` copied with the table directory entry of `tag` given `length` (and, when set, `offset`). */
function withTable(data: Uint8Array, tag: string, length: number): Uint8Array {
  const out = data.slice();
  const v = new DataView(out.buffer);
  for (let i = 0; i < v.getUint16(4); i++) {
    const at = 12 + 16 * i;
    if (String.fromCharCode(...out.subarray(at, at + 4)) === tag) v.setUint32(at + 12, length);
  }
  return out;
}

describe("hostile fonts end with a task error code, never a crash", () => {
  const dejavu = () => read(FONTS.ttf);
  const cases: [string, string, () => Uint8Array, string][] = [
    ["random bytes named .ttf", "ttf", () => new Uint8Array(4096).map((_, i) => (i * 7919) % 251), "OPEN_FAILED"],
    ["a TrueType file cut to its first 600 bytes", "ttf", () => dejavu().subarray(0, 600), "OPEN_FAILED"],
    ["a TrueType file cut in the middle of its glyphs", "ttf", () => dejavu().subarray(0, 200_000), "OPEN_FAILED"],
    ["a 'glyf' table stated as 2 GB long", "ttf", () => withTable(dejavu(), "glyf", 0x7fff_ffff), "OPEN_FAILED"],
    [
      "a 'maxp' stating 65,535 glyphs",
      "ttf",
      () => {
        const d = dejavu().slice();
        const v = new DataView(d.buffer);
        for (let i = 0; i < v.getUint16(4); i++)
          if (String.fromCharCode(...d.subarray(12 + 16 * i, 16 + 16 * i)) === "maxp")
            v.setUint16(v.getUint32(12 + 16 * i + 8) + 4, 65535);
        return d;
      },
      "OVER_BUDGET",
    ],
    ["a WOFF cut to 200 bytes", "woff", () => read(FONTS.woff).subarray(0, 200), "OPEN_FAILED"],
    [
      "a WOFF whose tables state 4 GB inflated",
      "woff",
      () => {
        const d = read(FONTS.woff).slice();
        const v = new DataView(d.buffer);
        v.setUint32(16, 0xffff_fff0);
        v.setUint32(44 + 12, 0xffff_fff0);
        return d;
      },
      "OVER_BUDGET",
    ],
    [
      "a WOFF whose 'glyf' stream is a zlib bomb (24 MB of zeros behind a small stated size)",
      "woff",
      () => woffOf(dejavu(), { tag: "glyf", stream: new Uint8Array(deflateSync(new Uint8Array(24 << 20))) }),
      "OVER_BUDGET",
    ],
    ["an EOT cut to 5,000 bytes", "eot", () => read(FONTS.eot).subarray(0, 5000), "OPEN_FAILED"],
    [
      "an EOT stating 2 GB of font data",
      "eot",
      () => {
        const d = read(FONTS.eot).slice();
        new DataView(d.buffer).setUint32(4, 0x7fff_ffff, true);
        return d;
      },
      "OVER_BUDGET",
    ],
    [
      "an EOT flagged MicroType Express compressed",
      "eot",
      () => {
        const d = read(FONTS.eot).slice();
        const v = new DataView(d.buffer);
        v.setUint32(12, v.getUint32(12, true) | 0x4, true);
        return d;
      },
      "UNSUPPORTED",
    ],
  ];
  for (const [what, ext, make, code] of cases) {
    it(`${what}: ${code}`, async () => {
      for (const format of what.includes("bomb") ? ["ttf"] : ["ttf", "woff", "svg"]) {
        const e = await expectTaskError(
          () => execute("convert", { output_format: format }, [bytesInput(`bad.${ext}`, make())], ctx()),
          code as "OPEN_FAILED",
        );
        expect(e.message).toContain("bad.");
      }
    });
  }

  it("a WOFF built here from DejaVu's tables (the bomb's control) converts", async () => {
    const r = await execute("convert", { output_format: "ttf" }, [bytesInput("ok.woff", woffOf(dejavu()))], ctx());
    const path = join(scratch, "control.ttf");
    writeFileSync(path, dataOf(r.out.files[0]!));
    const [got] = fontFacts([path]);
    expect(got!.glyphs).toBe(3377);
  });
});

describe("what the row cannot do goes on to fontTools (routing.ts HAND_OFF_CODES)", () => {
  // a stand-in for the native row that records what reached it (the native engine is test/native's)
  const reached: string[] = [];
  const fonttools: FontEngine = {
    async convert(req) {
      reached.push(`${req.input.filename}>${req.format}`);
      return { ok: true, data: new Uint8Array([1, 2, 3]), engineVersion: "stand-in" };
    },
  };
  const both = () => testContext({ engines: { ...nodeEngines(["fonteditor"]), fonttools } as EngineInstances });

  it("a TrueType WOFF → otf (no CFF to keep) and an MTX-compressed EOT are fontTools'; a CFF WOFF → otf stays here", async () => {
    const ttfWoff = woffOf(read(FONTS.ttf));
    const mtx = read(FONTS.eot).slice();
    const v = new DataView(mtx.buffer);
    v.setUint32(12, v.getUint32(12, true) | 0x4, true);
    const a = await execute("convert", { output_format: "otf" }, [bytesInput("tt.woff", ttfWoff)], both());
    const b = await execute("convert", { output_format: "ttf" }, [bytesInput("mtx.eot", mtx)], both());
    const c = await execute("convert", { output_format: "otf" }, [bytesInput("cff.woff", read(FONTS.woff))], both());
    expect([a.engine.name, b.engine.name, c.engine.name]).toEqual(["fonttools", "fonttools", "fonteditor"]);
    expect(reached).toEqual(["tt.woff>otf", "mtx.eot>ttf"]);
    // the CFF WOFF's otf is its sfnt: 'OTTO' with CFF outlines, read back by fontTools
    const path = join(scratch, "cff.otf");
    writeFileSync(path, dataOf(c.out.files[0]!));
    expect(fontFacts([path])[0]).toMatchObject({ flavour: "cff", glyphs: 328, family: "Comic Neue" });
  });
});
