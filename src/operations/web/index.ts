/**
 * Web pages (issue 14): capture-website and convert of html/md, rendered by Chrome on Browser
 * Rendering; and the Chrome fallback routes of convert (issue 47: spreadsheets, txt → pdf/png/jpg, svg/svgz → pdf),
 * which routing places after LibreOffice's and Inkscape's (`fallback: true`, operations/registry.ts candidatesOf).
 * The registry (operations/registry.ts) lists WEB_HANDLERS explicitly.
 */
import type { OperationHandler } from "../types";
import { captureWebsite } from "./capture";
import { webConvert } from "./convert";
import { sheetsToPage } from "./sheets";
import { svgToPdf } from "./svg";
import { textToPage } from "./text";

/** The web rows. */
export const WEB_HANDLERS: OperationHandler[] = [captureWebsite, webConvert, sheetsToPage, textToPage, svgToPdf];
