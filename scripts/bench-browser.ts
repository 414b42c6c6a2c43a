/**
 * Benchmark of the browser build (issue 19): the same jobs run client-side (the /browser/ build in
 * Debian's headless Chromium, puppeteer-core) and through the service under `npm start` (POST
 * /v2/jobs with the file as import/base64, sync wait: the Worker and its engine Workers), on the
 * same files in the same run. Prints medians of `runs` per operation (the first, cold run of each
 * side excluded: engine download and compile are reported once as "first run"), the ratio
 * browser / Worker, and the bundle sizes.
 * Run: `npm run bench -- browser` (or `node scripts/bench-browser.ts`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";
import { startDevServer } from "../test/support/server.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CORPUS = process.env.CORPUS_DIR ?? join(ROOT, "..", "shared", "corpus");
const KEY = "bench-key";

const CASES: { name: string; file: string; task: Record<string, unknown> }[] = [
  {
    name: "png → jpg 800 px (ImageMagick)",
    file: "images/cloudconvert-input.png",
    task: { operation: "convert", output_format: "jpg", width: 800 },
  },
  {
    name: "thumbnail 200 px (ImageMagick)",
    file: "images/exif-orientation-Landscape_6.jpg",
    task: { operation: "thumbnail", output_format: "png", width: 200, height: 200 },
  },
  { name: "pdf split 12 pages (pdf-lib)", file: "pdf/gotenberg-pages_12.pdf", task: { operation: "pdf/split-pages" } },
  {
    name: "pdf encrypt (pdf-lib)",
    file: "pdf/pdfjs-tracemonkey.pdf",
    task: { operation: "pdf/encrypt", set_password: "x" },
  },
  {
    name: "pdf → png page 1 (PDFium)",
    file: "pdf/pdfjs-tracemonkey.pdf",
    task: { operation: "convert", output_format: "png", pages: "1" },
  },
  { name: "metadata (ExifTool)", file: "images/exif-orientation-Landscape_6.jpg", task: { operation: "metadata" } },
  {
    name: "wav → mp3 (ffmpeg)",
    file: "audio/cpython-pluck-pcm16.wav",
    task: { operation: "convert", output_format: "mp3" },
  },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchBrowser(runs = 5): Promise<void> {
  const server = await startDevServer({ API_KEYS: `${KEY}:bench` });
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.base}/browser/`, { waitUntil: "load" });
    console.log(
      `\nThe browser build (Chromium ${(await browser.version()).split("/")[1]}, a Web Worker) vs the Worker (wrangler dev) on the same files; medians of ${runs} after a first run`,
    );
    console.log(
      `${"operation".padEnd(34)} ${"browser ms".padStart(10)} ${"Worker ms".padStart(10)} ${"ratio".padStart(6)}  first run (browser / Worker)`,
    );
    for (const c of CASES) {
      const bytes = readFileSync(join(CORPUS, c.file));
      const filename = c.file.split("/").pop()!;
      const job = {
        tasks: {
          in: { operation: "import/upload" },
          step: { ...c.task, input: "in" },
          out: { operation: "export/url", input: "step" },
        },
      };
      const local: number[] = await page.evaluate(
        async (job, b64, name, n) => {
          const { runJob } = await new Function('return import("/browser/edge-convert.js")')();
          const file = new File([Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))], name);
          const times: number[] = [];
          for (let i = 0; i <= n; i++) {
            const t0 = performance.now();
            const r = await runJob(job, { files: { in: file } });
            if (r.job.status !== "finished")
              throw new Error(JSON.stringify(r.job.tasks.find((t: { status: string }) => t.status === "error")));
            times.push(performance.now() - t0);
          }
          return times;
        },
        job,
        bytes.toString("base64"),
        filename,
        runs,
      );
      const remoteJob = {
        tasks: {
          in: { operation: "import/base64", file: bytes.toString("base64"), filename },
          step: { ...c.task, input: "in" },
          out: { operation: "export/url", input: "step" },
        },
      };
      const remote: number[] = [];
      for (let i = 0; i <= runs; i++) {
        const t0 = performance.now();
        const res = await fetch(`${server.base}/sync/v2/jobs`, {
          method: "POST",
          headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
          body: JSON.stringify(remoteJob),
        });
        const body = (await res.json()) as { data: { status: string } };
        if (body.data?.status !== "finished") throw new Error(`${c.name}: ${JSON.stringify(body)}`);
        remote.push(performance.now() - t0);
      }
      const [l, r] = [median(local.slice(1)), median(remote.slice(1))];
      console.log(
        `${c.name.padEnd(34)} ${l.toFixed(0).padStart(10)} ${r.toFixed(0).padStart(10)} ${(l / r).toFixed(2).padStart(6)}  ${local[0].toFixed(0)} / ${remote[0].toFixed(0)} ms`,
      );
    }
    const sizes = JSON.parse(readFileSync(join(ROOT, "dist", "browser", "sizes.json"), "utf8")) as Record<
      string,
      string
    >;
    console.log(
      `bundle: ${Object.entries(sizes)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBrowser();
