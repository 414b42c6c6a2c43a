#!/usr/bin/env node
// `npm run bench`: the service's own overhead (API under wrangler dev), then each engine against the native
// tool on the same inputs in the same run, as ratios of medians. Sections: api, image, pdf, metadata, native, office, families, markup, media, archive, ocr, browser, web, capacity, storage (default: all),
// e.g. `npm run bench -- image pdf`. Not a test: it prints figures and never fails on them.
import { spawn, execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const want = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const on = (s) => want.length === 0 || want.includes(s);

const freePort = () =>
  new Promise((res) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => res(p));
    });
  });

/** Runs one engine Worker alone under wrangler dev (it answers GET /health), for in-Worker timings. */
async function startEngineWorker(config) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
      "dev",
      "-c",
      config,
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: ROOT,
      stdio: "ignore",
      detached: true,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: join(ROOT, ".cache", "config") },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    stop: () => {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        /* gone */
      }
    },
  };
}

if (on("api")) {
  const { benchApi } = await import("./bench-api.ts");
  await benchApi();
}
if (on("image")) {
  const { benchImage, formatImageBench } = await import("./bench-image.mjs");
  const engine = await startEngineWorker("wasm/imagemagick/wrangler.toml");
  try {
    const rows = await benchImage({ runs: 7, worker: engine.url });
    console.log(
      `\nImageMagick engine (magick-wasm; Node ${process.version} and in the engine Worker) vs ${execFileSync("convert", ["-version"]).toString().split("\n")[0]}; medians of 7`,
    );
    console.log(formatImageBench(rows));
  } finally {
    engine.stop();
  }
}
if (on("pdf")) {
  const { benchPdf } = await import("./bench-pdf.mjs");
  console.log("\nPDF toolkit (pdf-lib, PDFium) vs qpdf and pdftoppm; medians of 7");
  await benchPdf({ runs: 7 });
}
if (on("metadata")) {
  const { benchMetadata, formatMetadataBench } = await import("./bench-metadata.mjs");
  const engine = await startEngineWorker("wasm/exiftool/wrangler.toml");
  try {
    console.log(
      `\nExifTool engine (zeroperl WASM; Node and in the engine Worker) vs ${execFileSync("exiftool", ["-ver"]).toString().trim()} native exiftool -json; medians of 7`,
    );
    console.log(formatMetadataBench(await benchMetadata({ runs: 7, worker: engine.url })));
  } finally {
    engine.stop();
  }
}
if (on("native")) {
  const { benchNative } = await import("./bench-native.ts");
  await benchNative(5);
}
if (on("office")) {
  // issue 32: office → office and pdf → docx, the warm pool at concurrency 1 and 2 vs the cold CLI, medians of 3 rounds
  const { benchOffice } = await import("./bench-office.ts");
  await benchOffice(3);
}
if (on("families")) {
  const { benchFamilies } = await import("./bench-families.ts");
  await benchFamilies(5);
}
if (on("markup")) {
  // issue 47: pandoc in WebAssembly vs Debian's pandoc on the same files, medians of 5
  const { benchMarkup } = await import("./bench-markup.ts");
  await benchMarkup(5);
}
if (on("media")) {
  const { benchMedia } = await import("./bench-media.ts");
  await benchMedia(5);
}
if (on("archive")) {
  const { benchArchive } = await import("./bench-archive.ts");
  await benchArchive(5);
}
if (on("ocr")) {
  const { benchOcr } = await import("./bench-ocr.ts");
  await benchOcr(3);
}
if (on("browser")) {
  const { benchBrowser } = await import("./bench-browser.ts");
  await benchBrowser(5);
}
if (on("web")) {
  const { benchWeb, webBenchOptionsFromEnv } = await import("./bench-web.ts");
  await benchWeb(webBenchOptionsFromEnv());
}
if (on("capacity")) {
  // issue 48: the capacity model's inputs (docs/capacity.md): wall time and CPU per part, per family's typical job
  const { benchCapacity } = await import("./bench-capacity.ts");
  await benchCapacity(5);
}
if (on("storage")) {
  const { benchStorage } = await import("./bench-storage.ts");
  await benchStorage(5);
}
