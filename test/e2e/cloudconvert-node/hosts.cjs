// Redirects the hosts of cloudconvert-node 3.0.0's own integration tests to the local server
// (contract §5.1, option 2): api/sync hosts in global fetch, and the socket.io host the SDK
// hard-codes. Loaded with `mocha --require`; CC_BASE is the server's origin. Nothing else changes.
"use strict";
const base = process.env.CC_BASE;
if (!base) throw new Error("CC_BASE is not set");
const API = /^https:\/\/(?:(?!sync\.)[a-z0-9-]+\.)?(sync\.)?api(?:\.sandbox)?\.cloudconvert\.com\/v2\//;
const rewrite = (url) => url.replace(API, (_m, sync) => `${base}/${sync ? "sync/" : ""}v2/`);
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  if (typeof input === "string" || input instanceof URL) return realFetch(rewrite(String(input)), init);
  return realFetch(new Request(rewrite(input.url), input), init);
};
const sio = require("socket.io-client");
const realIo = sio.io;
sio.io = (url, opts) => realIo(/^https:\/\/socketio(\.sandbox)?\.cloudconvert\.com/.test(String(url)) ? base : url, opts);
