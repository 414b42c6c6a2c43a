/**
 * The image operation family (ImageMagick engine): registry rows for convert, thumbnail,
 * watermark and optimize. The registry (operations/registry.ts) lists IMAGE_HANDLERS explicitly.
 */
import type { OperationHandler } from "../types";
import { imageConvert } from "./convert";
import { imageOptimize } from "./optimize";
import { imageThumbnail } from "./thumbnail";
import { imageWatermark } from "./watermark";

export { imageConvert, imageOptimize, imageThumbnail, imageWatermark };
export { convertParams, optimizeParams, thumbnailParams, watermarkParams } from "./schemas";

/** The image rows, in routing priority order within each operation. */
export const IMAGE_HANDLERS: OperationHandler[] = [imageConvert, imageThumbnail, imageWatermark, imageOptimize];
