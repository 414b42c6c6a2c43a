/**
 * An OperationContext for running handlers in Node tests. By default it holds the engines every
 * host has (the platform and pdf-lib, pure JavaScript); `engines`, `taskFiles` and the rest can be
 * overridden (`settings` field by field).
 */
import { createPdfLibEngine } from "../../src/engines/pdflib/engine";
import type { OperationContext } from "../../src/operations/types";
import { MemoryFileStore } from "../../src/storage/file-store";

const pdflib = createPdfLibEngine();

export function testContext(over: Partial<OperationContext> = {}): OperationContext {
  return {
    signal: new AbortController().signal,
    taskName: "task",
    taskId: "00000000-0000-4000-8000-000000000001",
    jobId: "00000000-0000-4000-8000-000000000002",
    files: new MemoryFileStore(),
    ...over,
    engines: { cloudflare: {}, pdflib, ...over.engines },
    settings: {
      allowPrivateImports: false,
      maxImportBytes: 100 * 1024 * 1024,
      publicBaseUrl: "http://localhost",
      urlSigningSecret: "test",
      fileUrlTtlSeconds: 3600,
      ...over.settings,
    },
    taskFiles: over.taskFiles ?? (async () => []),
  };
}
