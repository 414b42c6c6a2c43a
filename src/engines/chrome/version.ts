/**
 * Engine identity of the Chrome engine (Cloudflare Browser Rendering) for the engine table: the
 * version is the Chrome that @cloudflare/puppeteer 1.4 (puppeteer 22.13.1) speaks to; each task
 * reports the browser's own version at run time (Debian's Chromium under `npm start`).
 */
export const CHROME_ENGINE = { name: "chrome", version: "126.0.6478.182" } as const;
