/**
 * The native engine list (native-protocol/engines.ts, issue 46): every Debian package it names is in
 * container/debian-packages.txt, every tool a row names is probed, and the container (its engine files, server.ts's
 * wire names, tools.ts's install hints) and the Worker (the engine table's native rows, NATIVE_TOOL_OF, the engine
 * objects and the paths they call) agree with it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NATIVE_ENGINES, NATIVE_TOOLS, engineFile, nativePackagesOf, wireName } from "../../native-protocol/engines";
import { KIND_METHODS } from "../../src/engines/kinds";
import { ENGINES } from "../../src/engines/registry";
import { nativeEngines } from "../../src/engines/native/engines";
import { NATIVE_TOOL_OF } from "../../src/engines/native/rows";
import { installHint } from "../../container/tools.ts";
import type { NativeEngineDef } from "../../container/engines/common.ts";

const root = new URL("../../", import.meta.url);
const debianPackages = new Set(
  readFileSync(new URL("container/debian-packages.txt", root), "utf8")
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean),
);
const toolNames = NATIVE_TOOLS.map((t) => t.name);

/** The engine a file under container/engines/ default-exports, if any. */
async function engineOf(file: string): Promise<NativeEngineDef | undefined> {
  const mod = (await import(new URL(`container/engines/${file}.ts`, root).href)) as { default?: NativeEngineDef };
  return mod.default;
}

describe("native engine list", () => {
  it("names each engine, wire name and tool once", () => {
    const once = (xs: string[]) => expect(new Set(xs).size).toBe(xs.length);
    once(NATIVE_ENGINES.map((r) => r.name));
    once(NATIVE_ENGINES.map(wireName));
    once(toolNames);
  });

  it("lists every Debian package a tool or an engine needs in container/debian-packages.txt", () => {
    const packages = [...NATIVE_TOOLS.flatMap((t) => t.packages), ...NATIVE_ENGINES.flatMap(nativePackagesOf)];
    expect(packages.length).toBeGreaterThan(NATIVE_TOOLS.length);
    expect(packages.filter((p) => !debianPackages.has(p))).toEqual([]);
    // a tool not from Debian names its npm package instead
    for (const t of NATIVE_TOOLS) expect(t.packages.length > 0 || "npm" in t, t.name).toBe(true);
  });

  it("probes every tool a row names, and every tool probed serves or helps a row", () => {
    const named = NATIVE_ENGINES.flatMap((r) => [...r.tools, ...("uses" in r ? r.uses : [])]);
    expect(named.filter((n) => !toolNames.includes(n))).toEqual([]);
    expect(toolNames.filter((n) => !named.includes(n))).toEqual([]);
  });

  it("gives container/tools.ts each tool's install hint", () => {
    for (const t of NATIVE_TOOLS) {
      const hint = installHint(t.name);
      if ("npm" in t) expect(hint).toContain(t.npm);
      else expect(hint).toBe(`apt-get install ${t.packages.join(" ")}`);
    }
  });
});

describe("the container's engines", () => {
  it("each row's file default-exports an engine of the row's kind offering only its kind's methods", async () => {
    for (const row of NATIVE_ENGINES) {
      const def = await engineOf(engineFile(row));
      expect(def?.kind, row.name).toBe(row.kind);
      const methods = Object.keys(def!.methods);
      expect(methods.length, row.name).toBeGreaterThan(0);
      const ofKind: readonly string[] = KIND_METHODS[row.kind];
      expect(
        methods.filter((m) => !ofKind.includes(m)),
        row.name,
      ).toEqual([]);
    }
  });

  it("has no engine file the list does not name", async () => {
    const files = readdirSync(new URL("container/engines/", root))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => f.slice(0, -3));
    const listed = NATIVE_ENGINES.map(engineFile);
    const engines: string[] = [];
    for (const f of files) if ((await engineOf(f))?.methods) engines.push(f);
    expect(engines.sort()).toEqual([...listed].sort());
  });

  it("server.ts serves the list's engines by their wire names, not a list of its own", () => {
    const server = readFileSync(new URL("container/server.ts", root), "utf8");
    expect(server).toContain("NATIVE_ENGINES.map(");
    expect(server).toContain("wireName(r)");
    // only the office pool's shutdown is imported from an engine file by name
    const imports = [...server.matchAll(/from "\.\/engines\/([\w-]+)\.ts"/g)].map((m) => m[1]);
    expect(imports.sort()).toEqual(["common", "libreoffice"]);
  });
});

describe("the Worker's native rows", () => {
  const nativeRows = ENGINES.filter((r) => r.placement === "native");

  it("are the list's engines, with its kinds and versions", () => {
    expect(nativeRows.map((r) => r.name).sort()).toEqual(NATIVE_ENGINES.map((r) => r.name).sort());
    for (const r of nativeRows) {
      const row = NATIVE_ENGINES.find((n) => n.name === r.name)!;
      expect([r.kind, r.version], r.name).toEqual([row.kind, row.version]);
    }
  });

  it("are available when any of their tools is (NATIVE_TOOL_OF)", () => {
    expect(NATIVE_TOOL_OF).toEqual(Object.fromEntries(NATIVE_ENGINES.map((r) => [r.name, r.tools])));
  });

  it("call the container at /invoke/<wire name>/<method> with their kind's methods", async () => {
    const paths: string[] = [];
    const fetch = async (path: string) => {
      paths.push(path);
      return new Response("", { status: 500 });
    };
    const engines = nativeEngines({ fetch, key: "test" }) as Record<string, Record<string, (r?: unknown) => unknown>>;
    expect(Object.keys(engines).sort()).toEqual(NATIVE_ENGINES.map((r) => r.name).sort());
    for (const row of NATIVE_ENGINES) {
      const engine = engines[row.name]!;
      expect(Object.keys(engine).sort(), row.name).toEqual([...KIND_METHODS[row.kind]].sort());
      await engine[KIND_METHODS[row.kind][0]]!({});
      expect(paths.at(-1)).toBe(`/invoke/${wireName(row)}/${KIND_METHODS[row.kind][0]}`);
    }
    expect(paths).toContain("/invoke/command/run");
  });
});
