/**
 * The v2 API as one Hono app: resources mounted in order (specific routes before the standalone
 * POST /v2/{operation} catch-all), one error mapping, JSON 404s.
 */
import { Hono } from "hono";
import type { AppEnv } from "./context";
import { notFound, onError } from "./errors";
import { files } from "./files";
import { jobs } from "./jobs";
import { live } from "./live";
import { signedUrlBases, signedUrls } from "./signed-urls";
import { operations } from "./operations";
import { tasks } from "./tasks";
import { uploads } from "./uploads";
import { users } from "./users";

export const app = new Hono<AppEnv>();

app.get("/", (c) => c.json({ name: "edge-convert", api: "CloudConvert v2 compatible", docs: `${new URL(c.req.url).origin}/v2/operations` }));
app.route("/", live);
app.route("/", signedUrls);
app.route("/", signedUrlBases);
app.route("/", operations);
app.route("/", uploads);
app.route("/", files);
app.route("/", users);
app.route("/", jobs);
app.route("/", tasks);
app.notFound(() => {
  throw notFound();
});
app.onError(onError);
