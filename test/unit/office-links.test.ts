/**
 * The link cutter LibreOffice's inputs pass through (container/office/links.ts; its effect on real conversions is
 * test/native/office-links.test.ts): what it empties and what it keeps, and that a zip it edits is still the same
 * zip to Info-ZIP (`unzip -t`, member names, every other member's bytes).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync, zipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import {
  LinksUnchecked,
  cutExternalLinks,
  cutExternalLinksInFile,
  cutHtmlLinks,
  cutOdfLinks,
  cutOoxmlLinks,
  cutRtfLinks,
  isOutside,
} from "../../container/office/links";

const enc = new TextEncoder();

describe("what is outside a document", () => {
  it("schemes, absolute and drive paths, steps out of the package and unreadable references; not package paths", () => {
    for (const v of [
      "file:///etc/passwd",
      "FILE:x",
      "http://h/x",
      "/etc/passwd",
      "\\\\host\\share",
      "C:\\x.png",
      "../x.png",
      "Pictures/../../x",
      "vnd.sun.star.expand:$X",
      null,
    ])
      expect(isOutside(v), String(v)).toBe(true);
    for (const v of [
      "Pictures/1.png",
      "./Object 1",
      "#Slide 2",
      "vnd.sun.star.Package:Pictures/a.png",
      "ObjectReplacements/Object 1",
    ])
      expect(isOutside(v), v).toBe(false);
  });
});

describe("cutOdfLinks", () => {
  it("empties outside links of pictures, sections and objects, under any XLink prefix; keeps hyperlinks and inside links", () => {
    const xml =
      '<r xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:q="http://www.w3.org/1999/xlink" xmlns:z="urn:other">' +
      '<draw:image xlink:href="file:///etc/x.png"/><draw:image q:href="/etc/y.png"/><draw:image xlink:href="Pictures/1.png"/>' +
      '<text:section-source xlink:href="../secret.odt"/><draw:image a="x>y" xlink:href="&#102;ile:z"/>' +
      '<draw:image xlink:href="&ent;"/><draw:image z:href="file:///kept-other-namespace"/>' +
      '<text:a xlink:href="file:///kept-hyperlink">t</text:a><draw:a xlink:href="http://kept">d</draw:a></r>';
    const { text, cut } = cutOdfLinks(xml);
    expect(cut).toBe(5);
    expect(text).toContain('xlink:href="Pictures/1.png"');
    expect(text).toContain('text:a xlink:href="file:///kept-hyperlink"');
    expect(text).toContain('draw:a xlink:href="http://kept"');
    expect(text).toContain('z:href="file:///kept-other-namespace"');
    expect(text).not.toMatch(/etc|secret|&#102;|&ent;/);
  });
});

describe("cutOoxmlLinks, cutHtmlLinks, cutRtfLinks", () => {
  it("OOXML: external targets that are not hyperlinks are emptied; hyperlinks and package parts kept", () => {
    const rels =
      '<Relationships><Relationship Id="a" Type="http://x/relationships/image" Target="file:///p.png" TargetMode="External"/>' +
      '<Relationship Id="b" Type="http://x/relationships/attachedTemplate" Target="http://h/t.dotm" TargetMode="External"/>' +
      '<Relationship Id="c" Type="http://x/relationships/hyperlink" Target="https://example.com" TargetMode="External"/>' +
      '<Relationship Id="d" Type="http://x/relationships/image" Target="media/image1.png"/></Relationships>';
    const { text, cut } = cutOoxmlLinks(rels);
    expect(cut).toBe(2);
    expect(text).toContain('Target="https://example.com"');
    expect(text).toContain('Target="media/image1.png"');
    expect(text).not.toMatch(/p\.png|t\.dotm/);
  });

  it("HTML: local sources emptied, links and web sources kept", () => {
    const { text, cut } = cutHtmlLinks(
      '<body background="file:///b.png"><img src="file:///a.png"><img src=\'/etc/x.png\'><img src="https://w/x.png"><a href="/page">p</a></body>',
    );
    expect(cut).toBe(3);
    expect(text).toContain('src="https://w/x.png"');
    expect(text).toContain('href="/page"');
  });

  it("RTF: the paths of including fields emptied, the text kept", () => {
    const { text, cut } = cutRtfLinks(
      '{\\rtf1 words LINK here{\\field{\\*\\fldinst{INCLUDEPICTURE "/p.png" \\\\d}}}{\\fldinst INCLUDETEXT C:\\\\t.txt}}',
    );
    expect(cut).toBe(2);
    expect(text).toContain("words LINK here");
    expect(text).not.toMatch(/p\.png|t\.txt/);
  });
});

describe("cutExternalLinks on a zip", () => {
  it("edits content.xml only; Info-ZIP tests the result, and every other member keeps its bytes", async () => {
    const picture = new Uint8Array(5000).map((_, i) => (i * 7) % 251);
    const zip = zipSync({
      mimetype: [enc.encode("application/vnd.oasis.opendocument.graphics"), { level: 0 }],
      "content.xml": enc.encode(
        '<r xmlns:xlink="http://www.w3.org/1999/xlink"><draw:image xlink:href="/etc/x.png"/>é</r>',
      ),
      "Pictures/1.bin": picture,
      "META-INF/manifest.xml": enc.encode("<m/>"),
    });
    const r = await cutExternalLinks("d.odg", zip);
    expect(r.cut).toBe(1);
    const dir = mkdtempSync(join(tmpdir(), "links-"));
    writeFileSync(join(dir, "d.zip"), r.data!);
    expect(execFileSync("unzip", ["-t", join(dir, "d.zip")], { encoding: "utf8" })).toMatch(/No errors detected/);
    const members = unzipSync(r.data!);
    expect(Object.keys(members)).toEqual(["mimetype", "content.xml", "Pictures/1.bin", "META-INF/manifest.xml"]);
    expect(members["Pictures/1.bin"]).toEqual(picture);
    expect(new TextDecoder().decode(members["content.xml"])).toBe(
      '<r xmlns:xlink="http://www.w3.org/1999/xlink"><draw:image xlink:href=""/>é</r>',
    );
    expect((await cutExternalLinks("plain.odg", unzipSync(zip)["Pictures/1.bin"]!)).data).toBeNull();
  });
});

describe("cutExternalLinksInFile (issue 49: a document on disk, never read whole)", () => {
  const dir = mkdtempSync(join(tmpdir(), "links-file-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** A docx-like zip by Python's zipfile: an external picture relationship, and `mb` MiB of random bytes stored. */
  function zipOnDisk(name: string, mb: number, opts: { external?: boolean; zip64?: boolean } = {}): string {
    const path = join(dir, name);
    const rel = opts.external
      ? '<Relationship Id="rIdL" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="file:///etc/x.png" TargetMode="External"/>'
      : "";
    execFileSync("python3", [
      "-c",
      "import sys,os,zipfile\n" +
        // zip64 (sizes at their 0xFFFFFFFF marker, the real ones in the extra field) for members over 1 KiB
        "if sys.argv[4]=='1': zipfile.ZIP64_LIMIT=1024\n" +
        "z=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED)\n" +
        "z.writestr('word/_rels/document.xml.rels','<Relationships>'+sys.argv[3]+'</Relationships>')\n" +
        "with z.open(zipfile.ZipInfo('word/media/noise.bin'),'w',force_zip64=True) as f: f.write(os.urandom(int(sys.argv[2])*1048576))\n" +
        "z.writestr('word/document.xml','<w:document>words</w:document>')\n" +
        "z.close()",
      path,
      String(mb),
      rel,
      opts.zip64 ? "1" : "0",
    ]);
    return path;
  }
  /** Member name → bytes, by Python's zipfile (which checks each CRC as it reads). */
  const members = (path: string): Record<string, Buffer> =>
    Object.fromEntries(
      Object.entries(
        JSON.parse(
          execFileSync(
            "python3",
            [
              "-c",
              "import sys,zipfile,json,base64;z=zipfile.ZipFile(sys.argv[1]);print(json.dumps({n:base64.b64encode(z.read(n)).decode() for n in z.namelist()}))",
              path,
            ],
            { encoding: "utf8", maxBuffer: 64 << 20 },
          ),
        ) as Record<string, string>,
      ).map(([k, v]) => [k, Buffer.from(v, "base64")]),
    );

  it("a zip with an external link: the copy has it emptied, Info-ZIP tests it, and the 5 MiB member (five copy chunks) is unchanged", async () => {
    const src = zipOnDisk("linked.docx", 5, { external: true });
    const out = join(dir, "linked-cut.docx");
    expect(await cutExternalLinksInFile(src, out)).toBe(1);
    expect(execFileSync("unzip", ["-t", out], { encoding: "utf8" })).toMatch(/No errors detected/);
    const [a, b] = [members(src), members(out)];
    expect(Object.keys(b)).toEqual(Object.keys(a));
    expect(b["word/media/noise.bin"]!.equals(a["word/media/noise.bin"]!)).toBe(true);
    expect(b["word/document.xml"]!.toString()).toBe("<w:document>words</w:document>");
    expect(b["word/_rels/document.xml.rels"]!.toString()).toContain('Target="" TargetMode="External"');
    expect(b["word/_rels/document.xml.rels"]!.toString()).not.toContain("/etc/x.png");
  });

  it("a zip with nothing to cut: 0, and no copy is written", async () => {
    const src = zipOnDisk("plain.docx", 1);
    const out = join(dir, "plain-cut.docx");
    expect(await cutExternalLinksInFile(src, out)).toBe(0);
    expect(existsSync(out)).toBe(false);
  });

  it("a zip whose directory is cut off, and a zip64 member: refused (OPEN_FAILED), not opened with links unchecked", async () => {
    const cut = zipOnDisk("cut.docx", 1, { external: true });
    truncateSync(cut, statSync(cut).size - 30);
    const wide = zipOnDisk("wide.docx", 1, { external: true, zip64: true });
    for (const path of [cut, wide]) {
      const err = await cutExternalLinksInFile(path, `${path}.out`).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LinksUnchecked);
      expect((err as LinksUnchecked).code).toBe("OPEN_FAILED");
      expect((err as LinksUnchecked).message).toMatch(path === wide ? /zip64/ : /end-of-central-directory/);
      expect(existsSync(`${path}.out`)).toBe(false);
    }
  });

  it("a text document (RTF) is cut from its file as from its bytes", async () => {
    const rtf = '{\\rtf1 words{\\field{\\*\\fldinst{INCLUDEPICTURE "/etc/x.png"}}{\\fldrslt{}}}}';
    const path = join(dir, "fields.rtf");
    writeFileSync(path, rtf);
    expect(await cutExternalLinksInFile(path, join(dir, "fields-cut.rtf"))).toBe(1);
    const fromBytes = await cutExternalLinks("fields.rtf", enc.encode(rtf));
    expect(readFileSync(join(dir, "fields-cut.rtf"))).toEqual(Buffer.from(fromBytes.data!));
    expect(readFileSync(join(dir, "fields-cut.rtf"), "latin1")).not.toContain("/etc/x.png");
  });
});
