/**
 * JobDO: one Durable Object per job (issue 2; DESIGN.md "The flow of one job"). It holds the task
 * graph in SQLite, decides what runs, sends ready tasks to the TASKS queue, takes the runner's
 * reports by RPC, enforces timeouts, leases and retention with one multiplexed alarm, and tells the
 * user's AccountDO about the job's life (index and webhooks).
 *
 * The object is composed of parts (issue 9): the state machine (job/machine.ts, every status change
 * an event of job/transitions.ts), Dispatch (queue sends), Timers (the alarm), Waiters (sync
 * waits), ExternalInputs (standalone tasks' inputs in other objects) and Notices (what others must
 * learn). Observers receive every status change after it commits; live events (issue 18) join
 * there.
 *
 * A standalone task (POST /v2/{operation}) lives in a JobDO of its own with `standalone = 1`;
 * its inputs are task ids of other objects, watched through `watchTask`/`inputSettled`.
 */
import { jobStub, eventsStub } from "../src/env";
import { meterAlarm, meterObject } from "../src/meter/meter";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../src/env";
import type { TaskFailure } from "../src/engines/errors";
import { isTerminal } from "../src/model/status";
import { R2FileStore } from "../src/storage/r2-store";
import type { JobJson, TaskJson } from "../src/model/types";
import type { ClaimedTask, JobEnd, NewJob, Registration, SettledInput, TaskOutcome } from "../src/model/rpc";
import { JobMachine } from "./job/machine";
import { Notices } from "./job/notices";
import { jobView, taskView } from "./job/views";
import type { TaskRow } from "../src/model/rows";
import { Db } from "../src/storage/sql";
import { EXT_INPUT_TABLE, SCHEMA } from "./job/schema";
import { BACKOFF_MS, MAX_ATTEMPTS, type Change } from "./job/transitions";
import { Dispatch } from "./job/dispatch";
import { Slots } from "./job/slots";
import { Timers } from "./job/timers";
import { Waiters } from "./job/waiters";
import { ExternalInputs } from "./job/external";
import { Live } from "./job/live";
import type { LiveEvent } from "../src/events/channels";
import { runsInline, secretKeysOf } from "../src/operations/registry";
import { runTask } from "../src/runner/run-task";
import { runsBesideJob } from "../src/runner/beside";
import type { TaskHost } from "../src/runner/host";
import { indexOf } from "../src/account/index-shards";

/** The claim token of tasks this object runs itself (the queue's tokens are message ids). */
const INLINE_TOKEN = "inline";

/** Refusal of a state change, as data (contract §1.2 "error on invalid state change"). */
export type ChangeRefused = { refused: string };

/** Receives the status changes of one committed change, oldest first. */
export type ChangeObserver = (changes: Change[], now: number) => void;

export class JobDO extends DurableObject<Env> implements TaskHost {
  private m: JobMachine;
  private notices: Notices;
  private dispatch: Dispatch;
  private timers: Timers;
  private waiters = new Waiters();
  private external: ExternalInputs;
  private live: Live;
  /**
   * The object's clock (unix ms) for every timer decision: deadlines, leases, retention. Tests
   * replace it on the instance to move time forward (test/worker/machinery.test.ts); waits of
   * callers (`waitJob`) stay on real time.
   */
  clock: () => number = () => Date.now();
  /** Parts told of every committed status change: waiters and live events (the account notice is queued beside them). */
  private observers: ChangeObserver[] = [
    () => this.waiters.wakeAll(),
    (changes) => this.live.observe(changes),
    (changes) => this.slots.observe(changes),
  ];
  /** The account's concurrency slots of this job's native tasks (issue 48). */
  private slots: Slots;

  constructor(ctx: DurableObjectState, rawEnv: Env) {
    const env = meterObject(ctx, rawEnv);
    super(ctx, env);
    // The schema is created by create(), so that looking up an unknown id writes nothing.
    this.m = new JobMachine(new Db(ctx.storage.sql));
    this.notices = new Notices(this.m);
    this.dispatch = new Dispatch(this.m, env.TASKS);
    this.slots = new Slots(this.m, env);
    this.timers = new Timers(ctx.storage, this.m, this.notices);
    this.external = new ExternalInputs(this.m, this.notices);
    this.live = new Live(this.m, {
      job: () => this.jobJson(true),
      task: (t) => this.taskJson(t),
      deliver: (hub, events) => eventsStub(env, hub).deliver(events),
    });
    // A restart lost the runners of this object's processing tasks: send them again now, not when a stale alarm fires.
    void ctx.blockConcurrencyWhile(() => this.timers.recover(this.clock()));
  }

