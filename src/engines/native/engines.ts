/**
 * The native engine's rows of the engine table as engine objects of their kinds, all reached through
 * one NativeTarget (client.ts). Shared by the Worker (runtime/workerd) and Node (tests, benchmarks).
 */
import type { EngineInstances } from "../registry";
import { nativeEngine, nativeRpc, type NativeTarget } from "./client";

/**
 * The native rows of the engine table as engine objects. `signal` (the task's) cancels a running
 * tool; `timeoutMs` (what is left of the task's timeout) caps it; answer files over `streamOver` bytes of a
 * streamed call come back as streams (client.ts nativeRpc; default NATIVE_MAX_BYTES).
 */
export function nativeEngines(
  target: NativeTarget | undefined,
  opts: { signal?: AbortSignal; timeoutMs?: number; streamOver?: number } = {},
): EngineInstances {
  if (!target) return {};
  const rpc = (name: string) => nativeRpc(target.fetch, name, opts);
  return {
    ghostscript: nativeEngine("pdf", rpc("ghostscript")),
    qpdf: nativeEngine("pdf", rpc("qpdf")),
    libreoffice: nativeEngine("office", rpc("libreoffice")),
    "imagemagick-native": nativeEngine("image", rpc("imagemagick-native")),
    libraw: nativeEngine("image", rpc("libraw")),
    "native-command": nativeEngine("command", rpc("command")),
    "ffmpeg-native": nativeEngine("media", rpc("ffmpeg-native")),
    "tesseract-native": nativeEngine("ocr", rpc("tesseract-native")),
    fonttools: nativeEngine("font", rpc("fonttools")),
    calibre: nativeEngine("ebook", rpc("calibre")),
    "inkscape-cad": nativeEngine("cad", rpc("inkscape-cad")),
    inkscape: nativeEngine("vector", rpc("inkscape")),
    poppler: nativeEngine("office", rpc("poppler")),
    pandoc: nativeEngine("office", rpc("pandoc")),
    djvulibre: nativeEngine("office", rpc("djvulibre")),
    "inkscape-pdf": nativeEngine("office", rpc("inkscape-pdf")),
    "archive-native": nativeEngine("archive", rpc("archive-native")),
  };
}
