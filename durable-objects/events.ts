/**
 * EventsDO: a socket.io hub (issue 18; contract §1.8). It holds the WebSocket connections of live
 * event subscribers with the hibernation API, so an idle subscriber costs no CPU and no duration:
 * the client's pongs are answered by the runtime's auto-response (`3` → `6`, Engine.IO's noop)
 * without waking the object, which wakes only for a subscription, a delivery and its ping alarm.
 *
 * The protocol is Engine.IO v4 over the websocket transport (what the SDKs ask for) with socket.io
 * v5 packets inside, framed by engine.io-parser and socket.io-parser. The client emits
 * `subscribe` with `{channel, auth: {headers: {Authorization: "Bearer KEY"}}}`; the hub checks the
 * key and that the channel is the caller's, records `sub (sid, channel)` and registers itself with
 * the object that produces the channel's events (the JobDO of the job or task; the user's
 * AccountDO for user channels, which passes it to every new job and, through the index shards, to
 * the jobs running at the time of subscribing: issue 31). Those objects call `deliver`.
 * A refused subscription is answered with `subscription_error` (channel, {message}).
 *
 * Several hubs share the load (`hub-0` … `hub-{HUBS-1}`, src/events/hubs.ts), chosen at random per
 * connection by the Worker, so no single object sees every subscriber.
 */
import { meterAlarm, meterObject } from "../src/meter/meter";
import { DurableObject } from "cloudflare:workers";
import { decodePacket, encodePacket, type Packet as EioPacket } from "engine.io-parser";
import { Decoder, Encoder, PacketType, type Packet } from "socket.io-parser";
import { accountStub, jobStub, type Env } from "../src/env";
import { findTask } from "../src/account/index-shards";
import { parseKeys, type User } from "../src/security/keys";
import { parseChannel, type LiveEvent } from "../src/events/channels";