  /**
   * Creates the job and its tasks, registers it with the account, dispatches ready tasks. Answers the job as it is
   * after dispatch, or for a standalone task without inputs as it was created (its task `waiting` until it runs).
   */
  async create(n: NewJob): Promise<JobJson> {
    const now = this.clock();
    this.ctx.storage.sql.exec(n.standalone ? `${SCHEMA};${EXT_INPUT_TABLE}` : SCHEMA);
    this.notices.forget(true);
    this.live.forget(true);
    this.m.transaction(this.ctx.storage, () => {
      this.m.createJob({
        id: n.jobId,
        user_name: n.userName,
        user_num: n.userNum,
        tag: n.tag,
        standalone: n.standalone ? 1 : 0,
        webhook_url: n.webhookUrl,
        base_url: n.baseUrl,
        retention_s: n.retentionS,
        created_at: now,
      });
      for (const t of n.tasks) this.m.insertTask(t, now);
      this.external.record(n.externalInputs ?? []);
    });
    // A standalone task answers its create as it was created, before it is sent to run: CloudConvert's POST
    // /v2/import/url answers `waiting` (the PHP SDK's TaskTest::testCreateImportUrlTask asserts it, and its recorded
    // task_created.json agrees). A job's answer stays the state after dispatch (an inline job ends in it, issue 20).
    const asCreated = n.standalone && !n.externalInputs?.length ? jobView(this.m, true) : null;
    // Every write of creation happens in this first turn (one storage commit). A job's end notices are
    // held until it is registered (see below), including an end right here (ingress tasks only).
    if (!n.externalInputs?.length) this.notices.hold();
    const dispatch = n.externalInputs?.length ? [] : this.applyRules(now);
    const registration: Registration = {
      user: n.userName,
      jobId: n.jobId,
      standalone: n.standalone,
      tag: n.tag,
      createdAt: now,
      taskIds: n.tasks.map((t) => ({ id: t.id, operation: t.operation })),
      job: n.standalone ? null : this.jobJson(true),
      webhookUrl: n.webhookUrl,
    };
    if (n.externalInputs?.length) {
      await this.register(registration, now);
      for (const e of n.externalInputs) {
        const settled = await jobStub(this.env, e.jobId).watchTask(e.taskId, n.jobId);
        if (settled) this.external.settled(settled);
      }
      await this.afterChange(now);
    } else {
      // Dispatch first, register after: a job that ends right here (inline tasks, issue 20) is
      // registered with its end in one call to the account, where it took two. Until then its end
      // notice is held, so the account always learns of the job before its end (E-order).
      const published = await this.publish(dispatch, now).then(
        () => null,
        (err: unknown) => ({ err }),
      );
      await this.register(registration, now);
      if (published) throw published.err;
    }
    return asCreated ?? this.jobJson(true);
  }

  /**
   * Registers the job with its index shard (the account's first news of it), with the job's end
   * when it already ended (the held end notice goes along). Releases the notices held since
   * creation: the rest, or all when the call failed, become rows that are delivered now or by the alarm. The user's
   * live-event hubs come back in the answer. @throws the account call's error (the notices stay for the alarm).
   */
  private async register(r: Registration, now: number): Promise<void> {
    const end = this.notices.heldEnd();
    try {
      const hubs = await this.account().registerJob({ ...r, ended: end === null ? null : this.endOf(end) });
      this.notices.release(end !== null);
      this.live.addUserHubs(hubs);
    } catch (err) {
      this.accountCache = undefined;
      this.notices.release(false);
      await this.timers.arm(now);
      throw err;
    }
    await this.tell(now);
  }

  /** The job as v2 JSON, or null when this object holds no job (unknown id). */
  async getJob(includeTasks: boolean): Promise<(JobJson & { _owner: string }) | null> {
    const job = this.m.job();
    if (!job) return null;
    return { ...this.jobJson(includeTasks), _owner: job.user_name };
  }

  /** One task as v2 JSON with the asked includes, or null. */
  async getTask(taskId: string): Promise<TaskJson | null> {
    const t = this.m.task(taskId);
    return t ? this.taskJson(t) : null;
  }

