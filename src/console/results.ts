/**
 * The results of a run: each exported file as a card with a preview by kind (image, audio, video, the start of a
 * text, a PDF's first page) and a download link, and a task's metadata as a table.
 */
import type { TaskJson } from "../model/types";
import { h } from "./dom";

/** The browser build's entry (src/browser/index.ts), served at /browser/ beside the console. */
export type BrowserBuild = typeof import("../browser/index");

/** Where the browser build's entry is: imported at run time, never bundled into the console. */
const BROWSER_BUILD = "/browser/edge-convert.js";

/** The browser build's entry, imported on first use (the engines run in its Web Worker). */
export function browserBuild(): Promise<BrowserBuild> {
  return import(BROWSER_BUILD);
}

/** File names the cards preview, by kind. */
const PREVIEW = {
  image: /\.(png|jpe?g|gif|webp|avif|bmp|ico|svg)$/i,
  audio: /\.(mp3|wav|ogg|oga|flac|m4a|aac|opus|weba)$/i,
  video: /\.(mp4|webm|mov|m4v|ogv|mkv)$/i,
  text: /\.(txt|csv|tsv|html?|json|md|xml|srt|vtt|css|js|log|ya?ml|rtf)$/i,
  pdf: /\.pdf$/i,
};

/** One exported file: a preview by kind and a download link. `href` is an export URL or a blob: URL of a local run. */
export function resultCard(filename: string, href: string, size?: number, blob?: Blob): HTMLDivElement {
  const card = h("div", { class: "result", "data-file": filename }, [
    h("div", { class: "row" }, [
      h("strong", { text: filename }),
      size !== undefined ? h("span", { class: "muted", text: `${size} bytes` }) : null,
      h("a", { class: "download", href, download: filename, text: `download ${filename}` }),
    ]),
  ]);
  if (PREVIEW.image.test(filename))
    card.appendChild(h("img", { class: "thumb", src: href, alt: `preview of ${filename}`, loading: "lazy" }));
  else if (PREVIEW.audio.test(filename))
    card.appendChild(h("audio", { controls: true, preload: "metadata", src: href, "aria-label": filename }));
  else if (PREVIEW.video.test(filename))
    card.appendChild(h("video", { controls: true, preload: "metadata", src: href, "aria-label": filename }));
  else if (PREVIEW.text.test(filename)) {
    const pre = h("pre", { class: "preview", tabindex: 0, "aria-label": `start of ${filename}`, text: "…" });
    card.appendChild(pre);
    (blob ? blob.text() : fetch(href).then((r) => r.text())).then(
      (s) => {
        pre.textContent = s.slice(0, 3000) + (s.length > 3000 ? "\n…" : "");
      },
      (e: Error) => {
        pre.textContent = e.message;
      },
    );
  } else if (PREVIEW.pdf.test(filename)) card.appendChild(pdfPreview(filename, href, blob));
  return card;
}

/** The first page of a PDF, rendered by the browser build's PDFium in a Web Worker (nothing sent anywhere). */
export function pdfPreview(filename: string, href: string, blob?: Blob): HTMLDivElement {
  const box = h("div", { class: "pdf", text: "rendering the first page…" });
  (blob ? Promise.resolve(blob) : fetch(href).then((r) => r.blob()))
    .then(async (pdf) => {
      const m = await browserBuild();
      return m.runJob(
        {
          tasks: {
            in: { operation: "import/upload" },
            page: {
              operation: "convert",
              input: "in",
              input_format: "pdf",
              output_format: "png",
              pages: "1",
              width: 400,
            },
            out: { operation: "export/url", input: "page" },
          },
        },
        { files: { in: new File([pdf], filename, { type: "application/pdf" }) } },
      );
    })
    .then(
      (r) => {
        box.textContent = "";
        box.appendChild(
          h("img", { class: "thumb", src: URL.createObjectURL(r.outputs[0]!.blob), alt: `first page of ${filename}` }),
        );
      },
      (e: Error) => {
        box.textContent = `no preview (${e.message})`;
      },
    );
  return box;
}

/** A task's `result.metadata` as a table of keys and values, or null when it has none. */
export function metadataTable(t: TaskJson): HTMLDivElement | null {
  const meta = t.result?.metadata;
  if (!meta || typeof meta !== "object") return null;
  const body = h("tbody");
  for (const [k, v] of Object.entries(meta))
    body.appendChild(
      h("tr", {}, [
        h("th", { scope: "row", text: k }),
        h("td", { text: typeof v === "object" ? JSON.stringify(v) : String(v) }),
      ]),
    );
  return h("div", { class: "result", "data-metadata": t.name }, [
    h("strong", { text: `metadata of ${t.name}` }),
    h("div", { class: "scroll" }, [h("table", {}, [body])]),
  ]);
}
