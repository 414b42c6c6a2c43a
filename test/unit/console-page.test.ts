/**
 * Lint of the console page (src/console/index.html, issue 18; a static file since issue 30; its script TypeScript
 * modules since issue 46): the page has no inline script, handler or style (its CSP allows none) but one module script
 * and one stylesheet of this origin, the script's sources parse (TypeScript's parser; `npm run typecheck` checks their
 * types), every element id the script looks up with $("…") exists in the page, and the page loads nothing from
 * elsewhere (no src/href/url() off this origin, every fetch a relative path of this API).
 */
import { readFileSync, readdirSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const DIR = new URL("../../src/console/", import.meta.url);
const HTML = readFileSync(new URL("index.html", DIR), "utf8");
const CSS = readFileSync(new URL("console.css", DIR), "utf8");
/** The script's modules (src/console/*.ts, not the .d.ts of the page's text module), by file name. */
const SOURCES = Object.fromEntries(
  readdirSync(DIR)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => [f, readFileSync(new URL(f, DIR), "utf8")]),
);
const SCRIPT = Object.values(SOURCES).join("\n");
/** The content-security-policy the api Worker sends with the page (src/api/app.ts). */
const CSP = /"content-security-policy":\s*"([^"]+)"/.exec(readFileSync(new URL("../api/app.ts", DIR), "utf8"))?.[1];

describe("the console page", () => {
  it("has no inline script, handler or style: one module script and one stylesheet, whose sources parse", () => {
    expect([...HTML.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => [m[0].split(">")[0], m[1]])).toEqual([
      ['<script type="module" src="/console/console.js"', ""],
    ]);
    expect(HTML.match(/<link rel="stylesheet"[^>]*>/g)).toEqual([
      '<link rel="stylesheet" href="/console/console.css">',
    ]);
    expect(HTML.match(/<style\b|\sstyle=|\son[a-z]+=/gi) ?? []).toEqual([]);
    expect(SCRIPT).not.toMatch(/setAttribute\(\s*"style"|\bstyle:\s/);
    expect(Object.keys(SOURCES)).toContain("main.ts");
    for (const [name, text] of Object.entries(SOURCES)) {
      const file = ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
      const errors = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map(
        (d) =>
          `${name}:${file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
      );
      expect(errors).toEqual([]);
    }
  });

  it("is served with a CSP that allows no inline script or style", () => {
    expect(CSP).toMatch(/script-src 'self'/);
    expect(CSP).toMatch(/style-src 'self'/);
    expect(CSP).not.toContain("unsafe-inline");
  });

  it("looks up only ids the page has", () => {
    const ids = new Set([...HTML.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    const used = new Set([...SCRIPT.matchAll(/\$(?:<\w+>)?\("([^"]+)"\)/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((id) => !ids.has(id))).toEqual([]);
  });

  it("loads nothing from another origin and fetches only this API's paths", () => {
    expect(HTML.match(/\s(?:src|href)="(?:https?:)?\/\/[^"]*"/g) ?? []).toEqual([]);
    expect(`${HTML}\n${CSS}`.match(/url\((?:["']?)(?:https?:)?\/\//g) ?? []).toEqual([]);
    const fetched = [...SCRIPT.matchAll(/fetch\(\s*("[^"]*"|'[^']*'|`[^`]*`)/g)].map((m) => m[1]!.slice(1));
    expect(fetched.length).toBeGreaterThan(3);
    for (const f of fetched) expect(f, f).toMatch(/^\//);
  });
});
