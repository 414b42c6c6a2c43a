/**
 * guard.ts mayRunScript (issue 37): the browser pool writes a self-contained task's HTML into the page of the last one,
 * with no navigation, only when neither could run a script. Its answer must be yes for every way HTML runs a script
 * without a click — each vector here is checked to run in Chromium by test/e2e/script-vectors.test.ts — and no for
 * static documents (the bench's invoice, corpus HTML without scripts). The table follows the HTML Living Standard's
 * script-running constructs and the usual filter-evasion spellings (case, `/` separators, tabs and newlines before
 * `=`, SVG's namespace).
 */
import { describe, expect, it } from "vitest";
import { mayFetch, mayRunScript } from "../../src/engines/chrome/guard";
import { SCRIPT_VECTORS_RUN, fetchVectors } from "../support/script-vectors";

describe("mayRunScript", () => {
  it.each(SCRIPT_VECTORS_RUN.map((v) => [v.name, v.html]))("says yes: %s", (_name, html) => {
    expect(mayRunScript(html)).toBe(true);
  });

  it.each([
    ["a meta refresh (navigates without a script)", '<meta http-equiv="refresh" content="0; url=/next">'],
    ["a javascript: link (runs on a click)", '<a href="javascript:alert(1)">x</a>'],
    ["an end tag spelled with spaces", "< /script>"],
    ["a frameset", "<frameset><frame src=/x></frameset>"],
    ["a portal", "<portal src=/x></portal>"],
    ["text that mentions an attribute", "<p>the onion=layers rule</p>"],
  ])("says yes (conservatively): %s", (_name, html) => {
    expect(mayRunScript(html)).toBe(true);
  });

  it.each([
    [
      "an invoice with inline CSS and a table",
      "<!doctype html><style>td{padding:4px}</style><table><tr><td>1</td></tr></table>",
    ],
    ["inline SVG without handlers", '<svg width="10" height="10"><rect width="10" height="10" fill="red"/></svg>'],
    [
      "a data: image and a stylesheet link",
      '<link rel="stylesheet" href="s.css"><img src="data:image/png;base64,AAAA">',
    ],
    [
      "links and forms (nothing runs without a click)",
      '<a href="/x">x</a><form action="/y"><button>go</button></form>',
    ],
    ["character references", "<p>&#8364; 12.00 &amp; &lt;script&gt; as text</p>"],
  ])("says no: %s", (_name, html) => {
    expect(mayRunScript(html)).toBe(false);
  });
});

describe("mayFetch", () => {
  it.each(fetchVectors("https://example.com").map((v) => [v.name, v.html]))("says yes: %s", (_name, html) => {
    expect(mayFetch(html)).toBe(true);
  });

  it.each([
    ["a root-relative image", '<img src="/logo.png">'],
    ["an SVG sprite reference", '<svg><use href="#icon"/></svg>'],
    ["data-src (conservatively)", '<img data-src="/x.png">'],
    // issue 45: hints that make Chromium fetch or connect outside the page's interception
    ["a prefetch link", '<link rel="prefetch" href="https://example.com/a">'],
    ["a prerender link", '<link rel="prerender" href="https://example.com/b">'],
    ["a preconnect link", '<link rel="preconnect" href="https://example.com">'],
  ])("says yes: %s", (_name, html) => {
    expect(mayFetch(html)).toBe(true);
  });

  it("speculation rules are a script: never self-contained (issue 45)", () => {
    const rules = '<script type="speculationrules">{"prefetch":[{"source":"list","urls":["/a"]}]}</script>';
    expect(mayRunScript(rules)).toBe(true);
  });

  it.each([
    ["a data: image", '<img src="data:image/png;base64,iVBORw0KGgo=">'],
    [
      "CSS with a data: URL and a fragment reference",
      "<p style=\"background:url('data:image/png;base64,AA');filter:url(#f)\">x</p>",
    ],
    ["links to the web (nothing is fetched without a click)", '<a href="https://example.com/terms">terms</a>'],
    ["an invoice table with inline CSS", "<style>td{border:1px solid #ccc}</style><table><tr><td>1</td></tr></table>"],
  ])("says no: %s", (_name, html) => {
    expect(mayFetch(html)).toBe(false);
  });
});
