/**
 * The audio/video operation family (media engines: ffmpeg in WebAssembly, native ffmpeg beyond its
 * budget; issue 13); the ffmpeg `command` is with the other command lines (../command). The registry (operations/registry.ts) lists MEDIA_HANDLERS explicitly.
 */
import type { OperationHandler } from "../types";
import { MEDIA_CONVERT_HANDLERS } from "./convert";
import { mediaThumbnail } from "./thumbnail";
import { mediaWatermark } from "./watermark";

/** The media rows. */
export const MEDIA_HANDLERS: OperationHandler[] = [...MEDIA_CONVERT_HANDLERS, mediaThumbnail, mediaWatermark];