  /** Every task row as v2 JSON (GET /v2/tasks lists), oldest first. */
  async listTasks(): Promise<TaskJson[]> {
    return this.m.tasks().map((t) => this.taskJson(t));
  }

  /**
   * Live events (issue 18): hub `hub` listens on `channel` of this job for user `owner`. Answers the
   * events a late subscriber gets at once (see Live.subscribe), or null when this object holds no
   * job of that user (no existence leak).
   */
  async liveSubscribe(hub: string, channel: string, owner: string): Promise<LiveEvent[] | null> {
    const job = this.m.job();
    if (!job || job.user_name !== owner) return null;
    return this.live.subscribe(hub, channel);
  }

  /**
   * Live events (issue 31): hubs with a subscriber of the user's channels that subscribed at
   * `since` (the hub's clock, unix ms) while this job runs — called by the job's index shard, which
   * knows the open jobs, when a user channel is subscribed. They get this job's events from now on,
   * and at once its created and end events not older than `since` (see Live.addUserHubs). Nothing
   * for an object that holds no job (it writes nothing).
   */
  async liveAddUserHubs(rows: { hub: string; channel: string }[], since: number): Promise<void> {
    const job = this.m.job();
    if (!job) return;
    // a standalone task has no job channel (the shard may not know which of its ended jobs are standalone)
    this.live.addUserHubs(job.standalone ? rows.filter((r) => !r.channel.endsWith(".jobs")) : rows, since);
  }

  /** GET /v2/jobs/{id}/events (the owner checked by the caller): a Server-Sent Events stream of this job. */
  async fetch(req: Request): Promise<Response> {
    if (!this.m.job() || new URL(req.url).pathname !== "/events") return new Response(null, { status: 404 });
    return new Response(this.live.stream(), {
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store" },
    });
  }

  /** Blocks until the job ends or `maxMs` passes, then answers its current state (contract §1.1 sync). */
  async waitJob(maxMs: number, owner?: string): Promise<(JobJson & { _owner: string }) | null> {
    if (owner !== undefined && this.m.job()?.user_name !== owner) return null;
    await this.waiters.until(() => {
      const j = this.m.job();
      return !j || isTerminal(j.status);
    }, maxMs);
    return (await this.getJob(true)) ?? null;
  }

  /** Blocks until the task ends or `maxMs` passes. */
  async waitTask(taskId: string, maxMs: number): Promise<TaskJson | null> {
    await this.waiters.until(() => {
      const t = this.m.task(taskId);
      return !t || isTerminal(t.status);
    }, maxMs);
    return this.getTask(taskId);
  }

  /**
   * Runner: claim a sent task (its lease starts; renew it with `renewLease`). `messageId` is the
   * queue message's id. Null when not claimable: ended, or claimed by a live runner through
   * another message (a duplicate).
   */
  async claimTask(taskId: string, messageId?: string): Promise<ClaimedTask | null> {
    return this.m.claim(taskId, this.clock(), messageId);
  }

  /**
   * Runner heartbeat for attempt `attempt`, with the operation's progress `percent` (0–100) when it
   * reports one. False: that attempt no longer holds the task (cancelled, timed out, superseded); stop.
   */
  async renewLease(taskId: string, attempt: number, percent?: number): Promise<boolean> {
    const before = percent === undefined ? undefined : this.m.task(taskId)?.percent;
    const held = this.m.renew(taskId, attempt, this.clock(), percent);
    if (held && percent !== undefined && this.m.task(taskId)?.percent !== before) this.live.progressed(taskId);
    return held;
  }

  /** Runner: the task succeeded. Stale reports (wrong attempt, already ended) are ignored. */
  async completeTask(taskId: string, attempt: number, o: TaskOutcome): Promise<void> {
    const now = this.clock();
    const done = this.m.transaction(this.ctx.storage, () => {
      const files = o.files.map(({ filename, size }) => ({ filename, size }));
      const moved = this.m.move(
        taskId,
        "complete",
        { now, result: { files, ...o.extra }, credits: o.credits, engine: o.engine, engineVersion: o.engineVersion },
        (t) => t.attempts === attempt,
      );
      if (moved) this.m.setFiles(taskId, o.files);
      return moved;
    });
    if (done) await this.afterChange(now);
  }

