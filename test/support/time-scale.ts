/**
 * How much longer than on a quiet developer machine a test may take here (issue 46 item 6): vitest.config.mts computes
 * it once per run from the cores and the load when the run starts (or takes TEST_TIME_SCALE) and hands it to the test
 * processes in TEST_TIME_SCALE. Timeouts only catch hangs; a slower or busy machine must not turn slow into failed.
 */

/** The run's time scale, ≥ 1 (1 outside vitest). */
export const TIME_SCALE = Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1);

/** `ms` (a timeout with room for a quiet machine of 4 cores) scaled to this run, milliseconds. */
export const scaled = (ms: number): number => Math.round(ms * TIME_SCALE);
