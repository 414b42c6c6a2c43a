/**
 * Live events over socket.io (issue 18; contract §1.8): GET /socket.io/?EIO=4&transport=websocket
 * is handed to one of the socket.io hubs (EventsDO), chosen at random so no single object holds
 * every subscriber. Authentication happens per subscription, inside the protocol (the SDK sends its
 * key with each `subscribe`), so the upgrade itself is open. Long-polling is not offered: the SDKs
 * connect with `transports: ['websocket']`; a polling request is answered as engine.io does.
 */
import { Hono } from "hono";
import { eventsStub } from "../env";
import { HUBS } from "../events/hubs";
import type { AppEnv } from "./context";

export const live = new Hono<AppEnv>();

live.all("/socket.io/*", async (c) => {
  const transport = c.req.query("transport");
  if (c.req.query("EIO") !== "4") return c.json({ code: 5, message: "Unsupported protocol version" }, 400);
  if (transport !== "websocket" || c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ code: 0, message: "Transport unknown: connect with transports: ['websocket']" }, 400);
  }
  const hub = `hub-${Math.floor(Math.random() * HUBS)}`;
  const headers = new Headers(c.req.raw.headers);
  headers.set("x-hub", hub);
  return eventsStub(c.env, hub).fetch(new Request(c.req.raw.url, { headers }));
});
