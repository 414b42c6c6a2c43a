/** The account index's shard rules (issue 20): a task id finds its job's shard; pages merge newest first. */
import { describe, expect, it } from "vitest";
import { INDEX_SHARDS, inShard, mergedPage, shardOf, taskIdFor } from "../../src/account/index-shards";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("account index shards", () => {
  it("a task id drawn for a job is a v4 UUID in the job's shard, and shards cover 0…15", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const job = crypto.randomUUID();
      const task = taskIdFor(job);
      expect(task).toMatch(UUID);
      expect(shardOf(task)).toBe(shardOf(job));
      seen.add(shardOf(job));
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: INDEX_SHARDS }, (_, i) => i));
    expect(shardOf(inShard(crypto.randomUUID(), 11))).toBe(11);
  });

  it("merges the shards' pages newest first, ties by id, and cuts the asked page", async () => {
    const a = [
      { id: "a3", created_at: 30 },
      { id: "a1", created_at: 10 },
    ];
    const b = [
      { id: "b2", created_at: 20 },
      { id: "b0", created_at: 10 },
    ];
    const page = (offset: number, limit: number) => mergedPage([Promise.resolve(a), Promise.resolve(b)], offset, limit);
    expect((await page(0, 10)).map((r) => r.id)).toEqual(["a3", "b2", "a1", "b0"]);
    expect((await page(1, 2)).map((r) => r.id)).toEqual(["b2", "a1"]);
  });
});
