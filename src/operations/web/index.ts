/**
 * Web pages (issue 14): capture-website and convert of html/md, rendered by Chrome on Browser
 * Rendering. The registry (operations/registry.ts) lists WEB_HANDLERS explicitly.
 */
import type { OperationHandler } from "../types";
import { captureWebsite } from "./capture";
import { webConvert } from "./convert";

/** The web rows. */
export const WEB_HANDLERS: OperationHandler[] = [captureWebsite, webConvert];
