/**
 * The part of vitest's API the engine contract cases use (describe, describe.each, it, it.each, expect with
 * toBe/toEqual/toMatchObject/toMatch/toContain/toThrow/toBeGreaterThan/toBeInstanceOf/toHaveLength and `.not`), for running those cases in a
 * browser page (test/browser/contract.test.ts). Equality is chai's deep equality; cases are
 * collected, then run in order by `runAll`.
 */
import { expect as chaiExpect } from "chai";

interface Case {
  title: string;
  fn: () => unknown;
}
const cases: Case[] = [];
const prefix: string[] = [];

export function describe(title: string, body: () => void): void {
  prefix.push(title);
  try {
    body();
  } finally {
    prefix.pop();
  }
}
describe.each =
  <T>(values: readonly T[]) =>
  (title: string, body: (v: T) => void) => {
    for (const v of values) describe(title.replace("%s", String(v)), () => body(v));
  };

export function it(title: string, fn: () => unknown): void {
  cases.push({ title: [...prefix, title].join(" > "), fn });
}
/** it.each(rows)(title, fn): one case a row, `%s` in the title replaced by the row's values in turn. */
it.each =
  <T extends readonly unknown[]>(rows: readonly T[]) =>
  (title: string, fn: (...row: T) => unknown) => {
    for (const row of rows) {
      let i = 0;
      it(
        title.replace(/%s/g, () => String(row[i++])),
        () => fn(...row),
      );
    }
  };

function subset(actual: unknown, expected: unknown, path: string): void {
  if (
    expected !== null &&
    typeof expected === "object" &&
    !Array.isArray(expected) &&
    !(expected instanceof Uint8Array)
  ) {
    chaiExpect(actual, path).to.be.an("object");
    for (const [k, v] of Object.entries(expected)) subset((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
  } else if (Array.isArray(expected)) {
    chaiExpect(actual, path).to.be.an("array").with.lengthOf(expected.length);
    expected.forEach((v, i) => subset((actual as unknown[])[i], v, `${path}[${i}]`));
  } else {
    chaiExpect(actual, path).to.deep.equal(expected);
  }
}

function matchers(actual: unknown, negate: boolean, message?: string) {
  const check = (pass: () => void, what: string) => {
    let failed: unknown = null;
    try {
      pass();
    } catch (e) {
      failed = e;
    }
    if (negate && !failed) throw new Error(`${message ? message + ": " : ""}expected not ${what}`);
    if (!negate && failed) throw failed;
  };
  return {
    toBe: (v: unknown) => check(() => chaiExpect(actual, message).to.equal(v), `to be ${String(v)}`),
    toEqual: (v: unknown) => check(() => chaiExpect(actual, message).to.deep.equal(v), "to equal"),
    toMatchObject: (v: unknown) => check(() => subset(actual, v, message ?? "value"), "to match object"),
    toMatch: (re: RegExp | string) =>
      check(
        () => chaiExpect(String(actual), message).to.match(typeof re === "string" ? new RegExp(re) : re),
        `to match ${String(re)}`,
      ),
    toBeGreaterThan: (v: number) =>
      check(() => chaiExpect(actual as number, message).to.be.greaterThan(v), `to be greater than ${v}`),
    toBeInstanceOf: (c: abstract new (...args: never[]) => unknown) =>
      check(() => chaiExpect(actual, message).to.be.instanceOf(c), `to be an instance of ${c.name}`),
    toHaveLength: (n: number) =>
      check(() => chaiExpect(actual as unknown[], message).to.have.lengthOf(n), `to have length ${n}`),
    toContain: (v: unknown) =>
      check(() => chaiExpect(actual as string | unknown[], message).to.include(v), "to contain"),
    toThrow: (re?: RegExp | string) =>
      check(
        () =>
          re === undefined
            ? chaiExpect(actual as () => void).to.throw()
            : chaiExpect(actual as () => void).to.throw(re as RegExp),
        "to throw",
      ),
  };
}

export function expect(actual: unknown, message?: string) {
  const rejects = {
    async toThrow(re?: RegExp | string) {
      let error: unknown;
      try {
        await actual;
      } catch (e) {
        error = e ?? new Error("rejected");
      }
      if (!error) throw new Error(`${message ? message + ": " : ""}expected a rejection`);
      if (re !== undefined)
        chaiExpect(error instanceof Error ? error.message : String(error)).to.match(
          typeof re === "string" ? new RegExp(re) : re,
        );
    },
  };
  return { ...matchers(actual, false, message), not: matchers(actual, true, message), rejects };
}

/** Runs every collected case in order; one result each. */
export async function runAll(): Promise<{ title: string; ok: boolean; error?: string }[]> {
  const out: { title: string; ok: boolean; error?: string }[] = [];
  for (const c of cases) {
    try {
      await c.fn();
      out.push({ title: c.title, ok: true });
    } catch (e) {
      out.push({ title: c.title, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}
