/**
 * Live events of one job (issue 18): a part of the JobDO. Socket.io hubs (EventsDO) that hold a
 * subscriber of one of this job's channels are rows of `live (hub, channel)`; every committed
 * status change becomes events (src/events/channels.ts) sent, in order, to the hubs listening on
 * their channels, and to this object's Server-Sent Events streams. The same observer of changes
 * that queues the account notice (webhooks) produces them, so both see one sequence.
 *
 * Delivery is best-effort and ordered per hub (one promise chain each); a hub that answers that
 * nobody listens on a channel any more loses its row. A subscriber that arrives after the job (or
 * task) ended is answered with the final event at once, so a fast job never misses `finished`.
 */
import { eventName, jobChannels, parseChannel, taskChannels, type LiveEvent } from "../../src/events/channels";
import { isTerminal } from "../../src/model/status";
import type { JobJson, TaskJson } from "../../src/model/types";
import type { TaskRow } from "../../src/model/rows";
import type { JobMachine } from "./machine";
import type { Change } from "./transitions";

const TABLE = "CREATE TABLE IF NOT EXISTS live (hub TEXT NOT NULL, channel TEXT NOT NULL, PRIMARY KEY (hub, channel))";

/** What the part needs from its object: the v2 views and a hub's `deliver` (answers channels nobody listens on). */
export interface LiveHost {
  job(): JobJson;
  task(t: TaskRow): TaskJson;
  deliver(hub: string, events: LiveEvent[]): Promise<string[]>;
}

/** One Server-Sent Events stream of this job (GET /v2/jobs/{id}/events). */
interface SseStream {
  writer: WritableStreamDefaultWriter<Uint8Array>;
}

export class Live {
  private table = false;
  private chains = new Map<string, Promise<void>>();
  private streams = new Set<SseStream>();
  private enc = new TextEncoder();

  constructor(
    private m: JobMachine,
    private host: LiveHost,
  ) {}

  /**
   * When each (hub, channel) was last registered here, in `registrations` (a counter, in memory: a
   * delivery in flight is in memory too), so a hub's "nobody listens" answer about an older batch
   * does not remove a registration made after that batch was sent.
   */
  private registered = new Map<string, number>();
  private registrations = 0;

  /** Whether any hub listens here: null until read (kept in memory: only this part writes `live`). */
  private listening: boolean | null = null;

  /** Creates the table on the first subscription: a job nobody watches writes nothing for live events. */
  private ensure(): void {
    if (!this.table) (this.m.db.write(TABLE), (this.table = true));
  }

  /** Forgets the table flag: after the object's storage was deleted, or `fresh` when it was just created (no table, nobody listens). */
  forget(fresh = false): void {
    this.table = false;
    this.listening = fresh ? false : null;
    for (const s of this.streams) void s.writer.close().catch(() => undefined);
    this.streams.clear();
  }

  /**
   * Adds hub `hub` as a listener of `channel` (one of this job's) and answers the events a late
   * subscriber must get at once: the final event of an ended job, or of each ended task for a
   * task channel. Empty while the job or task is still running (its events follow as they happen).
   */
  subscribe(hub: string, channel: string): LiveEvent[] {
    this.ensure();
    this.registered.set(`${hub}\n${channel}`, ++this.registrations);
    this.m.db.write("INSERT OR IGNORE INTO live VALUES (?, ?)", hub, channel);
    this.listening = true;
    return this.finalEvents(channel);
  }

  /**
   * Hubs with subscribers of the user's channels (issue 18, issue 31). Two paths bring them: the
   * index shard's answer to this job's registration (every hub listening then; `since` absent), and
   * the index shard when a user channel is subscribed while this job runs (`since`: the hub's time
   * of the subscription, AccountHome.liveSubscribeUser). Only a (hub, channel) this job did not have
   * yet counts; it gets this job's events from now on (`observe`), and at once the `created` and end
   * events of what happened at or after `since` — before its row existed here, so not sent to it.
   * That makes each event reach the hub exactly once whatever the order of the two paths and of the
   * job's own changes: an event happens either before the row is written (then it is sent here, in
   * the same turn as the write, when it is not older than the subscription) or after (then
   * `observe` sends it). Events older than the subscription are not sent (CloudConvert: a user
   * channel hears events from the moment of subscribing); `updated` events are not sent again.
   */
  addUserHubs(rows: { hub: string; channel: string }[], since = -Infinity): void {
    if (!rows.length) return;
    this.ensure();
    const added = rows.filter((r) => {
      this.registered.set(`${r.hub}\n${r.channel}`, ++this.registrations);
      return this.m.db.write("INSERT OR IGNORE INTO live VALUES (?, ?) RETURNING hub", r.hub, r.channel).length > 0;
    });
    if (!added.length) return;
    this.listening = true;
    const job = this.m.job()!;
    const at = (t: number | null) => t !== null && t >= since;
    const events: LiveEvent[] = [];
    const jobs = `private-user.${job.user_num}.jobs`;
    const tasks = `private-user.${job.user_num}.tasks`;
    if (!job.standalone && at(job.created_at))
      events.push({ channel: jobs, event: "job.created", data: { job: this.host.job() } });
    for (const t of this.m.tasks()) {
      const created = at(t.created_at);
      const ended = isTerminal(t.status) && at(t.ended_at);
      if (!created && !ended) continue;
      const task = this.host.task(t);
      if (created) events.push({ channel: tasks, event: "task.created", data: { task } });
      if (ended) events.push({ channel: tasks, event: eventName("task", t.status), data: { task } });
    }
    if (!job.standalone && isTerminal(job.status) && at(job.ended_at))
      events.push({ channel: jobs, event: eventName("job", job.status), data: { job: this.host.job() } });
    this.toHubs(events, added);
  }

