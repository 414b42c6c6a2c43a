import { afterAll, describe, it } from "vitest";
import { AUDIO_OUTPUTS, VIDEO_OUTPUTS } from "../../container/media/plan";
import { audioStream, corpusFiles, corpusInput, durationOf, ffmpegEngine, ffprobe, tempDir, videoStream } from "./media-helpers";
import { corpusPath } from "../support/corpus";
const tmp = tempDir();
afterAll(() => tmp.cleanup());
describe("explore", () => {
  it("matrix", { timeout: 1_800_000 }, async () => {
    const rows: string[] = [];
    for (const rel of [...corpusFiles("audio"), "video/ffmpegwasm-Big_Buck_Bunny_180_10s.webm"]) {
      const src = ffprobe(corpusPath(rel));
      const isVideo = rel.startsWith("video/");
      const targets = isVideo ? [...VIDEO_OUTPUTS, "mp3"] : [...AUDIO_OUTPUTS];
      for (const out of targets) {
        const t0 = Date.now();
        const r = await ffmpegEngine().run({ op: "convert", input: corpusInput(rel), outputFormat: out as any, options: {} });
        const ms = Date.now() - t0;
        if (!r.ok) { rows.push(`${rel} -> ${out}: ${ms}ms FAIL ${r.error.code} ${r.error.message}`); console.log(rows.at(-1)); continue; }
        const p = ffprobe(tmp.file(r.data, out));
        const v = videoStream(p), a = audioStream(p), sv = videoStream(src);
        rows.push(`${rel} -> ${out}: ${ms}ms dur ${durationOf(src).toFixed(3)} -> ${durationOf(p).toFixed(3)} (${(durationOf(p)-durationOf(src)).toFixed(3)}) v ${sv ? `${sv.width}x${sv.height}` : "-"} -> ${v ? `${v.codec_name} ${v.width}x${v.height} ${v.r_frame_rate}` : "-"} a ${a ? `${a.codec_name} ${a.sample_rate} ${a.channels} ${a.duration}` : "-"} mem ${r.wasmMemoryBytes}`);
        console.log(rows.at(-1));
      }
    }
  });
});
