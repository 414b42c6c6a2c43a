/** An OperationContext for running handlers in Node tests; `engines`, `taskFiles` and the rest can be overridden. */
import type { OperationContext } from "../../src/operations/types";
import { MemoryFileStore } from "../../src/storage/file-store";

export function testContext(over: Partial<OperationContext> = {}): OperationContext {
  return {
    signal: new AbortController().signal,
    taskName: "task",
    taskId: "00000000-0000-4000-8000-000000000001",
    jobId: "00000000-0000-4000-8000-000000000002",
    files: new MemoryFileStore(),
    engines: {},
    settings: { allowPrivateImports: false, maxImportBytes: 100 * 1024 * 1024, publicBaseUrl: "http://localhost", urlSigningSecret: "test", fileUrlTtlSeconds: 3600 },
    taskFiles: async () => [],
    ...over,
  };
}
