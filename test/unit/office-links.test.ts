/**
 * The link cutter LibreOffice's inputs pass through (container/office/links.ts; its effect on real conversions is
 * test/native/office-links.test.ts): what it empties and what it keeps, and that a zip it edits is still the same
 * zip to Info-ZIP (`unzip -t`, member names, every other member's bytes).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  cutExternalLinks,
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
