/**
 * The engines of the api Worker (workerd host): the engine table's rows this Worker reaches, by
 * name (DESIGN.md principle 11: one seam per kind of engine host). In-Worker engines are created
 * here once per isolate; engine Workers are reached over their service bindings through the RPC
 * seam (engines/remote.ts); an absent binding leaves its engine out, and routing passes its work
 * to another engine or ends the task with ENGINE_UNAVAILABLE.
 */
import { createChromeEngine } from "../../engines/chrome/engine";
import { browserObjectEngine, browserShards } from "./browser";
import type { PdfEngine } from "../../engines/kinds/pdf";
import { createPdfLibEngine } from "../../engines/pdflib/engine";
import { lazyScriptEngines } from "../../engines/lazy";
import { serviceFontSource } from "../../engines/text/service";
import type { EngineInstances } from "../../engines/registry";
import { remoteEngine } from "../../engines/remote";
import type { Env } from "../../env";
import { nativeEngines } from "../../engines/native/engines";
import { nativeStreamBytes } from "../../settings";
import { nativeTarget, type NativeEnv } from "./native";
import { workerdPdfiumEngine } from "./pdfium";

// fonteditor-core and SheetJS (issue 47): in this isolate, their modules evaluated on the first font or spreadsheet task
const scriptEngines = lazyScriptEngines();

// Created on first use, one per fonts binding: its watermark fonts come from the fonts Worker (engines/text/service.ts).
// Production has one env per isolate; a caller with other bindings (tests sharing an isolate) gets its own engine
// rather than one made for bindings without FONTS.
let noFonts: PdfEngine | undefined;
const withFonts = new WeakMap<object, PdfEngine>();

/** The pdf-lib engine for these bindings: with the fonts Worker's faces when FONTS is bound. */
function pdflibFor(fonts: Env["FONTS"] | undefined): PdfEngine {
  if (!fonts) return (noFonts ??= createPdfLibEngine({}));
  let engine = withFonts.get(fonts);
  if (!engine) withFonts.set(fonts, (engine = createPdfLibEngine({ fonts: serviceFontSource(fonts) })));
  return engine;
}

/**
 * The engines reachable from a Worker with bindings `env`. `task` (the running task's signal and
 * remaining milliseconds) is handed to the native engine, whose tools it stops, and to the Chrome
 * engine, whose page it bounds and closes.
 */
export function workerdEngines(
  env: Pick<
    Env,
    | "FONTS"
    | "IMAGEMAGICK"
    | "RESVG"
    | "EXIFTOOL"
    | "FFMPEG"
    | "SEVENZIP"
    | "TESSERACT"
    | "PANDOC"
    | "BROWSER"
    | "BROWSERS"
    | "BROWSER_SHARDS"
    | "BROWSER_REUSE"
    | "WEB_PROFILE"
    | "NATIVE_STREAM_BYTES"
  > &
    NativeEnv,
  task: { signal?: AbortSignal; timeoutMs?: number } = {},
): EngineInstances {
  return {
    ...nativeEngines(nativeTarget(env), { ...task, streamOver: nativeStreamBytes(env) }),
    cloudflare: {},
    pdflib: pdflibFor(env.FONTS),
    pdfium: workerdPdfiumEngine(),
    ...scriptEngines,
    ...(env.IMAGEMAGICK ? { imagemagick: remoteEngine("image", env.IMAGEMAGICK) } : {}),
    ...(env.RESVG ? { resvg: remoteEngine("image", env.RESVG) } : {}),
    ...(env.EXIFTOOL ? { exiftool: remoteEngine("metadata", env.EXIFTOOL) } : {}),
    ...(env.FFMPEG ? { ffmpeg: remoteEngine("media", env.FFMPEG) } : {}),
    ...(env.SEVENZIP ? { "7z": remoteEngine("archive", env.SEVENZIP) } : {}),
    ...(env.TESSERACT ? { tesseract: remoteEngine("ocr", env.TESSERACT) } : {}),
    ...(env.PANDOC ? { "pandoc-wasm": remoteEngine("office", env.PANDOC) } : {}),
    // the browser object's shared session (issue 37); without it (or BROWSER_REUSE=false|session) a session per task
    ...(env.BROWSER && env.BROWSERS && env.BROWSER_REUSE !== "false" && env.BROWSER_REUSE !== "session"
      ? {
          chrome: browserObjectEngine(env.BROWSERS, {
            ...task,
            profile: env.WEB_PROFILE === "1",
            shards: browserShards(env),
          }),
        }
      : env.BROWSER
        ? {
            chrome: createChromeEngine(env.BROWSER, {
              ...task,
              reuse: env.BROWSER_REUSE !== "false",
              profile: env.WEB_PROFILE === "1",
            }),
          }
        : {}),
  };
}