  /**
   * Runner: the task failed. Retryable failures are sent again after a back-off while attempts and
   * time remain. `attempt` -1 (the dead-letter consumer) matches any attempt.
   */
  async failTask(
    taskId: string,
    attempt: number,
    f: TaskFailure,
    engine?: { name: string; version: string },
  ): Promise<void> {
    const now = this.clock();
    const mine = (t: TaskRow) => attempt === -1 || t.attempts === attempt;
    const t = this.m.task(taskId);
    if (!t || !mine(t)) return;
    const delayMs = BACKOFF_MS * 2 ** Math.max(0, t.attempts - 1);
    if (f.retryable && t.attempts < MAX_ATTEMPTS && now + delayMs < (t.deadline ?? Infinity)) {
      if (!this.m.move(taskId, "requeue", { now, delayMs }, mine)) return;
      await this.timers.arm(now);
      await this.dispatch.send([taskId], now, Math.ceil(delayMs / 1000));
      return;
    }
    if (
      this.m.move(
        taskId,
        "fail",
        { now, code: f.code, message: f.message, engine: engine?.name, engineVersion: engine?.version },
        mine,
      )
    )
      await this.afterChange(now);
  }

  /** Upload endpoint: the file of a waiting import/upload task is in the FileStore. */
  async uploadReceived(
    taskId: string,
    file: { filename: string; size: number; key: string; contentType?: string },
  ): Promise<TaskJson | ChangeRefused> {
    const now = this.clock();
    const t = this.m.task(taskId);
    if (!t || t.mode !== "upload") return { refused: "This task does not accept uploads." };
    const moved = this.m.transaction(this.ctx.storage, () => {
      const ok = this.m.move(taskId, "upload", {
        now,
        result: { files: [{ filename: file.filename, size: file.size }] },
        credits: 0,
        engine: "cloudflare",
        engineVersion: "1",
      });
      if (ok) this.m.setFiles(taskId, [file]);
      return ok;
    });
    if (!moved) return { refused: "Cannot change status: task already completed." };
    await this.afterChange(now);
    return this.taskJson(this.m.task(taskId)!);
  }

  /** Cancels a waiting or processing task: it ends in error with code CANCELLED (contract §2.3); its runner stops at its next heartbeat. */
  async cancelTask(taskId: string): Promise<TaskJson | ChangeRefused | null> {
    const now = this.clock();
    if (!this.m.task(taskId)) return null;
    if (!this.m.move(taskId, "cancel", { now, code: "CANCELLED", message: "The task was cancelled." }))
      return { refused: "Cannot change status: task already completed." };
    await this.afterChange(now);
    return this.taskJson(this.m.task(taskId)!);
  }

  /**
   * Retries an ended task as a new task (retry_of_task_id, copy_of_task_id = old id, contract §1.2).
   * Decided in one synchronous turn, so concurrent retries of one task make exactly one retry; the
   * others are refused while it has not ended (issue 10).
   */
  async retryTask(taskId: string, newId: string): Promise<TaskJson | ChangeRefused | null> {
    const now = this.clock();
    const t = this.m.task(taskId);
    if (!t) return null;
    if (!isTerminal(t.status)) return { refused: "Cannot retry: the task has not ended yet." };
    if (t.mode !== "queue") return { refused: `Cannot retry ${t.operation}: create a new import task instead.` };
    if (secretKeysOf(t.operation).some((k) => JSON.parse(t.payload)[k] !== undefined))
      return {
        refused: `Cannot retry ${t.operation}: its credentials are not kept after a task ends; create a new ${t.operation} task with them.`,
      };
    const latest = this.m.effective().find((r) => r.name === t.name);
    if (latest && !isTerminal(latest.status))
      return { refused: `Cannot retry: retry ${latest.id} of this task has not ended yet.` };
    const job = this.m.job()!;
    this.m.insertTask(
      {
        id: newId,
        name: t.name,
        operation: t.operation,
        mode: "queue",
        params: JSON.parse(t.params),
        payload: JSON.parse(t.payload),
        inputs: JSON.parse(t.inputs),
        ignoreError: t.ignore_error === 1,
        timeoutS: t.timeout_s,
        retryOf: t.id,
      },
      now,
    );
    this.live.observe([], [newId]);
    const dispatch = this.applyRules(now);
    await Promise.all([
      this.account().registerTask(newId, job.id, job.standalone ? null : job.id, t.operation, now),
      this.publish(dispatch, now),
    ]);
    return this.taskJson(this.m.task(newId)!);
  }

