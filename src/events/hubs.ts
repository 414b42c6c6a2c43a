/**
 * The socket.io hubs (issue 18): live-event subscribers are spread over HUBS EventsDO instances
 * named `hub-0` … `hub-{HUBS-1}`; the Worker picks one at random per connection (api/live.ts).
 */

/** How many hubs the Worker spreads connections over. */
export const HUBS = 8;
