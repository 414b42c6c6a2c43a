/**
 * The engine contract suites (test/contract/engines.cases.ts) with the browser's engines, bundled
 * by test/browser/contract.test.ts with `vitest` aliased to vitest-shim.ts: the third host. It runs
 * as a Web Worker, where the product's engines run (Chromium refuses synchronous instantiation of
 * large modules on a page's main thread); the page sends the assets' base URL and gets the results.
 */
import { engineContract } from "../../contract/engines.cases";
import { browserEngines } from "../../../src/runtime/browser/engines";
import { runAll } from "./vitest-shim";

declare const self: { onmessage: ((e: MessageEvent<{ base: string }>) => void) | null; postMessage(m: unknown): void };

self.onmessage = (e) => {
  engineContract("browser", () => browserEngines({ base: e.data.base }));
  runAll().then(
    (results) => self.postMessage(results),
    (err: unknown) => self.postMessage([{ title: "harness", ok: false, error: String(err) }]),
  );
};
