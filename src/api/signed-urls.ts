/**
 * Signed URLs (issue 18; contract §1.7). The API keeps signed-URL bases per user
 * (POST /v2/signed-url-bases → `{id, url, signing_secret}`, GET /v2/users/me/signed-url-bases,
 * DELETE /v2/signed-url-bases/{id}); `url` is what the SDK's `signedUrls.sign(base, secret, job,
 * cacheKey)` takes. GET /s/{base}?job=…[&cache_key=…]&s=… (no Authorization) verifies the
 * signature over the raw URL, runs the job as the base's owner, waits for it and answers 302 to its
 * first exported file; with `cache_key` a finished job of the last 24 h is reused. A tampered,
 * unknown or malformed URL is a 4xx and runs nothing.
 *
 * Which user owns a base is an R2 object `signed-url-bases/{id}` (its text: the user name), so
 * /s/{base} finds the owner's AccountDO without a global index object.
 */
import { Hono } from "hono";
import { accountStub, jobStub } from "../env";
import { verifySignedUrl } from "../security/signed-url";
import type { JobJson } from "../model/types";
import { requireUser } from "./auth";
import { userNamed } from "../security/keys";
import { baseUrlOf, isUuid, maxWaitMs, type AppEnv } from "./context";
import { createJob } from "./create";
import { ApiError, notFound } from "./errors";

const ownerKey = (id: string) => `signed-url-bases/${id}`;

/** The first file of a finished export/url task of `job`, or undefined. */
function exportedUrl(job: JobJson): string | undefined {
  const exp = job.tasks?.find((t) => t.operation === "export/url" && t.status === "finished");
  return (exp?.result?.files as { url?: string }[] | undefined)?.[0]?.url;
}

/** GET /s/{base}: public, mounted before the authenticated resources. */
export const signedUrls = new Hono<AppEnv>();

signedUrls.get("/s/:id", async (c) => {
  const id = c.req.param("id");
  const unknown = () => new ApiError(404, "This signed URL base does not exist.", "NOT_FOUND");
  if (!isUuid(id)) throw unknown();
  const owner = await c.env.FILES.get(ownerKey(id));
  if (!owner) throw unknown();
  const user = userNamed(await owner.text());
  const account = accountStub(c.env, user.name);
  const secret = await account.signedBaseSecret(id);
  if (!secret) throw unknown();
  const v = await verifySignedUrl(c.req.url, secret);
  if ("status" in v) throw new ApiError(v.status, v.message, v.status === 403 ? "INVALID_SIGNATURE" : "INVALID_DATA");
  if (v.cacheKey) {
    const cached = await account.signedCached(id, v.cacheKey);
    const job = cached ? await jobStub(c.env, cached).getJob(true) : null;
    const url = job && job.status === "finished" ? exportedUrl(job) : undefined;
    if (url) return c.redirect(url, 302);
  }
  const body = v.job as { tasks?: Record<string, { operation?: unknown }> } | null;
  if (
    !body ||
    typeof body !== "object" ||
    !Object.values(body.tasks ?? {}).some((t) => t?.operation === "export/url")
  ) {
    throw new ApiError(422, "The given data was invalid.", "INVALID_DATA", {
      tasks: ["The job of a signed URL must contain an export/url task."],
    });
  }
  const created = await createJob(c.env, user, baseUrlOf(c.req.url), body as Record<string, unknown>);
  const job = await jobStub(c.env, created.id).waitJob(maxWaitMs(c.env));
  const url = job && job.status === "finished" ? exportedUrl(job) : undefined;
  if (!job || !url) {
    const failed = job?.tasks?.find((t) => t.status === "error");
    throw new ApiError(
      422,
      failed ? `Task ${failed.name} failed: ${failed.message ?? failed.code}` : "The job did not finish in time.",
      failed?.code ?? "JOB_FAILED",
    );
  }
  if (v.cacheKey) await account.rememberSigned(id, v.cacheKey, job.id);
  return c.redirect(url, 302);
});

/** The API of signed-URL bases (authenticated). */
export const signedUrlBases = new Hono<AppEnv>();
signedUrlBases.use("/v2/signed-url-bases/*", requireUser);
signedUrlBases.use("/v2/signed-url-bases", requireUser);
signedUrlBases.use("/v2/users/me/signed-url-bases", requireUser);

signedUrlBases.post("/v2/signed-url-bases", async (c) => {
  const user = c.get("user");
  const id = crypto.randomUUID();
  // the owner record first: a base that exists in the account is always findable
  await c.env.FILES.put(ownerKey(id), user.name);
  return c.json({ data: await accountStub(c.env, user.name).createSignedBase(id, baseUrlOf(c.req.url)) }, 201);
});

const list = async (c: import("hono").Context<AppEnv>) => {
  const bases = await accountStub(c.env, c.get("user").name).listSignedBases(baseUrlOf(c.req.url));
  return c.json({ data: bases });
};
signedUrlBases.get("/v2/signed-url-bases", list);
signedUrlBases.get("/v2/users/me/signed-url-bases", list);

signedUrlBases.delete("/v2/signed-url-bases/:id", async (c) => {
  const id = c.req.param("id");
  if (!isUuid(id) || !(await accountStub(c.env, c.get("user").name).deleteSignedBase(id))) throw notFound();
  await c.env.FILES.delete(ownerKey(id));
  return c.body(null, 204);
});
