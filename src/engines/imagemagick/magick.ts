/**
 * magick-wasm lifecycle: initialise once per isolate from a WebAssembly.Module (workerd: an
 * imported .wasm; Node: runtime/node-wasm.ts) or raw bytes, register the shipped fonts, set
 * defence-in-depth resource limits, and report the real version and WASM memory.
 *
 * The policy is magick-wasm's default with one change: the MVG coder is allowed, because
 * ImageMagick's internal SVG renderer (MSVG) draws through it. Inside WASM there is no network and
 * no host file system, and url:/file references are still refused (checked with the
 * broken/resvg-*.svg corpus files). A type map (type.xml, svg-fonts.ts) names the faces SVG text is
 * drawn in; the faces themselves are written when an SVG is read (engine.ts).
 */
import {
  ConfigurationFiles,
  ImageMagick,
  Magick,
  ResourceLimits,
  initializeImageMagick,
  type IConfigurationFiles,
} from "@imagemagick/magick-wasm";
import type { ImageBudget } from "../kinds/image";
import { svgTypeMap } from "./svg-fonts";

let ready: Promise<string> | undefined;
let fontNames: string[] = [];

function configuration(): IConfigurationFiles {
  const d = ConfigurationFiles.default;
  const policy = { fileName: d.policy.fileName, data: d.policy.data.replace(/<policy[^>]*pattern="MVG"[^>]*\/>/, "") };
  const type = { fileName: "type.xml", data: svgTypeMap() };
  return {
    log: d.log,
    policy,
    *all() {
      yield d.log;
      yield policy;
      yield type;
    },
  };
}

/**
 * Initialises ImageMagick once (later calls return the same promise) and resolves to the version,
 * e.g. "7.1.2-30". `fonts` maps a font name (as used by `settings.font`) to TTF/OTF bytes.
 * @throws whatever magick-wasm throws when the module is not magick's (a programming error)
 */
export function initImageMagick(
  wasm: WebAssembly.Module | Uint8Array,
  fonts: Record<string, Uint8Array> = {},
): Promise<string> {
  ready ??= (async () => {
    await initializeImageMagick(wasm, configuration());
    for (const [name, data] of Object.entries(fonts)) Magick.addFont(name, data);
    fontNames = Object.keys(fonts);
    return imageMagickVersion();
  })().catch((err) => {
    ready = undefined;
    throw err;
  });
  return ready;
}

/** The ImageMagick version string's number, e.g. "7.1.2-30" from "ImageMagick 7.1.2-30 Q8 wasm32 …". */
export function imageMagickVersion(): string {
  return /ImageMagick (\S+)/.exec(Magick.imageMagickVersion)?.[1] ?? Magick.imageMagickVersion;
}

/** Font names registered at initialisation. */
export function registeredFonts(): readonly string[] {
  return fontNames;
}

interface MagickApi {
  HEAPU8: Uint8Array;
}

/** Bytes of magick's WebAssembly.Memory (never shrinks, so it is the peak so far); 0 before init. */
export function wasmMemoryBytes(): number {
  try {
    return (ImageMagick as unknown as { _api: MagickApi })._api.HEAPU8.buffer.byteLength;
  } catch {
    return 0; // not initialised yet: magick-wasm's _api getter throws
  }
}

/**
 * Drops the current instance after a WebAssembly trap (RuntimeError), whose heap may be corrupt;
 * the next initImageMagick call builds a fresh one from the same module.
 */
export function discardInstance(): void {
  (ImageMagick as unknown as { _api: unknown })._api = undefined;
  ready = undefined;
}

/**
 * Limits ImageMagick enforces itself, behind the header checks of budget.ts (a header that lies
 * about its size, or a resize to a huge box, is still stopped): the pixel area of any one image
 * (with no disk to spill to, a larger pixel cache fails with CacheResourcesExhausted instead of
 * growing the heap), and frames in a list. Measured: a 30 MP PNG is refused with memory unchanged.
 */
export function applyResourceLimits(budget: ImageBudget): void {
  ResourceLimits.area = BigInt(budget.maxPixels) + 1n; // ImageMagick refuses area >= limit
  ResourceLimits.disk = 0n;
  ResourceLimits.listLength = BigInt(budget.maxFrames);
}
