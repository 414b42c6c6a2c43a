/**
 * Issues 18 and 36, the console at `/` in headless Chromium (Debian's, puppeteer-core) against the shared dev server:
 * a job built with the form only (upload a PNG → convert to webp, width 300 → watermark text → export, no JSON typed),
 * run with live progress to 100 %, its thumbnail shown and its file downloaded (oracle: identify), the exported files
 * as one zip (bsdtar); a failing task's code beside it; the page's curl and node SDK code run as printed in a shell and
 * giving the same image; the history listing, re-running and deleting a job; the job run in the browser posting nothing.
 * Screenshots of the builder, a running job and the results at 1280 and 375 px wide go to .cache/screenshots/console/.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nativeExtract } from "../support/archive-oracle";
import { corpusPath } from "../support/corpus";
import { identify, pdfinfo } from "../support/native";
import { sharedServer, type SharedServer } from "../support/servers";
import { until } from "../support/wait";
import { scaled } from "../support/time-scale";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SHOTS = join(ROOT, ".cache/screenshots/console");
const PNG = "images/cloudconvert-input.png";
const KEY = "key-a";
let server: SharedServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer("guarded");
  mkdirSync(SHOTS, { recursive: true });
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
});
afterAll(async () => {
  await browser?.close();
});

/**
 * A console page signed in with KEY, its default tasks' forms ready; page errors and Content-Security-Policy
 * violations (the page's CSP allows no inline script or style) collected in `errors`.
 */
async function openConsole(width = 1280): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900 });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => void (/Content Security Policy/i.test(m.text()) && errors.push(m.text())));
  page.on("dialog", (d) => void d.accept());
  await page.goto(`${server.base}/`, { waitUntil: "load" });
  await page.type("#key", KEY);
  await page.$eval("#key", (el) => el.dispatchEvent(new Event("change")));
  await page.waitForFunction(() => document.getElementById("me")!.textContent!.includes("alice"), {
    timeout: scaled(15_000),
  });
  await formsReady(page);
  return { page, errors };
}
const formsReady = (page: Page) =>
  page.waitForFunction(
    () => {
      const cards = [...document.querySelectorAll(".task")];
      return cards.length > 0 && cards.every((c) => (c as HTMLElement).dataset.ready === "1");
    },
    { timeout: scaled(30_000) },
  );
/** Types `job` into the JSON box, as a person would, and waits for the form of each of its tasks. */
async function typeJson(page: Page, job: unknown): Promise<void> {
  await page.$eval(
    "#job",
    (el, text) => {
      (el as HTMLTextAreaElement).value = text;
      el.dispatchEvent(new Event("input"));
    },
    JSON.stringify(job),
  );
  const names = Object.keys((job as { tasks: object }).tasks);
  await page.waitForFunction(
    (ns: string[]) =>
      [...document.querySelectorAll(".task")].map((c) => (c as HTMLElement).dataset.task).join() === ns.join(),
    { timeout: scaled(10_000) },
    names,
  );
  await formsReady(page);
}
const jobJson = async (page: Page) => JSON.parse(await page.$eval("#job", (e) => (e as HTMLTextAreaElement).value));
const jobEnded = (page: Page, timeout = 90_000) =>
  page.waitForFunction(
    () => ["finished", "error"].includes(document.getElementById("jobstatus")!.dataset.status ?? ""),
    { timeout },
  );
/** Downloads by clicking `selector` into a fresh folder; the path of the file whose name ends with `suffix`. */
async function download(page: Page, selector: string, suffix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "console-dl-"));
  const cdp = await page.createCDPSession();
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: dir });
  await page.click(selector);
  await until(() => readdirSync(dir).some((f) => f.endsWith(suffix)), `download ${suffix}`, 20_000);
  return join(
    dir,
    readdirSync(dir).find((f) => f.endsWith(suffix))!,
  );
}
const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

