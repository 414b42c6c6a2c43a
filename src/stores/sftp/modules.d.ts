/**
 * Types of the two modules src/stores/sftp loads, for every tsconfig that compiles the operations
 * (node and browser ones have no @cloudflare/workers-types): the part of the npm `ssh2` client (1.17,
 * no bundled types) and of workerd's `cloudflare:sockets` that the store uses. Declarations merge
 * with workers-types' own `cloudflare:sockets` where that is loaded.
 */
declare module "ssh2" {
  import type { EventEmitter } from "node:events";
  export class Client extends EventEmitter {
    connect(config: Record<string, unknown>): this;
    sftp(cb: (err: Error | undefined, sftp: unknown) => void): this;
    end(): this;
  }
}

declare module "cloudflare:sockets" {
  export function connect(address: { hostname: string; port: number }): {
    opened: Promise<unknown>;
    readable: ReadableStream<Uint8Array>;
    writable: WritableStream<Uint8Array>;
    close(): Promise<void>;
  };
}

declare module "ssh2/lib/protocol/crypto.js" {
  /** Settles once ssh2's Poly1305 WASM is instantiated (started when the module loads). */
  export const init: Promise<void>;
}

declare module "*.wasm" {
  const module: WebAssembly.Module; // CompiledWasm: precompiled by wrangler (workerd refuses runtime compilation)
  export default module;
}
