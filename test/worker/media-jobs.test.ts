/**
 * Audio and video inside workerd through the whole path (issue 13): POST /v2/jobs → JobDO → queue →
 * runner → service binding → the ffmpeg engine Worker (wasm/ffmpeg, @ffmpeg/core from its
 * precompiled module) → R2. The inputs are made here (a BMP, a WAV) because workerd has no file
 * system: a clip is made from the still with a `command` task, then converted to WebM (VP9 + the
 * engine's own stack, which workerd must honour too), thumbnailed and exported. Outputs are judged
 * by their container headers and sizes here; codecs, durations and pixels against Debian's ffprobe
 * in test/corpus/media-corpus.test.ts, test/native/media-plan.test.ts and test/e2e/sdk-media.test.ts.
 */
import { describe, expect, it } from "vitest";
import { bmpOf, pngSize, wavOf as wav } from "../contract/engines.cases";
import { type ApiJob, createJob, taskByName, waitJob } from "./helpers";

const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

async function download(job: ApiJob, name: string, index = 0): Promise<Uint8Array> {
  const url = taskByName(job, name).result.files[index].url as string;
  const { exports } = await import("cloudflare:workers");
  return new Uint8Array(await (await exports.default.fetch(url)).arrayBuffer());
}

const hex = (b: Uint8Array, n = 4) => [...b.subarray(0, n)].map((x) => x.toString(16).padStart(2, "0")).join("");

describe("the ffmpeg engine Worker behind the queue", () => {
  it("a clip made by `command`, converted to WebM (VP9), thumbnailed and exported", async () => {
    const job = await createJob({
      still: { operation: "import/base64", file: b64(bmpOf(64, 48)), filename: "still.bmp" },
      clip: {
        operation: "command",
        engine: "ffmpeg",
        command: "ffmpeg",
        input: "still",
        arguments: "-loop 1 -i /input/still/still.bmp -t 2 -r 10 -pix_fmt yuv420p /output/clip.mp4",
        capture_output: true,
      },
      webm: { operation: "convert", input: "clip", output_format: "webm" },
      thumb: { operation: "thumbnail", input: "clip", output_format: "png", width: 32 },
      out: { operation: "export/url", input: ["webm", "thumb"] },
    });
    const done = await waitJob(job.id);
    for (const name of ["clip", "webm", "thumb"])
      expect(taskByName(done, name).status, JSON.stringify(taskByName(done, name))).toBe("finished");
    const clip = taskByName(done, "clip");
    expect(clip).toMatchObject({ engine: "ffmpeg", engine_version: "5.1.4" });
    expect(clip.result.command).toBe(
      "ffmpeg -loop 1 -i /input/still/still.bmp -t 2 -r 10 -pix_fmt yuv420p /output/clip.mp4",
    );
    expect(clip.result.output).toContain("Stream #0:0 -> #0:0 (bmp (native) -> h264 (libx264))");
    expect(clip.result.files.map((f) => f.filename)).toEqual(["clip.mp4"]);
    expect(taskByName(done, "webm").result.files[0].filename).toBe("clip.webm");
    const webm = await download(done, "out", 0);
    expect(hex(webm)).toBe("1a45dfa3"); // EBML
    expect(new TextDecoder().decode(webm.subarray(0, 64))).toContain("webm");
    expect(pngSize(await download(done, "out", 1))).toEqual([32, 24]);
  });

  it("audio: a WAV becomes Opus and MP3 (libopus needs the engine's larger stack)", async () => {
    const job = await createJob({
      in: { operation: "import/base64", file: b64(wav(1.5)), filename: "tone.wav" },
      opus: { operation: "convert", input: "in", output_format: "opus", audio_bitrate: 64 },
      mp3: { operation: "convert", input: "in", output_format: "mp3" },
      out: { operation: "export/url", input: ["opus", "mp3"] },
    });
    const done = await waitJob(job.id);
    expect(taskByName(done, "opus").status, JSON.stringify(taskByName(done, "opus"))).toBe("finished");
    expect(taskByName(done, "mp3").status, JSON.stringify(taskByName(done, "mp3"))).toBe("finished");
    const opus = await download(done, "out", 0);
    expect(new TextDecoder().decode(opus.subarray(0, 64))).toMatch(/^OggS[\s\S]*OpusHead/);
    const mp3 = await download(done, "out", 1);
    expect(hex(mp3, 3) === "494433" || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0)).toBe(true); // ID3 tag or an MPEG frame sync
  });

  it("a file that is not media ends in OPEN_FAILED; a command reaching outside /input is refused at creation", async () => {
    const job = await createJob({
      in: { operation: "import/raw", file: "this is not a video", filename: "fake.mp4" },
      conv: { operation: "convert", input: "in", output_format: "webm" },
    });
    const done = await waitJob(job.id);
    expect(taskByName(done, "conv")).toMatchObject({ status: "error", code: "OPEN_FAILED" });
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch("http://example.com/v2/jobs", {
      method: "POST",
      headers: { authorization: "Bearer test-key-a", "content-type": "application/json" },
      body: JSON.stringify({
        tasks: {
          in: { operation: "import/raw", file: "x", filename: "x.mp4" },
          c: { operation: "command", engine: "ffmpeg", input: "in", arguments: "-i /etc/passwd /output/x.mp4" },
        },
      }),
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("only files under /input/ and /output/");
  });
});
