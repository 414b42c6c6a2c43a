/**
 * The platform's floor for `npm run bench -- api` (issue 20): the same job as the benchmark's
 * (a small file in, the same file out behind a URL) done with only the platform steps the service
 * cannot avoid — R2 put of the input; a new SQLite Durable Object with one row; a Queue send; the
 * consumer claiming by RPC; R2 get + put; the object marking it done and waking the waiter — and
 * none of the service's own work (validation, task objects, the account, signing, webhooks).
 *   POST /jobs {file, filename} → 201 {id}      GET /jobs/{id}/wait → 200 {status, url} when done
 */
import { DurableObject } from "cloudflare:workers";

interface Env {
  JOBS: DurableObjectNamespace<FloorJob>;
  FILES: R2Bucket;
  TASKS: Queue<{ id: string }>;
}

export class FloorJob extends DurableObject<Env> {
  private waiters: (() => void)[] = [];

  async create(id: string): Promise<void> {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS job (id TEXT PRIMARY KEY, status TEXT NOT NULL)");
    this.ctx.storage.sql.exec("INSERT INTO job VALUES (?, 'waiting')", id);
  }

  async claim(): Promise<boolean> {
    return this.ctx.storage.sql.exec("UPDATE job SET status = 'processing' WHERE status = 'waiting'").rowsWritten === 1;
  }

  async done(): Promise<void> {
    this.ctx.storage.sql.exec("UPDATE job SET status = 'finished'");
    for (const w of this.waiters.splice(0)) w();
  }

  async wait(): Promise<string> {
    const status = () => this.ctx.storage.sql.exec<{ status: string }>("SELECT status FROM job").one().status;
    while (status() !== "finished") await new Promise<void>((r) => this.waiters.push(r));
    return status();
  }
}

export default {
  async fetch(req: Request, env: Env): Promise<Response> {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === "/jobs") {
      const body = (await req.json()) as { file: string; filename: string };
      const id = crypto.randomUUID();
      await env.FILES.put(`${id}/in`, body.file, { customMetadata: { filename: body.filename } });
      await env.JOBS.getByName(id).create(id);
      await env.TASKS.send({ id });
      return Response.json({ id }, { status: 201 });
    }
    const m = /^\/jobs\/([0-9a-f-]{36})\/wait$/.exec(url.pathname);
    if (m) {
      const status = await env.JOBS.getByName(m[1]).wait();
      return Response.json({ id: m[1], status, url: `${url.origin}/files/${m[1]}` });
    }
    return new Response("ok");
  },
  async queue(batch: MessageBatch<{ id: string }>, env: Env): Promise<void> {
    await Promise.all(
      batch.messages.map(async (msg) => {
        const job = env.JOBS.getByName(msg.body.id);
        if (await job.claim()) {
          const obj = await env.FILES.get(`${msg.body.id}/in`);
          await env.FILES.put(`${msg.body.id}/out`, await obj!.arrayBuffer(), { customMetadata: obj!.customMetadata });
          await job.done();
        }
        msg.ack();
      }),
    );
  },
} satisfies ExportedHandler<Env, { id: string }>;
