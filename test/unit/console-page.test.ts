/**
 * Lint of the console page (src/console/index.html, issue 18; a static file since issue 30): its
 * inline script parses as JavaScript (TypeScript's parser, an independent one), every element id
 * the script looks up with $("…") exists in the page, and the page loads nothing from elsewhere
 * (no src/href/url() off this origin, every fetch a relative path of this API).
 */
import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const HTML = readFileSync(new URL("../../src/console/index.html", import.meta.url), "utf8");
const SCRIPTS = [...HTML.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);

describe("the console page", () => {
  it("has one inline script, which parses without a syntax error", () => {
    expect(SCRIPTS.length).toBe(1);
    const file = ts.createSourceFile("console.js", SCRIPTS[0]!, ts.ScriptTarget.ES2020, true, ts.ScriptKind.JS);
    const errors = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map(
      (d) =>
        `${file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
    );
    expect(errors).toEqual([]);
  });

  it("looks up only ids the page has", () => {
    const ids = new Set([...HTML.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    const used = new Set([...SCRIPTS[0]!.matchAll(/\$\("([^"]+)"\)/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((id) => !ids.has(id))).toEqual([]);
  });

  it("loads nothing from another origin and fetches only this API's paths", () => {
    expect(HTML.match(/\s(?:src|href)="(?:https?:)?\/\/[^"]*"/g) ?? []).toEqual([]);
    expect(HTML.match(/url\((?:["']?)(?:https?:)?\/\//g) ?? []).toEqual([]);
    const fetched = [...SCRIPTS[0]!.matchAll(/fetch\(\s*("[^"]*"|'[^']*'|`[^`]*`)/g)].map((m) => m[1]!.slice(1));
    for (const f of fetched) expect(f, f).toMatch(/^\//);
  });
});
