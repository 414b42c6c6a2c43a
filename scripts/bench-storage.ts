/**
 * Benchmark of storage transfers (issue 35): a 50 MB object copied S3 → R2 → S3 through the service
 * (`npm start`: one job import/s3 → export/s3, from POST /v2/jobs to the job finished) against the
 * same copy made with the store's own client in the same run (aws4fetch, the SigV4 signer S3 users
 * reach for in Workers and Node: GET the object, PUT it back under a new key), both against the same
 * OpenStack Swift with s3api (SigV4 checked) on loopback. Prints medians of `runs` (after one
 * warm-up of each) and the ratio service / direct.
 * Run: `npm run bench -- storage` (or `node scripts/bench-storage.ts`).
 */
import { randomBytes } from "node:crypto";
import { AwsClient } from "aws4fetch";
import { sdk } from "../test/support/sdk.ts";
import { startDevServer } from "../test/support/server.ts";
import { startSwift } from "../test/support/stores/swift.ts";
import { createContainer, putObject, tempauth } from "../test/support/stores/swift-client.ts";

const KEY = "bench-storage-key";
const SIZE = 50 * 1000 * 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchStorage(runs = 5): Promise<void> {
  const [swift, server] = await Promise.all([
    startSwift(),
    startDevServer({ API_KEYS: `${KEY}:bench`, ALLOW_PRIVATE_IMPORTS: "true", NATIVE: "off" }, 300_000),
  ]);
  try {
    const account = await tempauth(swift.s3, swift.accessKeyId, swift.secretAccessKey);
    const bucket = "bench";
    // a Swift just started may answer 503 while its account and container servers come up
    for (let i = 0; ; i++) {
      try {
        await createContainer(account, bucket);
        break;
      } catch (err) {
        if (i >= 30) throw err;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    await putObject(account, bucket, "src.bin", randomBytes(SIZE));
    const s3 = {
      bucket,
      region: "us-east-1",
      endpoint: swift.s3,
      access_key_id: swift.accessKeyId,
      secret_access_key: swift.secretAccessKey,
    };
    const cc = sdk(KEY, server.base);
    const client = new AwsClient({
      accessKeyId: swift.accessKeyId,
      secretAccessKey: swift.secretAccessKey,
      service: "s3",
      region: "us-east-1",
      retries: 0,
    });

    const viaService = async (i: number) => {
      const t = performance.now();
      const created = await cc.jobs.create({
        tasks: {
          in: { operation: "import/s3", ...s3, key: "src.bin" },
          out: { operation: "export/s3", input: "in", ...s3, key: `service-${i}.bin` },
        },
      });
      const job = await cc.jobs.wait(created.id);
      if (job.status !== "finished")
        throw new Error(`job ${job.status}: ${JSON.stringify(job.tasks.map((x) => [x.name, x.code, x.message]))}`);
      return performance.now() - t;
    };
    const direct = async (i: number) => {
      const t = performance.now();
      const got = await client.fetch(`${swift.s3}/${bucket}/src.bin`);
      if (!got.ok) throw new Error(`GET: HTTP ${got.status}`);
      const body = await got.arrayBuffer();
      const put = await client.fetch(`${swift.s3}/${bucket}/direct-${i}.bin`, { method: "PUT", body });
      if (!put.ok) throw new Error(`PUT: HTTP ${put.status} ${await put.text()}`);
      return performance.now() - t;
    };

    await viaService(0);
    await direct(0);
    const service: number[] = [];
    const own: number[] = [];
    for (let i = 1; i <= runs; i++) {
      // alternated, so load from the rest of the machine falls on both sides alike
      service.push(await viaService(i));
      own.push(await direct(i));
    }
    const s = median(service);
    const d = median(own);
    console.log(`\nStorage: ${SIZE / 1e6} MB object S3 → R2 → S3 (Swift s3api on loopback, SigV4); medians of ${runs}`);
    console.log(`  through the service (import/s3 → export/s3, job create → finished)  ${(s / 1000).toFixed(2)} s`);
    console.log(`  the store's own client (aws4fetch GET, then PUT)                      ${(d / 1000).toFixed(2)} s`);
    console.log(
      `  ratio service / direct ${(s / d).toFixed(2)}; throughput ${(SIZE / 1e6 / (s / 1000)).toFixed(0)} vs ${(SIZE / 1e6 / (d / 1000)).toFixed(0)} MB/s`,
    );
    console.log(
      `  runs (s): service ${service.map((x) => (x / 1000).toFixed(2)).join(" ")}; direct ${own.map((x) => (x / 1000).toFixed(2)).join(" ")}`,
    );
  } finally {
    await Promise.all([server.stop(), swift.stop()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStorage(Number(process.argv[2] ?? 5));
