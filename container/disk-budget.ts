/**
 * The native engine's disk budget across calls (issue 45 item 4, "Nothing fills the disk"): a streamed input may be
 * 5 GiB + 512 MiB (NATIVE_MAX_STREAM_MB) and a standard-3 container has ~16 GB of disk, so two large calls at once
 * could fill it and break every other call. Each call reserves disk on admission from the size its request declares
 * (Content-Length, or the part sizes of a framed header), before a byte of it is written, and gives it back when
 * its folder has been removed (answered, failed or aborted). A call that cannot have its share is refused:
 * {@link DiskBudgetTooSmall} (413) when it needs more than the whole budget, {@link DiskBudgetBusy} (503 with
 * Retry-After) when the budget is in use by other calls. In-memory only: one server process, one budget.
 */
import { statfsSync } from "node:fs";

/**
 * Bytes of disk a call reserves per byte its request declares: its inputs written to the call's folder, and as much
 * again for what the tools write from them (a remux or a conversion is of the input's order; the tools' own scratch
 * is small beside it).
 */
export const DISK_PER_DECLARED_BYTE = 2;

/** Seconds a refused call is told to wait (Retry-After) before it tries again: about a large call's run. */
export const DISK_RETRY_AFTER_S = 10;

/** Share of the work folder's free space the default budget takes (the rest: the tools' own temp files, logs). */
export const DEFAULT_FREE_SHARE = 0.9;

/** A call that needs more disk than the whole budget: it can never run here (413). */
export class DiskBudgetTooSmall extends Error {}

/** A call whose disk is not free now: other calls hold the budget (503 with Retry-After: {@link DISK_RETRY_AFTER_S}). */
export class DiskBudgetBusy extends Error {
  /** Seconds to wait before trying again. */
  readonly retryAfterS = DISK_RETRY_AFTER_S;
}

/** Gives a reservation back; calling it again does nothing. */
export type Release = () => void;

/** The budget: how many bytes of disk the calls in flight may hold between them. */
export class DiskBudget {
  /** The budget, bytes. */
  readonly total: number;
  private held = 0;

  /** @param total the budget in bytes (> 0) */
  constructor(total: number) {
    this.total = total;
  }

  /** Bytes reserved by the calls in flight. */
  get inUse(): number {
    return this.held;
  }

  /**
   * Reserves the disk of a call whose request declares `declared` bytes (DISK_PER_DECLARED_BYTE × declared).
   * @returns its release, to call once the call's folder is removed
   * @throws DiskBudgetTooSmall when it needs more than the whole budget | DiskBudgetBusy when it does not fit now
   */
  reserve(declared: number): Release {
    // Node's parser admits only digits in a Content-Length; anything else reserves nothing rather than poisoning the sum
    const bytes = Number.isSafeInteger(declared) && declared > 0 ? declared * DISK_PER_DECLARED_BYTE : 0;
    if (bytes > this.total)
      throw new DiskBudgetTooSmall(
        `The call needs ${bytes} bytes of disk (its ${declared} bytes and room for its answer), more than the native engine's disk budget of ${this.total} bytes (NATIVE_DISK_BUDGET_BYTES).`,
      );
    if (this.held + bytes > this.total)
      throw new DiskBudgetBusy(
        `The native engine's disk budget is in use: the call needs ${bytes} bytes, ${this.total - this.held} of ${this.total} are free; retry after ${DISK_RETRY_AFTER_S} s.`,
      );
    this.held += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= bytes;
    };
  }
}

/**
 * The budget configured by `value` (NATIVE_DISK_BUDGET_BYTES: a whole number of bytes > 0), else
 * DEFAULT_FREE_SHARE of the free space of the file system holding `folder` (the work folder) when the server starts.
 * @throws Error when `value` is set but not a whole number of bytes > 0
 */
export function diskBudgetOf(value: string | undefined, folder: string): DiskBudget {
  if (value !== undefined && value !== "") {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n <= 0)
      throw new Error(`NATIVE_DISK_BUDGET_BYTES must be a whole number of bytes > 0, not ${JSON.stringify(value)}.`);
    return new DiskBudget(n);
  }
  const fs = statfsSync(folder);
  return new DiskBudget(Math.max(1, Math.floor(fs.bavail * fs.bsize * DEFAULT_FREE_SHARE)));
}