  /** The observer of committed changes (registered by the JobDO beside the waiters). */
  observe(changes: Change[], created: string[] = []): void {
    const job = this.m.job();
    if (!job || (!this.streams.size && !this.hasListeners())) return;
    const standalone = job.standalone === 1;
    const events: LiveEvent[] = [];
    for (const id of created) {
      const t = this.m.task(id);
      if (t)
        for (const channel of taskChannels(t.id, job.id, job.user_num, standalone))
          events.push({ channel, event: "task.created", data: { task: this.host.task(t) } });
    }
    for (const c of changes) {
      if (c.kind === "task") {
        const t = this.m.task(c.id);
        if (!t) continue;
        const task = this.host.task(t);
        for (const channel of taskChannels(t.id, job.id, job.user_num, standalone))
          events.push({ channel, event: eventName("task", c.to), data: { task } });
      } else {
        const data = { job: this.host.job() };
        for (const channel of jobChannels(job.id, job.user_num, standalone))
          events.push({ channel, event: eventName("job", c.to), data });
      }
    }
    this.send(events);
  }

  /** A task's progress (`percent`) moved without a status change: `task.updated` to its listeners. */
  progressed(taskId: string): void {
    const job = this.m.job();
    const t = job ? this.m.task(taskId) : null;
    if (!job || !t || (!this.streams.size && !this.hasListeners())) return;
    const task = this.host.task(t);
    this.send(
      taskChannels(t.id, job.id, job.user_num, job.standalone === 1).map((channel) => ({
        channel,
        event: "task.updated",
        data: { task },
      })),
    );
  }

  /**
   * Opens a Server-Sent Events stream of this job's job and task events: the current job first
   * (`job.updated`, or its final event, after which the stream ends), then every event as it happens.
   */
  stream(): ReadableStream<Uint8Array> {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const s: SseStream = { writer: writable.getWriter() };
    const job = this.m.job()!;
    const jobJson = this.host.job();
    const first: LiveEvent = {
      channel: `private-job.${job.id}`,
      event: isTerminal(job.status) ? eventName("job", job.status) : "job.updated",
      data: { job: jobJson },
    };
    void s.writer.write(this.sse(first)).catch(() => undefined);
    if (isTerminal(job.status)) void s.writer.close().catch(() => undefined);
    else this.streams.add(s);
    return readable;
  }

  private sse(e: LiveEvent): Uint8Array {
    return this.enc.encode(`event: ${e.event}\ndata: ${JSON.stringify({ channel: e.channel, ...e.data })}\n\n`);
  }

  private hasListeners(): boolean {
    if (this.listening === null) {
      this.table = this.m.db.one("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'live'") !== null;
      this.listening = this.table && this.m.db.one("SELECT 1 AS x FROM live LIMIT 1") !== null;
    }
    return this.listening;
  }

  private finalEvents(channel: string): LiveEvent[] {
    const c = parseChannel(channel);
    const job = this.m.job();
    if (!c || !job) return [];
    if (c.kind === "job")
      return isTerminal(job.status) && !job.standalone
        ? [{ channel, event: eventName("job", job.status), data: { job: this.host.job() } }]
        : [];
    const tasks =
      c.kind === "task" ? this.m.tasks().filter((t) => t.id === c.id) : c.kind === "job-tasks" ? this.m.tasks() : [];
    return tasks
      .filter((t) => isTerminal(t.status))
      .map((t) => ({ channel, event: eventName("task", t.status), data: { task: this.host.task(t) } }));
  }

  /** Sends events to the SSE streams and, grouped per hub in order, to the hubs listening on their channels. */
  private send(events: LiveEvent[]): void {
    if (!events.length) return;
    const job = this.m.job();
    for (const s of this.streams) {
      for (const e of events)
        if (job && (e.channel === `private-job.${job.id}` || e.channel === `private-job.${job.id}.tasks`))
          void s.writer.write(this.sse(e)).catch(() => this.streams.delete(s));
      if (job && isTerminal(job.status)) (void s.writer.close().catch(() => undefined), this.streams.delete(s));
    }
    if (!this.hasListeners()) return;
    this.toHubs(events, this.m.db.all<{ hub: string; channel: string }>("SELECT hub, channel FROM live"));
  }

  /**
   * Sends events, grouped per hub in order, to the hubs of `rows` listening on their channels. A
   * hub's answer that nobody listens on a channel drops the row, unless the row was registered
   * again after the batch was sent (a new subscriber on that hub: its registration must not be
   * undone by the answer about the one before it).
   */
  private toHubs(events: LiveEvent[], rows: { hub: string; channel: string }[]): void {
    const byHub = new Map<string, LiveEvent[]>();
    for (const e of events)
      for (const r of rows) if (r.channel === e.channel) byHub.set(r.hub, [...(byHub.get(r.hub) ?? []), e]);
    const sentAt = this.registrations;
    for (const [hub, batch] of byHub) {
      const prev = this.chains.get(hub) ?? Promise.resolve();
      const next = prev.then(async () => {
        try {
          const dead = await this.host.deliver(hub, batch);
          for (const channel of dead) {
            if ((this.registered.get(`${hub}\n${channel}`) ?? 0) > sentAt) continue;
            this.m.db.write("DELETE FROM live WHERE hub = ? AND channel = ?", hub, channel);
          }
          if (dead.length) this.listening = null;
        } catch (err) {
          console.error(`live events to ${hub} failed:`, err);
        }
      });
      this.chains.set(hub, next);
      void next.then(() => {
        if (this.chains.get(hub) === next) this.chains.delete(hub);
      });
    }
  }
}
