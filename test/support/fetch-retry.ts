/**
 * Setup file of the e2e and browser projects: `fetch` sent again, once, when the connection it reused was closed by
 * the server before any answer (undici's "other side closed", UND_ERR_SOCKET / ECONNRESET). `wrangler dev` closes an
 * idle keep-alive connection on its side while undici may pick it for the next request; a fresh-clone CI failed
 * sdk-office-outputs on exactly this (bytesRead 1.4 MB on that socket, 24 ms into the test), twice in two full runs.
 * Only requests whose body can be sent again are retried (none, a string, bytes, URLSearchParams, FormData); a
 * streamed body is not.
 */
const original = globalThis.fetch;

/** True for the error undici gives when the server closed a reused connection before answering. */
function closedBeforeAnswer(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string } } | undefined)?.cause;
  return err instanceof TypeError && (cause?.code === "UND_ERR_SOCKET" || cause?.code === "ECONNRESET");
}

/** True when `init`'s body can be sent a second time as it is. */
function resendable(input: Parameters<typeof fetch>[0], init?: RequestInit): boolean {
  if (input instanceof Request && input.body) return false;
  const body = init?.body;
  return (
    body === undefined ||
    body === null ||
    typeof body === "string" ||
    body instanceof Uint8Array ||
    body instanceof ArrayBuffer ||
    body instanceof URLSearchParams ||
    body instanceof FormData ||
    body instanceof Blob
  );
}

globalThis.fetch = async function fetchWithOneRetry(input, init) {
  try {
    return await original(input, init);
  } catch (err) {
    if (!closedBeforeAnswer(err) || !resendable(input, init)) throw err;
    return original(input, init);
  }
} as typeof fetch;