  /** Deletes one task and its files. Deleting the last task of a standalone object deletes the object. */
  async deleteTask(taskId: string): Promise<boolean> {
    if (!this.m.task(taskId)) return false;
    const job = this.m.job()!;
    // Rows first, in one turn, so a concurrent retry or cancel sees the task gone, not half-deleted.
    const keys = this.m.transaction(this.ctx.storage, () => {
      const k = this.m.files(taskId).map((f) => f.key);
      this.m.db.run("DELETE FROM file WHERE task_id = ?", taskId);
      this.m.db.run("DELETE FROM task WHERE id = ?", taskId);
      return k;
    });
    await this.env.FILES.delete(keys);
    await this.account().forgetTask(taskId);
    if (this.m.tasks().length === 0 && job.standalone) await this.deleteJob();
    else await this.afterChange(this.clock());
    return true;
  }

  /** Deletes the job, its tasks and files, and its index entries (DELETE /v2/jobs/{id}; retention). */
  async deleteJob(): Promise<boolean> {
    const job = this.m.job();
    if (!job) return false;
    await new R2FileStore(this.env.FILES).deletePrefix(`jobs/${job.id}/`);
    await this.account().forgetJob(
      job.id,
      this.m.tasks().map((t) => t.id),
    );
    this.waiters.wakeAll();
    await this.ctx.storage.deleteAll();
    this.m.forget();
    this.notices.forget();
    this.timers.forget();
    this.live.forget();
    return true;
  }

  /** Another object's standalone task takes `taskId` as input: answer now if it ended, else remember. */
  async watchTask(taskId: string, watcherJobId: string): Promise<SettledInput | null> {
    return this.external.watch(taskId, watcherJobId);
  }

  /** A watched external input ended. */
  async inputSettled(s: SettledInput): Promise<void> {
    this.external.settled(s);
    await this.afterChange(this.clock());
  }

  /** The account's gate granted slots to `taskIds` (issue 48): those still held are sent to the queue. */
  async slotGranted(taskIds: string[]): Promise<void> {
    const now = this.clock();
    const send = this.slots.granted(taskIds, now, this.ctx.storage);
    if (send.length === 0) return;
    await this.timers.arm(now);
    await this.dispatch.send(send, now);
  }

  /** Of `taskIds`, those of this job not ended: the gate's check for slots whose release was lost. */
  async activeTasks(taskIds: string[]): Promise<string[]> {
    return this.slots.active(taskIds);
  }

  /** Timeouts, lapsed leases and retention (one alarm multiplexing every timer, platform §2). */
  async alarm(): Promise<void> {
    meterAlarm(this.env);
    this.timers.fired();
    this.m.invalidate();
    const now = this.clock();
    const job = this.m.job();
    if (!job) return;
    if (job.expires_at !== null && job.expires_at <= now) {
      await this.deleteJob();
      return;
    }
    const resend = this.m.transaction(this.ctx.storage, () => this.m.sweepTimers(now));
    await this.dispatch.send(resend, now);
    await this.afterChange(now);
  }

  /**
   * After every change: propagate failures, dispatch ready tasks, wake waiters, re-arm the alarm,
   * then deliver what others must learn (watchers, the account). Those deliveries are rows first
   * (`notice`, `watcher`) and are retried by the alarm until they succeed, so nothing is lost.
   */
  private async afterChange(now: number): Promise<void> {
    if (!this.m.job()) return;
    await this.publish(this.applyRules(now), now);
  }

  /** The synchronous half of a change: graph rules, job status, the account notice, observers. Returns task ids to dispatch. */
  private applyRules(now: number): string[] {
    const { dispatch } = this.m.transaction(this.ctx.storage, () => this.m.settle(now));
    const ending = this.m.transaction(this.ctx.storage, () => this.m.deriveJobStatus(now));
    if (ending) {
      const j = this.m.job()!;
      const notice = {
        jobId: j.id,
        status: ending,
        endedAt: now,
        credits: this.credits(),
        job: j.standalone ? null : this.jobJson(true),
        webhookUrl: j.standalone ? null : j.webhook_url,
      };
      this.notices.add(notice);
    }
    const changes = this.m.drain();
    for (const o of this.observers) o(changes, now);
    return dispatch;
  }

