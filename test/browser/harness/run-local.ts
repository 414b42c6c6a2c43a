/**
 * A job run in a page of the browser build (test/browser): the corpus file `rel` goes into task "in" as a File made in
 * the page (no request carries it), each task is exported, and the outputs come back as files under the test's
 * temporary folder (support/native tempFile), with the job as the page's runJob answered it.
 */
import { readFileSync } from "node:fs";
import type { Page } from "puppeteer-core";
import { corpusPath } from "../../support/corpus";
import { tempFile } from "../../support/native";

export interface LocalResult {
  job: {
    status: string;
    tasks: {
      name: string;
      status: string;
      code: string | null;
      engine: string | null;
      /** the fields read here */
      result: { metadata: Record<string, unknown> };
    }[];
  };
  files: Record<string, { filename: string; path: string }[]>;
  task(n: string): LocalResult["job"]["tasks"][number];
}

/** runCorpusJob's twin in the page: the corpus file goes into task "in" as a File made in the page (no request carries it). */
export async function runLocalIn(page: Page, rel: string, tasks: Record<string, unknown>): Promise<LocalResult> {
  const b64 = readFileSync(corpusPath(rel)).toString("base64");
  const exports = Object.fromEntries(
    Object.keys(tasks).map((n) => [`export-${n}`, { operation: "export/url", input: n }]),
  );
  const r = await page.evaluate(
    async (job, b64, name) => {
      const { runJob } = await new Function('return import("/browser/edge-convert.js")')(); // a string: vitest must not rewrite the page's import
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const { job: done, outputs } = await runJob(job, { files: { in: new File([bytes], name) } });
      const enc = async (b: Blob) => {
        const u = new Uint8Array(await b.arrayBuffer());
        let s = "";
        for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000));
        return btoa(s);
      };
      return {
        job: done,
        outputs: await Promise.all(
          outputs.map(async (o: { task: string; filename: string; blob: Blob }) => ({
            task: o.task,
            filename: o.filename,
            b64: await enc(o.blob),
          })),
        ),
      };
    },
    { tasks: { in: { operation: "import/upload" }, ...tasks, ...exports } },
    b64,
    rel.split("/").pop()!,
  );
  const files: LocalResult["files"] = {};
  for (const o of r.outputs)
    (files[o.task.slice("export-".length)] ??= []).push({
      filename: o.filename,
      path: tempFile(`local-${o.filename}`, Buffer.from(o.b64, "base64")),
    });
  return { job: r.job, files, task: (n) => r.job.tasks.find((t: { name: string }) => t.name === n)! };
}
