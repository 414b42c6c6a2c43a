/**
 * The console page (issue 18): src/console/index.html, imported by the api Worker as a text module
 * (wrangler.toml [[rules]] type "Text" for *.html). Paste an API key, build a job from an example
 * drawn from GET /v2/operations (or edit its JSON), upload files to its import/upload tasks, watch
 * every task live over the job's Server-Sent Events, download the exported files. The page loads its script
 * (src/console/main.ts and its modules, bundled to /console/console.js by scripts/build-console.mjs) and its styles
 * (/console/console.css) from this origin: nothing inline, nothing sent anywhere but this API.
 */
declare module "*.html" {
  const text: string;
  export default text;
}