  /**
   * The asynchronous half: re-arm the alarm, send ready tasks to the queue (or run them here when
   * they are pure platform work, OperationHandler.inline: no queue hop, issue 20; or here and unawaited
   * when only the Chrome engine can run them, runner/beside.ts, issue 37), deliver notices.
   * An inline task is claimed like a queued one after the alarm covers its lease, so if this object
   * dies mid-run the alarm sends it to the queue (at-least-once, as for every task).
   */
  private async publish(dispatch: string[], now: number): Promise<void> {
    if (!this.m.job()) return;
    const inline = dispatch.filter((id) => {
      const t = this.m.task(id);
      return !!t && runsInline(t.operation, JSON.parse(t.params));
    });
    const beside = dispatch.filter((id) => {
      const t = this.m.task(id);
      return (
        !!t && !inline.includes(id) && runsBesideJob(this.env, t.operation, JSON.parse(t.params), this.m.inputsOf(t))
      );
    });
    const queued =
      inline.length || beside.length ? dispatch.filter((id) => !inline.includes(id) && !beside.includes(id)) : dispatch;
    const send = queued.length ? await this.slots.admit(queued, now, this.ctx.storage) : queued;
    await this.timers.arm(now);
    if (!(await this.dispatch.send(send, now))) await this.timers.arm(now);
    await this.slots.release();
    const jobId = this.m.job()!.id;
    // not awaited (runner/beside.ts): the call that dispatched them answers now; the lease covers them
    for (const taskId of beside)
      void runTask(this.env, { jobId, taskId }, INLINE_TOKEN, this.asHost).catch((err: unknown) =>
        console.error(`task ${taskId} run beside its job failed to report:`, err),
      );
    if (inline.length)
      await Promise.all(inline.map((taskId) => runTask(this.env, { jobId, taskId }, INLINE_TOKEN, this.asHost)));
    await this.tell(now);
  }

  /**
   * Delivers what others must learn (the account, watching objects); once an ended job has told
   * everyone, its alarm is moved to what is left (retention) rather than waking 5 s later to find
   * the notices gone.
   */
  private async tell(now: number): Promise<void> {
    await this.notices.deliver({
      jobEnded: (body) =>
        this.account()
          .jobEnded(this.endOf(body))
          .catch((err: unknown) => {
            this.accountCache = undefined;
            throw err;
          }),
      inputSettled: (watcher, settled) => jobStub(this.env, watcher).inputSettled(settled),
    });
    const job = this.m.job();
    if (job && isTerminal(job.status) && !this.notices.pending()) await this.timers.arm(now, true);
  }

  /** A notice body (applyRules) as the index shard takes it: with the job's user. */
  private endOf(body: unknown): JobEnd {
    return { ...(body as Omit<JobEnd, "user">), user: this.m.job()!.user_name };
  }

  private credits(): number {
    return this.m.tasks().reduce((sum, t) => sum + (t.status === "finished" ? (t.credits ?? 0) : 0), 0);
  }

  /** This object as the runner's host of an inline task: the same calls a queued runner makes by RPC. */
  private readonly asHost: TaskHost = {
    claimTask: (id, token) => this.claimTask(id, token),
    renewLease: (id, attempt, percent) => this.renewLease(id, attempt, percent),
    completeTask: (id, attempt, o) => this.completeTask(id, attempt, o),
    failTask: (id, attempt, f, engine) => this.failTask(id, attempt, f, engine),
  };

  /**
   * The user's index shard of this job (src/account/index-shards.ts): one stub for the object's life, so
   * calls arrive in the order sent; dropped after a failure (a broken stub stays broken).
   */
  private accountCache?: ReturnType<typeof indexOf>;
  private account() {
    const job = this.m.job()!;
    return (this.accountCache ??= indexOf(this.env, job.user_name, job.id));
  }

  /**
   * The job's v2 JSON; with tasks it is built once per state of the rows (a job is serialized for
   * its registration, its end notice, the create answer and the wait, often in one state). Callers
   * never mutate it: it is copied by RPC or stringified.
   */
  private jobJson(includeTasks: boolean): JobJson {
    if (!includeTasks) return jobView(this.m, false);
    const version = this.m.stateVersion;
    if (this.jobMemo?.version !== version) this.jobMemo = { version, json: jobView(this.m, true) };
    return this.jobMemo.json;
  }
  private jobMemo?: { version: number; json: JobJson };

  private taskJson(t: TaskRow): TaskJson {
    return taskView(this.m, t);
  }
}