describe("the console", () => {
  it("answers JSON to API clients at / and serves /openapi.json", async () => {
    expect((await (await fetch(`${server.base}/openapi.json`)).json()).openapi).toBe("3.1.0");
    expect(await (await fetch(`${server.base}/`, { headers: { accept: "application/json" } })).json()).toMatchObject({
      openapi: `${server.base}/openapi.json`,
    });
  });

  let formResult: { width: number; height: number; format: string };
  let builtJob: unknown;
  let jobId: string;

  it("builds upload → convert (webp, width 300) → watermark → export with the form, runs it, previews and downloads it", async () => {
    const { page, errors } = await openConsole();
    let navigations = 0;
    page.on("framenavigated", (f) => void (f === page.mainFrame() && navigations++));
    // the file goes to the default import/upload task; convert's output and width through their controls
    await ((await page.$("#files")) as ElementHandle<HTMLInputElement>).uploadFile(corpusPath(PNG));
    await formsReady(page);
    const convert = '[data-task="convert-1"]';
    // the format picker offers only the catalogue's outputs from png
    const outs = await page.$$eval(`${convert} datalist[data-for="output_format"] option`, (os) =>
      os.map((o) => (o as HTMLOptionElement).value),
    );
    const catalogue = await (
      await fetch(`${server.base}/v2/operations?filter[operation]=convert&filter[input_format]=png`)
    ).json();
    expect(outs.sort()).toEqual(
      [...new Set(catalogue.data.map((r: { output_format: string }) => r.output_format))].sort(),
    );
    // an invalid width is marked before anything is sent (the schema's maximum), and Run is held back
    await page.type(`${convert} [data-option="width"]`, "99999");
    expect(await page.$eval(`${convert} [data-option="width"]`, (e) => e.getAttribute("aria-invalid"))).toBe("true");
    expect(await page.$eval("#run", (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await page.$eval(`${convert} [data-option="width"]`, (e) => ((e as HTMLInputElement).value = ""));
    await page.type(`${convert} [data-option="width"]`, "300");
    expect(await page.$eval(`${convert} [data-option="width"]`, (e) => e.getAttribute("aria-invalid"))).toBeNull();
    // the watermark task, added from the operations list, goes between convert and export
    await page.select("#add-op", "watermark");
    await page.click("#add-task");
    await formsReady(page);
    await page.type('[data-task="watermark-1"] [data-option="text"]', "edge-convert");
    await page.select('[data-task="watermark-1"] [data-option="position_vertical"]', "bottom");
    // export both the converted and the watermarked image (two files: one zip)
    await page.click('[data-task="export-1"] [data-focus$="-in-convert-1"]');
    await formsReady(page);
    builtJob = await jobJson(page);
    expect(builtJob).toEqual({
      tasks: {
        "import-1": { operation: "import/upload" },
        "convert-1": { operation: "convert", input: "import-1", output_format: "webp", width: 300 },
        "watermark-1": {
          operation: "watermark",
          input: "convert-1",
          text: "edge-convert",
          position_vertical: "bottom",
        },
        "export-1": { operation: "export/url", input: ["watermark-1", "convert-1"] },
      },
    });
    await shot(page, "builder-1280");
    // every control has an accessible name (a label, aria-label or its text) and is reachable by keyboard
    const unnamed = await page.$$eval("input, select, textarea, button", (els) =>
      els
        .filter((e) => !(e as HTMLElement).hidden && (e as HTMLInputElement).type !== "hidden")
        .filter((e) => {
          const labels = (e as HTMLInputElement).labels;
          const named =
            (labels && labels.length > 0) ||
            e.getAttribute("aria-label") ||
            (e.tagName === "BUTTON" && e.textContent!.trim());
          return !named || (e as HTMLElement).tabIndex < 0;
        })
        .map((e) => e.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);
    await page.setViewport({ width: 375, height: 800 });
    await shot(page, "builder-375");
    await page.setViewport({ width: 1280, height: 900 });

    // progress as it changes, recorded in the page
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const bars = [...document.querySelectorAll("#tasks [role=progressbar]")].map((b) =>
          b.getAttribute("aria-valuenow"),
        );
        seen.push(`${document.getElementById("jobstatus")!.dataset.status} ${bars.join(",")}`);
      }).observe(document.getElementById("h-run")!.parentElement!, {
        attributes: true,
        childList: true,
        subtree: true,
      });
    });
    await page.click("#run");
    await page.waitForSelector("#tasks tr");
    await shot(page, "running-1280");
    await page.setViewport({ width: 375, height: 800 });
    await shot(page, "running-375");
    await page.setViewport({ width: 1280, height: 900 });
    await jobEnded(page);
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen[0]).not.toMatch(/^finished/); // shown before it ended; the end arrived live
    expect(navigations).toBe(0); // no reload: counted from after the page loaded
    const rows = await page.$$eval("#tasks tr", (trs) =>
      trs.map((tr) => ({
        name: tr.children[0].textContent,
        status: tr.children[2].textContent,
        progress: tr.querySelector("[role=progressbar]")!.getAttribute("aria-valuenow"),
        engine: tr.children[4].textContent,
      })),
    );
    expect(rows.map((r) => [r.name, r.status, r.progress])).toEqual([
      ["import-1", "finished", "100"],
      ["convert-1", "finished", "100"],
      ["watermark-1", "finished", "100"],
      ["export-1", "finished", "100"],
    ]);
    expect(rows[1]!.engine).toMatch(/^\S+ \S+/); // engine and its version
    jobId = (await page.$eval("#jobstatus", (e) => e.textContent!)).match(/job (\S+):/)![1]!;
    // engine, version and credits as the API records them
    const api = (
      await (await fetch(`${server.base}/v2/jobs/${jobId}`, { headers: { authorization: `Bearer ${KEY}` } })).json()
    ).data;
    const byName = (n: string) => api.tasks.find((t: { name: string }) => t.name === n);
    expect(rows.map((r) => r.engine)).toEqual(
      rows.map((r) => `${byName(r.name!).engine} ${byName(r.name!).engine_version}`),
    );
    const credits = api.tasks.reduce((n: number, t: { credits: number | null }) => n + (t.credits ?? 0), 0);
    expect(credits).toBeGreaterThan(0);
    expect(await page.$eval("#jobstatus", (e) => e.textContent!)).toContain(`finished · ${credits} credits`);

    // the thumbnails are the real images, decoded by the browser
    await page.waitForFunction(() =>
      [...document.querySelectorAll("img.thumb")].every((i) => (i as HTMLImageElement).naturalWidth > 0),
    );
    const thumbs = await page.$$eval("img.thumb", (is) => is.map((i) => (i as HTMLImageElement).naturalWidth));
    expect(thumbs).toEqual([300, 300]);
    await shot(page, "results-1280");
    await page.setViewport({ width: 375, height: 800 });
    await shot(page, "results-375");
    await page.setViewport({ width: 1280, height: 900 });

    const file = await download(page, "[data-file] a.download", ".webp");
    formResult = identify(file);
    expect(formResult).toMatchObject({ format: "WEBP", width: 300 });
    // both files as one zip (export/url archive_multiple_files)
    await page.click("#zip");
    await page.waitForSelector("a.zip", { timeout: scaled(60_000) });
    const zip = await download(page, "a.zip", ".zip");
    const entries = nativeExtract(zip, "bsdtar");
    expect(entries.size).toBe(2);
    expect(errors).toEqual([]);
  });

  it("renders a form for every operation of the catalogue, and makes an upload task of each file dropped", async () => {
    const { page, errors } = await openConsole(375);
    const ops = await page.$$eval("#add-op option", (os) => os.map((o) => (o as HTMLOptionElement).value));
    const catalogue = await (await fetch(`${server.base}/v2/operations`)).json();
    expect(ops).toEqual([...new Set(catalogue.data.map((r: { operation: string }) => r.operation))].sort());
    for (const op of ops) {
      await page.select("#add-op", op);
      await page.click("#add-task");
    }
    await formsReady(page);
    const cards = await page.$$eval(".task", (cs) => cs.map((c) => c.querySelector("strong")!.textContent));
    // the three default tasks, and one of each operation
    expect(cards.sort()).toEqual([...ops, "import/upload", "convert", "export/url"].sort());
    // two files dropped at once: two import/upload tasks, both inputs of the first task that takes one
    await typeJson(page, { tasks: { merge: { operation: "merge", output_format: "pdf" } } });
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(["%PDF-1.4"], "a.pdf", { type: "application/pdf" }));
      dt.items.add(new File(["%PDF-1.4"], "b.pdf", { type: "application/pdf" }));
      document.getElementById("drop")!.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true }));
    });
    await formsReady(page);
    expect((await jobJson(page)).tasks).toEqual({
      "import-2": { operation: "import/upload" },
      "import-1": { operation: "import/upload" },
      merge: { operation: "merge", output_format: "pdf", input: ["import-1", "import-2"] },
    });
    expect(await page.$$eval(".task .drop .help", (hs) => hs.map((h) => h.textContent))).toEqual([
      "b.pdf (8 bytes)",
      "a.pdf (8 bytes)",
    ]);
    expect(errors).toEqual([]);
  });

  it("shows a failing task's code and message beside it (a job typed as JSON, rendered as a form)", async () => {
    const { page, errors } = await openConsole(375);
    const job = {
      tasks: {
        raw: { operation: "import/raw", file: "not an image", filename: "broken.png" },
        bad: { operation: "convert", input: "raw", output_format: "webp" },
        out: { operation: "export/url", input: "bad" },
      },
    };
    await typeJson(page, job);
    // the form follows the JSON
    expect(await page.$eval('[data-task="raw"] [data-option="filename"]', (e) => (e as HTMLInputElement).value)).toBe(
      "broken.png",
    );
    await page.click("#run");
    await jobEnded(page);
    const bad = await page.$eval('#tasks tr[data-task="bad"]', (tr) => ({
      status: tr.children[2].textContent,
      code: tr.querySelector(".code")?.textContent,
      message: tr.children[7].textContent,
    }));
    // the API's own record of the task is the oracle
    const id = (await page.$eval("#jobstatus", (e) => e.textContent!)).match(/job (\S+):/)![1]!;
    const api = (
      await (await fetch(`${server.base}/v2/jobs/${id}`, { headers: { authorization: `Bearer ${KEY}` } })).json()
    ).data;
    const task = api.tasks.find((t: { name: string }) => t.name === "bad");
    expect(task.status).toBe("error");
    expect(bad).toEqual({ status: "error", code: task.code, message: `${task.code} ${task.message}` });
    expect(task.code).toMatch(/^[A-Z_]+$/);
    await shot(page, "error-375");
    expect(errors).toEqual([]);
  });

  it("prints curl and node SDK code that run as printed and give the same image", async () => {
    const { page, errors } = await openConsole();
    await typeJson(page, builtJob);
    await (await page.$('[data-task="import-1"] input[type=file]'))!.uploadFile(corpusPath(PNG));
    await formsReady(page);
    const code = async (lang: string) => {
      await page.click(`[data-lang="${lang}"]`);
      return page.$eval("#code", (e) => e.textContent!);
    };
    const dir = mkdtempSync(join(ROOT, ".cache/console-code-"));
    copyFileSync(corpusPath(PNG), join(dir, "cloudconvert-input.png"));
    const shell = (cmd: string, args: string[], cwd = dir) =>
      execFileSync(cmd, args, {
        cwd,
        encoding: "utf8",
        timeout: 150_000,
        env: { ...process.env, CLOUDCONVERT_API_KEY: "" },
      });

    const curl = await code("curl");
    writeFileSync(join(dir, "job.sh"), curl);
    const curlOut = shell("bash", ["job.sh"]);
    expect(curlOut).toMatch(/export-1: finished/);
    expect(identify(join(dir, "cloudconvert-input.webp"))).toEqual(formResult);

    const node = await code("node");
    mkdirSync(join(dir, "node"));
    copyFileSync(corpusPath(PNG), join(dir, "node", "cloudconvert-input.png"));
    writeFileSync(join(dir, "job.mjs"), node);
    const nodeOut = shell(process.execPath, [join(dir, "job.mjs")], join(dir, "node"));
    expect(nodeOut).toMatch(/saved cloudconvert-input\.webp/);
    expect(identify(join(dir, "node", "cloudconvert-input.webp"))).toEqual(formResult);

    // Python: the SDK's endpoint/sync_endpoint pointed at this server, the job as posted
    const python = await code("python");
    expect(python).toContain(`endpoint=API, sync_endpoint=API + "/sync"`);
    expect(python).toContain(`API = "${server.base}"`);
    const payload = JSON.parse(python.match(/json\.loads\(r'''([\s\S]*?)'''\)/)![1]!);
    expect(payload).toEqual(builtJob);
    rmSync(dir, { recursive: true, force: true });
    expect(errors).toEqual([]);
  });

  it("lists jobs in the history, opens and re-runs one, and deletes it", async () => {
    const { page, errors } = await openConsole();
    await page.waitForSelector(`#history tr[data-job="${jobId}"]`, { timeout: scaled(15_000) });
    // filtered by status: the form's job finished
    await page.select("#hstatus", "error");
    await page.click("#hload");
    await page.waitForFunction((id) => !document.querySelector(`#history tr[data-job="${id}"]`), {}, jobId);
    await page.select("#hstatus", "finished");
    await page.click("#hload");
    await page.waitForSelector(`#history tr[data-job="${jobId}"]`);
    // open: its tasks and results as after the run
    await page.click(`#history tr[data-job="${jobId}"] .open`);
    await jobEnded(page);
    expect(await page.$$eval("#tasks tr", (trs) => trs.map((tr) => tr.children[2].textContent))).toEqual([
      "finished",
      "finished",
      "finished",
      "finished",
    ]);
    // re-run: the same tasks again (its upload takes a file chosen in this tab)
    await ((await page.$("#files")) as ElementHandle<HTMLInputElement>).uploadFile(corpusPath(PNG));
    await page.click(`#history tr[data-job="${jobId}"] .rerun`);
    await page.waitForFunction((id) => !document.getElementById("jobstatus")!.textContent!.includes(id), {}, jobId);
    await jobEnded(page);
    const rerun = (await page.$eval("#jobstatus", (e) => e.textContent!)).match(/job (\S+): (\S+)/)!;
    expect(rerun[2]).toBe("finished");
    expect(await jobJson(page)).toEqual(builtJob);
    // the history, refreshed after the run, lists the new job beside the first
    await page.waitForSelector(`#history tr[data-job="${rerun[1]}"]`, { timeout: scaled(15_000) });
    // delete the first job: gone from the list and from the API
    await page.waitForSelector(`#history tr[data-job="${jobId}"]`);
    await page.click(`#history tr[data-job="${jobId}"] .delete`);
    await page.waitForFunction(
      (id) => !document.querySelector(`#history tr[data-job="${id}"]`),
      { timeout: scaled(15_000) },
      jobId,
    );
    const gone = await fetch(`${server.base}/v2/jobs/${jobId}`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(gone.status).toBe(404);
    expect(errors).toEqual([]);
  });

  it("previews a PDF's first page (the browser build's PDFium), metadata as a table, text as its start, audio and video in players", async () => {
    const { page, errors } = await openConsole();
    const csv = "name,size\nedge,1\nconvert,2\n";
    await typeJson(page, {
      tasks: {
        pdf: { operation: "import/upload" },
        csv: { operation: "import/raw", file: csv, filename: "sizes.csv" },
        audio: { operation: "import/upload" },
        video: { operation: "import/upload" },
        meta: { operation: "metadata", input: "pdf" },
        out: { operation: "export/url", input: ["pdf", "csv", "audio", "video"] },
      },
    });
    const PDF = "pdf/cloudconvert-input.pdf";
    const MEDIA = { audio: "audio/cpython-pluck-pcm16.wav", video: "video/ffmpegwasm-Big_Buck_Bunny_180_10s.webm" };
    await (await page.$('[data-task="pdf"] input[type=file]'))!.uploadFile(corpusPath(PDF));
    for (const [task, rel] of Object.entries(MEDIA))
      await (await page.$(`[data-task="${task}"] input[type=file]`))!.uploadFile(corpusPath(rel));
    await page.click("#run");
    await jobEnded(page);
    await page.waitForFunction(() => (document.querySelector(".pdf img") as HTMLImageElement | null)?.naturalWidth, {
      timeout: 60_000,
    });
    // page 1's size from pdfinfo (the oracle): the preview is 400 px wide at its aspect ratio
    const [w, h] = pdfinfo(corpusPath(PDF), ["-f", "1", "-l", "1"])["Page    1 size"]!.split(" x ").map(parseFloat);
    const img = await page.$eval(".pdf img", (i) => [
      (i as HTMLImageElement).naturalWidth,
      (i as HTMLImageElement).naturalHeight,
    ]);
    expect(img[0]).toBe(400);
    expect(Math.abs(img[1]! - (400 * h!) / w!)).toBeLessThanOrEqual(1);
    const table = await page.$$eval('[data-metadata="meta"] tr', (trs) =>
      Object.fromEntries(trs.map((tr) => [tr.children[0].textContent, tr.children[1].textContent])),
    );
    expect(table.PageCount).toBe(pdfinfo(corpusPath(PDF)).Pages);
    expect(await page.$eval('[data-file="sizes.csv"] pre', (e) => e.textContent)).toBe(csv);
    // the players load the exported files: their durations are ffprobe's
    for (const [kind, rel] of Object.entries(MEDIA)) {
      const name = rel.split("/").pop()!;
      const sel = `[data-file="${name}"] ${kind}`;
      await page.waitForFunction(
        (q: string) => (document.querySelector(q) as HTMLMediaElement).readyState >= 1,
        { timeout: scaled(20_000) },
        sel,
      );
      const seconds = await page.$eval(sel, (m) => (m as HTMLMediaElement).duration);
      const probed = Number(
        execFileSync(
          "ffprobe",
          ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", corpusPath(rel)],
          {
            encoding: "utf8",
          },
        ),
      );
      expect(Math.abs(seconds - probed), `${name}: ${seconds} s in the player, ${probed} s by ffprobe`).toBeLessThan(
        0.1,
      );
    }
    expect(errors).toEqual([]);
  });

  it("runs the job in this browser without posting anything, and creates signed-URL bases", async () => {
    const { page, errors } = await openConsole();
    await ((await page.$("#files")) as ElementHandle<HTMLInputElement>).uploadFile(corpusPath(PNG));
    await formsReady(page);
    const posts: string[] = [];
    page.on("request", (r) => void (r.method() !== "GET" && posts.push(r.url())));
    await page.click("#local");
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("a.download")?.getAttribute("href")?.startsWith("blob:"), {
      timeout: 90_000,
    });
    expect(posts).toEqual([]);
    const local = await page.evaluate(async () => {
      const a = document.querySelector("a.download") as HTMLAnchorElement;
      const bytes = new Uint8Array(await (await fetch(a.href)).arrayBuffer());
      return { name: a.getAttribute("download"), head: String.fromCharCode(...bytes.subarray(8, 12)) };
    });
    expect(local).toEqual({ name: "cloudconvert-input.webp", head: "WEBP" });

    await page.click("#newbase");
    await page.waitForFunction(() => document.querySelectorAll("#bases tr").length >= 1, { timeout: scaled(10_000) });
    const [url, secret] = await page.$$eval("#bases tr:last-child td", (tds) => tds.map((td) => td.textContent));
    expect(url).toMatch(new RegExp(`^${server.base}/s/[0-9a-f-]{36}$`));
    expect(secret).toMatch(/^[0-9a-f]{48}$/);

    // the key lives in this tab's session storage, never in the URL; a wrong key shows the API's own message
    expect(await page.evaluate(() => [sessionStorage.getItem("edge-convert-key"), location.href])).toEqual([
      KEY,
      `${server.base}/`,
    ]);
    const refused = await (
      await fetch(`${server.base}/v2/users/me`, { headers: { authorization: "Bearer nope" } })
    ).json();
    await page.$eval("#key", (el) => ((el as HTMLInputElement).value = "nope"));
    await page.$eval("#key", (el) => el.dispatchEvent(new Event("change")));
    await page.waitForFunction(
      (m: string) => document.getElementById("me")!.textContent!.includes(m),
      {},
      refused.message,
    );
    expect(errors).toEqual([]);
  });
});
