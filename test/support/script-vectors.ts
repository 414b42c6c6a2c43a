/**
 * Ways an HTML document runs a script with nobody clicking (issue 37): each vector, written into a page, calls
 * `window.RAN()` — from its own document, or from a frame of the same origin reaching its parent. Shared by the unit
 * test of guard.ts mayRunScript (every vector must be flagged) and test/e2e/script-vectors.test.ts, which checks in
 * Chromium that each one really runs, so the table holds real vectors only.
 */
export interface ScriptVector {
  name: string;
  html: string;
}

const call = "window.RAN&&RAN()";
const parentCall = "parent.RAN&&parent.RAN()";

export const SCRIPT_VECTORS_RUN: ScriptVector[] = [
  { name: "<script>", html: `<p>x</p><script>${call}</script>` },
  { name: "<SCRIPT> in capitals", html: `<SCRIPT>${call}</SCRIPT>` },
  { name: "<script> with a module type", html: `<script type="module">${call}</script>` },
  { name: "<svg><script>", html: `<svg><script>${call}</script></svg>` },
  { name: "img onerror", html: `<img src="data:image/png;base64,AA" onerror="${call}">` },
  { name: "img/onerror with / separators", html: `<img/src="data:,x"/onerror="${call}">` },
  { name: "ONERROR in capitals with a tab before =", html: `<img src="data:,x" ONERROR\t="${call}">` },
  { name: "svg onload", html: `<svg onload="${call}"></svg>` },
  { name: "body onload", html: `<body onload="${call}"><p>x</p></body>` },
  { name: "details ontoggle (open)", html: `<details open ontoggle="${call}"><summary>s</summary>x</details>` },
  { name: "input autofocus onfocus", html: `<input autofocus onfocus="${call}">` },
  { name: "style onload", html: `<style onload="${call}">p{}</style>` },
  {
    name: "iframe srcdoc (same origin, character-referenced)",
    html: `<iframe srcdoc="&lt;script&gt;${parentCall}&lt;/script&gt;"></iframe>`,
  },
  { name: "iframe src javascript:", html: `<iframe src="javascript:${parentCall}"></iframe>` },
  {
    name: "object data: about:blank then script via onload",
    html: `<object data="data:text/html,x" onload="${call}"></object>`,
  },
  { name: "embed onload", html: `<embed src="data:text/html,x" onload="${call}">` },
];

/**
 * Ways an HTML document makes the page fetch, each aimed at `base` (a loopback server counting requests): at load, or
 * while page.pdf prints (a background only print media shows). guard.ts mayFetch must flag each;
 * test/e2e/script-vectors.test.ts checks in Chromium that each one requests `base`.
 */
export const fetchVectors = (base: string): ScriptVector[] => [
  { name: "img src", html: `<img src="${base}/img.png">` },
  { name: "img src unquoted", html: `<img src=${base}/img2.png>` },
  { name: "img srcset", html: `<img srcset="${base}/srcset.png 1x">` },
  {
    name: "lazy img below a tall block (fetched for the print)",
    html: `<div style="height:3000px"></div><img loading="lazy" src="${base}/lazy.png">`,
  },
  { name: "stylesheet link", html: `<link rel="stylesheet" href="${base}/s.css"><p>x</p>` },
  { name: "CSS url() in a style attribute", html: `<p style="background-image:url(${base}/bg.png)">x</p>` },
  { name: "CSS @import", html: `<style>@import "${base}/import.css";</style><p>x</p>` },
  { name: "CSS image-set()", html: `<p style='background-image:image-set("${base}/set.png" 1x)'>x</p>` },
  {
    name: "a background only print media shows",
    html: `<style>@media print { p { background-image: url(${base}/print.png) } }</style><p>x</p>`,
  },
  { name: "video poster", html: `<video poster="${base}/poster.png" width="10" height="10"></video>` },
  { name: "body background", html: `<body background="${base}/body.png"><p>x</p></body>` },
  {
    name: "SVG image href",
    html: `<svg width="10" height="10"><image href="${base}/svgimage.png" width="10" height="10"/></svg>`,
  },
  {
    name: "@font-face src",
    html: `<style>@font-face{font-family:F;src:url(${base}/f.woff)} p{font-family:F}</style><p>x</p>`,
  },
];
