/**
 * Messages between a page (src/browser/index.ts) and the engine's Web Worker (worker.ts).
 * Files travel as Blobs (structured clone: the bytes are not copied through JavaScript).
 */
import type { JobJson } from "../model/types";
import type { JobCapability } from "./capability";

/** Page → worker: run this job. */
export interface RunMessage {
  type: "run";
  id: number;
  job: { tasks?: unknown; tag?: unknown };
  files: Record<string, Blob>;
  /** Where the engines' assets are (the folder of the bundle). */
  assets: string;
}

/** Page → worker: can this job run here (issue 47)? `files`: the filename each import/upload task will be given. */
export interface CapabilityMessage {
  type: "capability";
  id: number;
  job: { tasks?: unknown };
  files: Record<string, string>;
  assets: string;
}

/** Page → worker: stop job `id`. */
export interface CancelMessage {
  type: "cancel";
  id: number;
}

/** Worker → page. */
export type WorkerMessage =
  | { type: "progress"; id: number; job: JobJson }
  | { type: "done"; id: number; job: JobJson; outputs: { task: string; filename: string; blob: Blob }[] }
  | { type: "capability"; id: number; capability: JobCapability }
  | {
      type: "failed";
      id: number;
      error: { message: string; code: string; status?: number; errors?: Record<string, string[]> };
    };
