/**
 * The part of `ws` that bench-web-direct.ts uses: ws is installed beside wrangler and puppeteer, and ships no types
 * (its README's API).
 */
declare module "ws" {
  export default class WebSocket {
    constructor(address: string, options?: { perMessageDeflate?: boolean; maxPayload?: number });
    once(event: "open" | "error", listener: (...args: unknown[]) => void): this;
    on(event: "message", listener: (data: Buffer) => void): this;
    on(event: "close", listener: () => void): this;
    send(data: string): void;
    close(): void;
  }
}
