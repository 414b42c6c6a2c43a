/**
 * How a store's answer becomes a task error (issue 35): codes where retrying cannot help, and
 * retryable failures (network errors, 5xx, 429) left to the runner's retries with back-off — never
 * the signer's, because a streamed body cannot be sent twice. Messages carry the store's own words
 * (its error code and message) and never a credential.
 */
import { TaskError } from "../engines/errors";

/** What was being done, for the message and the code of a failure that is not the caller's fault. */
export type StoreStep = "list" | "download" | "upload" | "authenticate";

/**
 * The task error for a store's HTTP answer `status` with the store's `detail` (its error code and
 * message, already free of secrets). `permission` names what the credentials lack on 403 (e.g.
 * "s3:GetObject"); `badCredentials` says the store reported the credentials themselves as wrong
 * (S3 SignatureDoesNotMatch/InvalidAccessKeyId, Azure AuthenticationFailed).
 */
export function storeError(
  store: string,
  step: StoreStep,
  status: number,
  detail: string,
  opts: { permission?: string; badCredentials?: boolean; what?: string } = {},
): TaskError {
  const said = detail ? `: ${detail}` : "";
  const what = opts.what ? ` ${opts.what}` : "";
  if (status === 401 || opts.badCredentials)
    return new TaskError("INVALID_CREDENTIALS", `${store} refused the credentials (HTTP ${status})${said}`);
  if (status === 403)
    return new TaskError(
      "PERMISSION_DENIED",
      `${store} denied ${step}${what}${opts.permission ? ` (the credentials need ${opts.permission})` : ""} (HTTP 403)${said}`,
    );
  if (status === 404) return new TaskError("FILE_NOT_FOUND", `${store}: not found${what} (HTTP 404)${said}`);
  const retryable = status >= 500 || status === 429 || status === 408;
  return new TaskError(
    step === "upload" ? "UPLOAD_FAILED" : "DOWNLOAD_FAILED",
    `${store} answered HTTP ${status} to the ${step}${what}${said}`,
    { retryable },
  );
}

/** The task error for a request that got no answer at all (refused connection, DNS, TLS): retryable. */
export function unreachable(store: string, step: StoreStep, where: string, err: unknown): TaskError {
  if (err instanceof TaskError) return err;
  const msg = (err as Error)?.message ?? String(err);
  return new TaskError(
    step === "upload" ? "UPLOAD_FAILED" : "DOWNLOAD_FAILED",
    `${store} at ${where} could not be reached: ${msg}`,
    {
      retryable: true,
      cause: err,
    },
  );
}
