/**
 * The pure part of POST /v2/jobs's validation (issue 2, issue 45): a body already read and bounded
 * (api/json-depth.ts) checked for its task graph, its tag and its webhook_url, with no I/O — what api/create.ts runs
 * before anything is stored, and what the unit fuzz test (test/unit/json-bounds-fuzz.test.ts) throws bodies at.
 */
import { parseJobTasks, type TaskSpec } from "../graph/parse";
import { TASK_CATALOG } from "../operations/validate";
import { refuseUrl } from "../security/ssrf";
import { invalid, type FieldErrors } from "./errors";

/**
 * The pure part of a job's validation (no I/O): its task graph with each task's parameters, its tag and its
 * webhook_url — what POST /v2/jobs checks after reading the body (api/json-depth.ts bounds it first). `allowPrivate`
 * is ALLOW_PRIVATE_IMPORTS (a webhook_url may name a private address).
 * @throws ApiError 422 INVALID_DATA naming the task and field of every problem found
 */
export function validateJobBody(
  body: Record<string, unknown>,
  allowPrivate: boolean,
): { parsed: { specs: TaskSpec[] }; tag: string | null; webhookUrl: string | null } {
  const parsed = parseJobTasks(body.tasks, TASK_CATALOG);
  if ("errors" in parsed) throw invalid(parsed.errors);
  const errors: FieldErrors = {};
  const tag = body.tag ?? null;
  if (tag !== null && (typeof tag !== "string" || tag.length > 255))
    errors.tag = ["tag must be a string of at most 255 characters."];
  const webhookUrl = checkWebhookUrl(allowPrivate, body.webhook_url, errors);
  if (Object.keys(errors).length) throw invalid(errors);
  return { parsed, tag: tag as string | null, webhookUrl };
}

/** The webhook_url, or null when absent; a refused one adds its reason to `errors`. */
function checkWebhookUrl(allowPrivate: boolean, raw: unknown, errors: FieldErrors): string | null {
  if (raw === undefined || raw === null || raw === "") return null;
  const why = typeof raw === "string" ? refuseUrl(raw, allowPrivate) : "webhook_url must be a URL.";
  if (why) errors.webhook_url = [why];
  return raw as string;
}
