/**
 * The README and docs/architecture.md held against the code they describe (issue 46 item 7: the layout listed 8 of 18
 * container engines and 4 of 8 test projects): the README's Layout names every native engine of
 * native-protocol/engines.ts and every test project of vitest.config.mts, its Tests table has a row per project, its
 * Adding an engine walkthrough and the architecture page name the one native engine list, and every `npm run` the
 * README's commands block shows is a script of package.json.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NATIVE_ENGINES } from "../../native-protocol/engines";

const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const readme = read("README.md");
/** The text of the README's section `title` (from its heading to the next `## `). */
const section = (title: string) => {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README section "${title}"`).toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 4);
  return readme.slice(start, end === -1 ? undefined : end);
};
/** The test projects vitest.config.mts defines: nodeProject("<name>") and the worker project's name. */
const projects = [
  ...[...read("vitest.config.mts").matchAll(/nodeProject\("([\w-]+)"/g)].map((m) => m[1]!),
  ...[...read("vitest.config.mts").matchAll(/^\s+name: "(\w+)",$/gm)].map((m) => m[1]!),
];

describe("the README and docs/architecture.md against the rows", () => {
  it("the Layout names every native engine row and every test project", () => {
    const layout = section("Layout");
    expect(NATIVE_ENGINES.length).toBeGreaterThan(10);
    for (const e of NATIVE_ENGINES) expect(layout, `native engine ${e.name}`).toMatch(new RegExp(`\\b${e.name}\\b`));
    expect(projects.length).toBe(9);
    for (const p of projects) expect(layout, `test project ${p}`).toMatch(new RegExp(`\\b${p}\\b`));
  });

  it("the Tests table has one row per test project", () => {
    const tests = section("Tests");
    for (const p of projects) expect(tests, `row of ${p}`).toMatch(new RegExp(`^\\| ${p} \\| \`test/${p}\` \\|`, "m"));
  });

  it("the walkthrough and the architecture page name the one native engine list", () => {
    expect(section("Adding an engine")).toContain("native-protocol/engines.ts");
    expect(read("docs/architecture.md")).toContain("native-protocol/engines.ts");
  });

  it("every npm run the README shows is a script of package.json", () => {
    const scripts = Object.keys((JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts);
    const shown = [...readme.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!);
    expect(shown.length).toBeGreaterThan(5);
    for (const s of new Set(shown)) expect(scripts, `npm run ${s}`).toContain(s);
  });
});