/** Engine.IO heartbeat (ms): the hub pings every PING_INTERVAL; a client that hears nothing for PING_INTERVAL + PING_TIMEOUT reconnects. */
export const PING_INTERVAL_MS = 25_000;
export const PING_TIMEOUT_MS = 20_000;
/** Largest message a client may send (bytes); a subscribe is a few hundred. */
const MAX_PAYLOAD = 16 * 1024;
/** Most channels one connection may subscribe to. */
const MAX_CHANNELS = 1_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS settings (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sub (sid TEXT NOT NULL, channel TEXT NOT NULL, user TEXT NOT NULL, PRIMARY KEY (sid, channel));
CREATE INDEX IF NOT EXISTS sub_channel ON sub (channel);
`;

const eio = (p: EioPacket): string => {
  let out = "";
  encodePacket(p, false, (s) => (out = s as string));
  return out;
};
/** One socket.io packet on the default namespace, as Engine.IO message text. */
const sio = (p: Omit<Packet, "nsp">): string =>
  eio({ type: "message", data: new Encoder().encode({ nsp: "/", ...p } as Packet)[0] as string });
const randomId = (): string =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(15))))
    .replace(/\+/g, "-")
    .replace(/\//g, "_");

export class EventsDO extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, rawEnv: Env) {
    const env = meterObject(ctx, rawEnv);
    super(ctx, env);
    ctx.storage.sql.exec(SCHEMA);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("3", "6"));
  }

  /** The WebSocket upgrade of GET /socket.io/?EIO=4&transport=websocket; `x-hub` names this hub. */
  async fetch(req: Request): Promise<Response> {
    const name = req.headers.get("x-hub");
    if (name) this.ctx.storage.sql.exec("INSERT OR REPLACE INTO settings VALUES ('name', ?)", name);
    const pair = new WebSocketPair();
    const sid = randomId();
    this.ctx.acceptWebSocket(pair[1], [sid]);
    pair[1].serializeAttachment({ sid });
    pair[1].send(
      eio({
        type: "open",
        data: JSON.stringify({
          sid,
          upgrades: [],
          pingInterval: PING_INTERVAL_MS,
          pingTimeout: PING_TIMEOUT_MS,
          maxPayload: MAX_PAYLOAD,
        }),
      }),
    );
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + PING_INTERVAL_MS);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (typeof message !== "string" || message.length > MAX_PAYLOAD) return ws.close(1009, "message too large");
    const p = decodePacket(message);
    if (p.type === "close") return ws.close(1000, "closed by the client");
    if (p.type === "ping") return ws.send(eio({ type: "pong", data: p.data }));
    if (p.type !== "message" || typeof p.data !== "string") return;
    let packet: Packet | undefined;
    const decoder = new Decoder();
    decoder.on("decoded", (d: Packet) => (packet = d));
    try {
      decoder.add(p.data);
    } catch {
      return ws.close(1002, "invalid socket.io packet");
    } finally {
      decoder.destroy();
    }
    if (!packet) return;
    const { sid } = ws.deserializeAttachment() as { sid: string };
    if (packet.type === PacketType.CONNECT) {
      if (packet.nsp !== "/")
        return ws.send(
          eio({
            type: "message",
            data: new Encoder().encode({
              type: PacketType.CONNECT_ERROR,
              nsp: packet.nsp,
              data: { message: "Invalid namespace" },
            })[0] as string,
          }),
        );
      return ws.send(sio({ type: PacketType.CONNECT, data: { sid } }));
    }
    if (packet.type !== PacketType.EVENT || !Array.isArray(packet.data)) return;
    const [name, body] = packet.data as [
      unknown,
      { channel?: unknown; auth?: { headers?: Record<string, unknown> } } | undefined,
    ];
    if (name === "subscribe") await this.subscribe(ws, sid, body);
    else if (name === "unsubscribe" && typeof body?.channel === "string") await this.drop(sid, body.channel);
  }

  async webSocketClose(ws: WebSocket): Promise<void> {
    await this.closed(ws);
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    await this.closed(ws);
  }

  /** Engine.IO heartbeat: pings every open connection; re-armed while any remain. */
  async alarm(): Promise<void> {
    meterAlarm(this.env);
    const sockets = this.ctx.getWebSockets();
    for (const ws of sockets) {
      try {
        ws.send("2");
      } catch {
        // closing: its close handler cleans up
      }
    }
    if (sockets.length) await this.ctx.storage.setAlarm(Date.now() + PING_INTERVAL_MS);
  }

  /**
   * Sends events to this hub's subscribers of their channels, in the order given. Answers the
   * channels nobody here listens on any more (the sender forgets this hub for them).
   */
  async deliver(events: LiveEvent[]): Promise<string[]> {
    const dead = new Set<string>();
    for (const e of events) {
      const sids = this.sql<{ sid: string }>("SELECT sid FROM sub WHERE channel = ?", e.channel);
      if (!sids.length) dead.add(e.channel);
      const text = sio({ type: PacketType.EVENT, data: [e.event, e.channel, e.data] });
      for (const { sid } of sids)
        for (const ws of this.ctx.getWebSockets(sid)) {
          try {
            ws.send(text);
          } catch {
            // closing
          }
        }
    }
    return [...dead];
  }

  private async subscribe(
    ws: WebSocket,
    sid: string,
    body: { channel?: unknown; auth?: { headers?: Record<string, unknown> } } | undefined,
  ): Promise<void> {
    const channel = typeof body?.channel === "string" ? body.channel : "";
    const refuse = (message: string) =>
      ws.send(sio({ type: PacketType.EVENT, data: ["subscription_error", channel, { message }] }));
    const c = parseChannel(channel);
    if (!c) return refuse("Unknown channel.");
    const user = this.userOf(body?.auth?.headers);
    if (!user) return refuse("Unauthenticated.");
    if (this.sql("SELECT 1 AS x FROM sub WHERE sid = ? AND channel = ?", sid, channel).length) return;
    if (this.sql<{ n: number }>("SELECT COUNT(*) AS n FROM sub WHERE sid = ?", sid)[0].n >= MAX_CHANNELS)
      return refuse(`At most ${MAX_CHANNELS} channels per connection.`);
    // The row first: events the producer sends while it registers us must find their listener.
    const since = Date.now();
    this.ctx.storage.sql.exec("INSERT INTO sub VALUES (?, ?, ?)", sid, channel, user.name);
    let final: LiveEvent[] | null;
    try {
      final = await this.register(c, channel, user, since);
    } catch (err) {
      console.error(`subscribing ${channel} failed:`, err);
      final = null;
    }
    if (final === null) {
      this.ctx.storage.sql.exec("DELETE FROM sub WHERE sid = ? AND channel = ?", sid, channel);
      return refuse("This channel is not yours, or does not exist.");
    }
    for (const e of final) ws.send(sio({ type: PacketType.EVENT, data: [e.event, e.channel, e.data] }));
  }

  /**
   * Registers this hub with the channel's producer; the events a late subscriber gets at once, or
   * null when refused. A user channel goes to the account home with `since`, the time of the
   * subscription: the user's running jobs send the hub their events from then on (issue 31).
   */
  private async register(
    c: NonNullable<ReturnType<typeof parseChannel>>,
    channel: string,
    user: User,
    since: number,
  ): Promise<LiveEvent[] | null> {
    const hub = this.name();
    switch (c.kind) {
      case "job":
      case "job-tasks":
        return jobStub(this.env, c.id).liveSubscribe(hub, channel, user.name);
      case "task": {
        const at = await findTask(this.env, user.name, c.id);
        return at ? jobStub(this.env, at.holder).liveSubscribe(hub, channel, user.name) : null;
      }
      default:
        if (c.user !== user.num) return null;
        await accountStub(this.env, user.name).liveSubscribeUser(hub, channel, user.name, since);
        return [];
    }
  }

  private userOf(headers: Record<string, unknown> | undefined): User | undefined {
    const value = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === "authorization")?.[1];
    const m = typeof value === "string" ? /^Bearer\s+(.+)$/i.exec(value) : null;
    return m ? parseKeys(this.env.API_KEYS).get(m[1].trim()) : undefined;
  }

  private async closed(ws: WebSocket): Promise<void> {
    const { sid } = (ws.deserializeAttachment() ?? {}) as { sid?: string };
    if (!sid) return;
    for (const r of this.sql<{ channel: string }>("SELECT channel FROM sub WHERE sid = ?", sid))
      await this.drop(sid, r.channel);
  }

  /** Removes one subscription; the last listener of a user channel here unregisters the hub from the account. */
  private async drop(sid: string, channel: string): Promise<void> {
    const row = this.sql<{ user: string }>("SELECT user FROM sub WHERE sid = ? AND channel = ?", sid, channel)[0];
    if (!row) return;
    this.ctx.storage.sql.exec("DELETE FROM sub WHERE sid = ? AND channel = ?", sid, channel);
    const c = parseChannel(channel);
    const last = !this.sql("SELECT 1 AS x FROM sub WHERE channel = ? LIMIT 1", channel).length;
    if (last && c && (c.kind === "user-jobs" || c.kind === "user-tasks")) {
      await accountStub(this.env, row.user)
        .liveUnsubscribeUser(this.name(), channel, row.user)
        .catch((err: unknown) => console.error("unsubscribing failed:", err));
    }
  }

  private name(): string {
    return this.sql<{ v: string }>("SELECT v FROM settings WHERE k = 'name'")[0]?.v ?? "hub-0";
  }

  private sql<T = Record<string, unknown>>(query: string, ...args: unknown[]): T[] {
    return this.ctx.storage.sql.exec(query, ...args).toArray() as T[];
  }
}
