/**
 * AccountDO: the Durable Object class of a user's account objects, in two roles chosen by the
 * object's name (src/account/index-shards.ts):
 * - `{user}`: the account home (account/home.ts) — settings, webhooks and their outbox, signed-URL
 *   bases, the hubs listening on the user's channels;
 * - `{user}#0` … `{user}#f`: an index shard (account/index-shard.ts) — the user's jobs and tasks
 *   whose id ends in that hex digit, open-job counts, credits;
 * - `{user}#gate`: the account's concurrency gate (account/gate.ts) — the slots of the user's native tasks.
 * One class serves both so that the `ACCOUNTS` binding and its migration (wrangler.toml) stay as
 * they are: this facade only routes each RPC method to its role, created with its own tables on
 * the first call. A home answers the index's reads from the entries it made before sharding.
 */
import { DurableObject } from "cloudflare:workers";
import { meterAlarm, meterObject } from "../src/meter/meter";
import type { Env } from "../src/env";
import type { JobJson } from "../src/model/types";
import type { JobEnd, Registration, TaskLocation, WebhookEvent } from "../src/model/rpc";
import { AccountHome } from "./account/home";
import { IndexShard, type LiveUser, type Replica } from "./account/index-shard";
import { AccountGate, type SlotRequest } from "./account/gate";
import { accountConcurrency, GATE_SUFFIX } from "../src/account/gate";
import type { WebhookJson } from "./account/webhooks";
import type { SignedBaseJson } from "./account/signed-bases";

export class AccountDO extends DurableObject<Env> {
  /** The object's clock (unix ms) for webhook retry timing; tests replace it on the instance (test/worker/webhooks.test.ts). */
  clock: () => number = () => Date.now();
  /**
   * True for an index shard `{user}#k`, false for a home `{user}` (user names have no `#`:
   * security/keys.ts); undefined when the runtime does not tell the name (then each call picks its role).
   */
  private readonly isShard: boolean | undefined;
  /** True for the gate `{user}#gate` (then `isShard` is false too: it takes no index calls). */
  private readonly isGate: boolean;
  private homeRole?: AccountHome;
  private gateRole?: AccountGate;
  private shardRole?: IndexShard;
  private legacyRole?: IndexShard | null;

  constructor(ctx: DurableObjectState, rawEnv: Env) {
    const env = meterObject(ctx, rawEnv);
    super(ctx, env);
    const name = ctx.id.name;
    this.isGate = name?.endsWith(GATE_SUFFIX) ?? false;
    this.isShard = name === undefined ? undefined : name.includes("#") && !this.isGate;
  }

  /** The gate role. @throws on a home or an index shard */
  private gate(): AccountGate {
    if (this.ctx.id.name !== undefined && !this.isGate) throw new Error("only `{user}#gate` takes gate calls");
    return (this.gateRole ??= new AccountGate(this.ctx, this.env, () => this.clock()));
  }

  /** The home role. @throws on an index shard (a caller sent a home call to a shard) */
  private home(): AccountHome {
    if (this.isShard === true || this.isGate) throw new Error("an account index shard or gate has no home calls");
    return (this.homeRole ??= new AccountHome(this.ctx, this.env, () => this.clock()));
  }

  /** The index shard role. @throws on a home (index writes go to the shards only) */
  private shard(): IndexShard {
    if (this.isShard === false) throw new Error("an account home takes no index writes");
    return (this.shardRole ??= new IndexShard(this.ctx, this.env));
  }

  /** The index for reads: the shard's, or on a home its entries from before sharding (null: none). */
  private index(): IndexShard | null {
    if (this.isShard !== false) return this.shard();
    if (this.legacyRole === undefined) this.legacyRole = IndexShard.legacy(this.ctx, this.env);
    return this.legacyRole;
  }

  // Index shard: written by the JobDO and home.

  registerJob(r: Registration): Promise<LiveUser[]> {
    return this.shard().registerJob(r);
  }

  replicate(r: Replica): Promise<void> {
    return this.shard().replicate(r);
  }

  registerTask(
    taskId: string,
    holder: string,
    jobId: string | null,
    operation: string,
    createdAt: number,
  ): Promise<void> {
    return this.shard().registerTask(taskId, holder, jobId, operation, createdAt);
  }

