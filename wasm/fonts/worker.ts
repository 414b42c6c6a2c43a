/**
 * The fonts Worker: every shipped watermark face (engines/text/faces.ts) in one bundle of its own
 * (DejaVu 2.8 MB, the Noto faces ~37 MB: Noto Sans JP and KR 4.5 MB a weight, SC 8.4 MB), served
 * to the Workers that draw text over a service binding. The image engine Worker draws image
 * watermarks with it and the api Worker embeds subsets in PDF watermarks
 * (engines/text/service.ts); each caches a face for the life of its isolate after the first
 * crossing. Why a Worker of its own: with the CJK faces inside it, the image engine Worker
 * measured 52.7 MiB of the 64 MiB script limit (platform §1); apart, each keeps its headroom and
 * a new script is a file here, not a risk to an engine's deploy.
 *
 * RPC: `font(file)` → the file's bytes. HTTP: `GET /health` → 200 {fonts: [file names]}.
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { isFontFile, workerFonts, FONT_FILES } from "./fonts";

/** Bind it with `[[services]] binding = "FONTS", service = "edge-convert-fonts"`. */
export default class FontsWorker extends WorkerEntrypoint {
  /**
   * The bytes of a shipped font file (engines/text/faces.ts `FontFile`, e.g. "NotoSansKR-Regular.otf").
   * @throws Error for a name that is not a shipped font file
   */
  async font(file: string): Promise<Uint8Array> {
    if (!isFontFile(file)) throw new Error(`${file} is not a shipped font file.`);
    return workerFonts(file);
  }

  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname === "/health") return Response.json({ fonts: FONT_FILES });
    return new Response("Not found", { status: 404 });
  }
}
