/**
 * The account home role of AccountDO: the object `{user}`, one per user, holding what is per user
 * and rarely written — settings (created_at, the signing secret of job webhooks), the account
 * webhooks and their persisted outbox with retries on the alarm (contract §1.6, §4), signed-URL
 * bases (contract §1.7) and the hubs listening on the user's live-event channels. Called by the api
 * Worker (users, webhooks, signed URLs), by the index shards (emitJobEvent, hasAnyWebhook) and by
 * the socket.io hubs (liveSubscribeUser, liveUnsubscribeUser); it pushes webhook and channel changes
 * to the user's 16 index shards (replicate), so a job touches home only when a webhook is due.
 *
 * Tables: `settings`, `live_user`, `webhooks`, `outbox` (webhooks.ts), `signed_bases`,
 * `signed_cache` (signed-bases.ts).
 */
import type { Env } from "../../src/env";
import type { JobJson } from "../../src/model/types";
import type { WebhookEvent } from "../../src/model/rpc";
import { INDEX_SHARDS, indexStub } from "../../src/account/index-shards";
import { Db } from "../../src/storage/sql";
import { Outbox } from "./outbox";
import { WEBHOOK_SCHEMA, Webhooks, type WebhookJson } from "./webhooks";
import { SIGNED_SCHEMA, SignedBases, type SignedBaseJson } from "./signed-bases";
import type { LiveUser, Replica } from "./index-shard";

const HOME_SCHEMA = `
CREATE TABLE IF NOT EXISTS settings (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS live_user (hub TEXT NOT NULL, channel TEXT NOT NULL, PRIMARY KEY (hub, channel));
`;

export class AccountHome {
  private db: Db;
  private hooks: Webhooks;
  private outbox: Outbox;
  private signed: SignedBases;
  /** The hubs listening on the user's channels, once read. */
  private live?: LiveUser[];

  /** The home of object `ctx`; creates its tables. `clock` (unix ms) times webhook retries. */
  constructor(
    ctx: DurableObjectState,
    private env: Env,
    clock: () => number,
  ) {
    ctx.storage.sql.exec(HOME_SCHEMA + WEBHOOK_SCHEMA + SIGNED_SCHEMA);
    this.db = new Db(ctx.storage.sql);
    this.hooks = new Webhooks(this.db);
    this.signed = new SignedBases(this.db);
    this.outbox = new Outbox(this.db, ctx.storage, env.ALLOW_PRIVATE_IMPORTS === "true", clock);
  }

  /** Queues a job event for the account webhooks and the job's `webhookUrl` (called by the index shards). */
  async emitJobEvent(event: WebhookEvent, job: JobJson, webhookUrl: string | null): Promise<void> {
    const body = JSON.stringify({ event, job });
    const targets = this.hooks
      .subscribed(event)
      .map((h) => ({ webhookId: h.id, url: h.url, secret: h.signing_secret }));
    if (webhookUrl && event !== "job.created")
      targets.push({ webhookId: null as unknown as string, url: webhookUrl, secret: this.signingSecret() });
    if (targets.length) await this.outbox.enqueue(targets, body);
  }

  /** Whether the account has webhooks (an index shard asks once, then home pushes changes). */
  async hasAnyWebhook(): Promise<boolean> {
    return this.hooks.list(undefined, "").length > 0;
  }

  /**
   * Hub `hub` has a subscriber of `private-user.{id}.jobs|tasks` (checked to be `user`'s by the hub),
   * subscribed at `since` (the hub's clock): jobs created from now on send it their events (the
   * shards answer it to their registrations), and the user's jobs running now are told by their
   * shards (`added`, issue 31), which know them — home itself stays off every job's path.
   */
  async liveSubscribeUser(hub: string, channel: string, user: string, since = Date.now()): Promise<void> {
    this.live = undefined;
    this.db.run("INSERT OR IGNORE INTO live_user VALUES (?, ?)", hub, channel);
    const liveVersion = this.nextLiveVersion();
    await this.pushToShards(user, { liveUser: this.liveUser(), liveVersion, added: { hub, channel, since } });
  }