  jobEnded(e: JobEnd): Promise<void> {
    return this.shard().jobEnded(e);
  }

  forgetJob(jobId: string, taskIds: string[]): Promise<void> {
    return this.shard().forgetJob(jobId, taskIds);
  }

  forgetTask(taskId: string): Promise<void> {
    return this.shard().forgetTask(taskId);
  }

  // Index reads (src/account/index-shards.ts reads every shard and home).

  async creditsUsed(): Promise<number> {
    return (await this.index()?.creditsUsed()) ?? 0;
  }

  async openJobs(): Promise<number> {
    return (await this.index()?.openJobs()) ?? 0;
  }

  async findTask(taskId: string): Promise<TaskLocation | null> {
    return (await this.index()?.findTask(taskId)) ?? null;
  }

  async listJobs(q: {
    status?: string;
    tag?: string;
    offset: number;
    limit: number;
  }): Promise<{ id: string; created_at: number }[]> {
    return (await this.index()?.listJobs(q)) ?? [];
  }

  async listTasks(q: {
    jobId?: string;
    operation?: string;
    offset: number;
    limit: number;
  }): Promise<{ id: string; holder: string; created_at: number }[]> {
    return (await this.index()?.listTasks(q)) ?? [];
  }

  // Home: called by the api Worker, the index shards and the socket.io hubs.

  emitJobEvent(event: WebhookEvent, job: JobJson, webhookUrl: string | null): Promise<void> {
    return this.home().emitJobEvent(event, job, webhookUrl);
  }

  hasAnyWebhook(): Promise<boolean> {
    return this.home().hasAnyWebhook();
  }

  liveSubscribeUser(hub: string, channel: string, user: string, since?: number): Promise<void> {
    return this.home().liveSubscribeUser(hub, channel, user, since);
  }

  liveUnsubscribeUser(hub: string, channel: string, user: string): Promise<void> {
    return this.home().liveUnsubscribeUser(hub, channel, user);
  }

  me(): Promise<{ createdAt: number; signingSecret: string }> {
    return this.home().me();
  }

  createWebhook(url: string, events: WebhookEvent[], baseUrl: string, user: string): Promise<WebhookJson> {
    return this.home().createWebhook(url, events, baseUrl, user);
  }

  listWebhooks(filterUrl: string | undefined, baseUrl: string): Promise<WebhookJson[]> {
    return this.home().listWebhooks(filterUrl, baseUrl);
  }

  deleteWebhook(id: string, user: string): Promise<boolean> {
    return this.home().deleteWebhook(id, user);
  }

  createSignedBase(id: string, origin: string): Promise<SignedBaseJson> {
    return this.home().createSignedBase(id, origin);
  }

  listSignedBases(origin: string): Promise<SignedBaseJson[]> {
    return this.home().listSignedBases(origin);
  }

  deleteSignedBase(id: string): Promise<boolean> {
    return this.home().deleteSignedBase(id);
  }

  signedBaseSecret(id: string): Promise<string | null> {
    return this.home().signedBaseSecret(id);
  }

  signedCached(id: string, cacheKey: string): Promise<string | null> {
    return this.home().signedCached(id, cacheKey);
  }

  rememberSigned(id: string, cacheKey: string, jobId: string): Promise<void> {
    return this.home().rememberSigned(id, cacheKey, jobId);
  }

  // Gate: called by the JobDO (src/account/gate.ts).

  /** Slots for `reqs` under the account's concurrency (ACCOUNT_CONCURRENCY); the ids granted now, the rest wait. */
  acquireSlots(reqs: SlotRequest[]): Promise<string[]> {
    return this.gate().acquire(reqs, accountConcurrency(this.env));
  }

  /** The tasks `taskIds` ended: their slots go to the oldest waiters. */
  releaseSlots(taskIds: string[]): Promise<void> {
    return this.gate().release(taskIds, accountConcurrency(this.env));
  }

  /** Delivers due webhook calls (home) or tells and checks slots (gate); a shard never sets an alarm. */
  async alarm(): Promise<void> {
    meterAlarm(this.env);
    if (this.isGate) await this.gate().alarm(accountConcurrency(this.env));
    else if (this.isShard !== true) await this.home().alarm();
  }
}