  /** Hub `hub` has no subscriber of `channel` any more. */
  async liveUnsubscribeUser(hub: string, channel: string, user: string): Promise<void> {
    this.live = undefined;
    this.db.run("DELETE FROM live_user WHERE hub = ? AND channel = ?", hub, channel);
    const liveVersion = this.nextLiveVersion();
    await this.pushToShards(user, { liveUser: this.liveUser(), liveVersion });
  }

  /** Account facts for GET /v2/users/me (credits are summed over the index shards by the caller, index-shards.ts). */
  async me(): Promise<{ createdAt: number; signingSecret: string }> {
    return {
      createdAt: Number(this.setting("created_at", () => String(Date.now()))),
      signingSecret: this.signingSecret(),
    };
  }

  async createWebhook(url: string, events: WebhookEvent[], baseUrl: string, user: string): Promise<WebhookJson> {
    const hook = this.hooks.create(url, events, baseUrl);
    await this.pushToShards(user, { hasWebhooks: true });
    return hook;
  }

  async listWebhooks(filterUrl: string | undefined, baseUrl: string): Promise<WebhookJson[]> {
    return this.hooks.list(filterUrl, baseUrl);
  }

  async deleteWebhook(id: string, user: string): Promise<boolean> {
    const gone = this.hooks.delete(id);
    if (gone) await this.pushToShards(user, { hasWebhooks: await this.hasAnyWebhook() });
    return gone;
  }

  /** Signed-URL bases (issue 18, contract §1.7): create, list, delete, and what /s/{base} needs. */
  async createSignedBase(id: string, origin: string): Promise<SignedBaseJson> {
    return this.signed.create(id, Date.now(), origin);
  }

  async listSignedBases(origin: string): Promise<SignedBaseJson[]> {
    return this.signed.list(origin);
  }

  async deleteSignedBase(id: string): Promise<boolean> {
    return this.signed.delete(id);
  }

  /** The base's signing secret, or null for an unknown base. */
  async signedBaseSecret(id: string): Promise<string | null> {
    return this.signed.secret(id);
  }

  /** The job a `cacheKey` of base `id` ran in the last 24 h, or null. */
  async signedCached(id: string, cacheKey: string): Promise<string | null> {
    return this.signed.cached(id, cacheKey, Date.now());
  }

  async rememberSigned(id: string, cacheKey: string, jobId: string): Promise<void> {
    this.signed.remember(id, cacheKey, jobId, Date.now());
  }

  /** Delivers due webhook calls (persisted outbox; retries with back-off; 410 disables, contract §4). */
  async alarm(): Promise<void> {
    await this.outbox.deliverDue(
      (id) => this.hooks.disable(id),
      (id) => this.hooks.markFailing(id),
    );
  }

  /** Numbers a change of the hub list (Replica.liveVersion): shards keep the newest list whatever order pushes arrive in. */
  private nextLiveVersion(): number {
    const v = Number(this.setting("live_version", () => "0")) + 1;
    this.db.run("UPDATE settings SET v = ? WHERE k = 'live_version'", String(v));
    return v;
  }

  private liveUser(): LiveUser[] {
    return (this.live ??= this.db.all<LiveUser>("SELECT hub, channel FROM live_user"));
  }

  /** Sends `r` to every index shard of `user` (rare: webhook and user-channel changes). */
  private async pushToShards(user: string, r: Replica): Promise<void> {
    await Promise.all(Array.from({ length: INDEX_SHARDS }, (_, s) => indexStub(this.env, user, s).replicate(r)));
  }

  private signingSecret(): string {
    return this.setting("signing_secret", () =>
      [...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, "0")).join(""),
    );
  }

  private setting(k: string, init: () => string): string {
    const r = this.db.one<{ v: string }>("SELECT v FROM settings WHERE k = ?", k);
    if (r) return r.v;
    const v = init();
    this.db.run("INSERT INTO settings VALUES (?, ?)", k, v);
    return v;
  }
}
