/**
 * The native engine's ImageMagick and GraphicsMagick rows (container/engines/imagemagick.ts,
 * issue 12), reached through the real runner (`execute`) with the engine table's routing
 * (WebAssembly engines first, the native rows after them): a 60-megapixel image that WASM
 * ImageMagick refuses OVER_BUDGET, and the `command` operation (no shell, paths confined to
 * /input and /output), also over 64 MiB (issue 49: a generated 75 MB scan reaches the command's folder as a file, its
 * 75 MB output comes back from disk, under a 256 MB tool memory limit). Judged by ImageMagick's own `identify`
 * (test/support/native-oracles.ts) and corpus/facts.json.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskError } from "../../src/engines/errors";
import type { EngineInstances } from "../../src/engines/registry";
import type { InputFile, OperationContext } from "../../src/operations/types";
import { isStreamed } from "../../native-protocol/frame";
import { heldBytes } from "../../src/operations/kit";
import { execute } from "../../src/runner/execute";
import { nodeEngines } from "../../src/runtime/node/engines";
import { corpusPath, fact } from "../support/corpus";
import { startNativeEngine, type NativeServer } from "../support/native-engine";
import { fullContext, job, spied, writeHalvesPng, type Call } from "../support/native-fixtures";
import { expectRedLeftBlueRight, gmVersion, identify, imVersion } from "../support/native-oracles";
import { bytesInput, expectTaskError, testContext, tmpFile } from "../support/pdf-helpers";
import { writeScanTiff } from "../support/scan-tiff";
import { scaled } from "../support/time-scale";

let native: NativeServer;
/** The in-process WebAssembly engines, created once (their modules load on first use). */
let wasm: EngineInstances;
/** The native engine's work root (NATIVE_WORK_DIR): every tool run's arguments name a path under it. */
let root: string;
/** This file's own scratch folder (the 60-megapixel PNG). */
let scratch: string;
let bigPng: string;

/** A context with the WebAssembly engines and the native rows (the production order). */
const full = (): OperationContext => fullContext(wasm, native);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "native-root-"));
  scratch = mkdtempSync(join(tmpdir(), "native-im-"));
  wasm = nodeEngines();
  native = await startNativeEngine({ NATIVE_WORK_DIR: root });
  // 10000×6000 RGB PNG, left half red, right half blue (written by the test: see writeHalvesPng)
  bigPng = writeHalvesPng(join(scratch, "big.png"), 10000, 6000);
}, scaled(120_000));

afterAll(async () => {
  await native?.stop();
  for (const d of [root, scratch]) if (d) rmSync(d, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// A 60-megapixel image → native ImageMagick
// ---------------------------------------------------------------------------------------------

describe("a 60-megapixel image: WASM ImageMagick answers OVER_BUDGET, native ImageMagick converts it", () => {
  const big = () => bytesInput("big.png", new Uint8Array(readFileSync(bigPng)));

  it("the input is a 10000x6000 PNG (identify)", () => {
    expect(identify(bigPng, "%m %wx%h")).toBe("PNG 10000x6000");
  });

  it("convert to jpg width 2000 → imagemagick-native, a 2000x1200 JPEG with the same picture", async () => {
    const calls: Call[] = [];
    const ctx = testContext({
      engines: { ...wasm, imagemagick: spied(wasm.imagemagick!, calls), ...native.engines() },
    });
    const r = await execute("convert", { output_format: "jpg", width: 2000 }, [big()], ctx);
    expect(calls).toContainEqual({ method: "run", code: "OVER_BUDGET" });
    expect(r.engine).toEqual({ name: "imagemagick-native", version: imVersion() });
    expect(r.out.files[0]!.filename).toBe("big.jpg");
    const path = tmpFile(r.out.files[0]!, "jpg");
    expect(identify(path, "%m %wx%h")).toBe("JPEG 2000x1200");
    expectRedLeftBlueRight(path, 2000, 1200);
  });

  it("without the native engines it ends OVER_BUDGET", async () => {
    const err = await expectTaskError(
      () => execute("convert", { output_format: "jpg", width: 2000 }, [big()], testContext({ engines: { ...wasm } })),
      "OVER_BUDGET",
    );
    expect(err.message).toContain("10000");
  });

  it("thumbnail png 200x200 fit crop → a 200x200 PNG, centre crop (red left, blue right)", async () => {
    const r = await execute(
      "thumbnail",
      { output_format: "png", width: 200, height: 200, fit: "crop" },
      [big()],
      full(),
    );
    expect(r.engine.name).toBe("imagemagick-native");
    const path = tmpFile(r.out.files[0]!, "png");
    expect(identify(path, "%m %wx%h")).toBe("PNG 200x200");
    expectRedLeftBlueRight(path, 200, 200);
  });
});

// ---------------------------------------------------------------------------------------------
// command
// ---------------------------------------------------------------------------------------------

describe("command (ImageMagick / GraphicsMagick, no shell)", () => {
  const PNG = "images/cloudconvert-input.png";
  const W = Number(fact(PNG).width);
  const H = Number(fact(PNG).height);
  /** The corpus PNG as the file x.png of input task "up" (→ /input/up/x.png). */
  const upload = (): InputFile => ({
    ...bytesInput("x.png", new Uint8Array(readFileSync(corpusPath(PNG)))),
    fromTask: "up",
  });
  const im = (args: string, extra: Record<string, unknown> = {}) =>
    execute(
      "command",
      { engine: "imagemagick", command: "convert", arguments: args, capture_output: true, ...extra },
      [upload()],
      full(),
    );

  it("convert -resize 50% writes /output/half.png at half size; result.command is the line; engine imagemagick", async () => {
    const line = "/input/up/x.png -resize 50% /output/half.png";
    const r = await im(line);
    expect(r.out.files.map((f) => f.filename)).toEqual(["half.png"]);
    const [fmt, w, h] = identify(tmpFile(r.out.files[0]!, "png"), "%m %w %h").split(" ");
    expect(fmt).toBe("PNG");
    expect([Math.floor(W / 2), Math.ceil(W / 2)]).toContain(Number(w));
    expect([Math.floor(H / 2), Math.ceil(H / 2)]).toContain(Number(h));
    expect(r.out.extra?.command).toBe(`convert ${line}`);
    expect(r.out.engine).toEqual({ name: "imagemagick", version: imVersion() });
    expect(r.engine).toEqual({ name: "imagemagick", version: imVersion() });
  });

  it("identify with capture_output: the console speaks of /input/up/x.png, never of the server's folders", async () => {
    const r = await im("/input/up/x.png", { command: "identify" });
    const output = String(r.out.extra?.output);
    expect(output.startsWith("/input/up/x.png")).toBe(true);
    expect(output).toContain("PNG");
    expect(output).toContain(`${W}x${H}`);
    expect(output).not.toContain(root);
    const verbose = String((await im("-verbose /input/up/x.png", { command: "identify" })).out.extra?.output);
    expect(verbose).toContain("Filename: /input/up/x.png");
    expect(verbose).not.toContain(root);
    expect(verbose).not.toMatch(/call-[A-Za-z0-9]{6}/);
  });

  it("graphicsmagick: gm convert /input/up/x.png /output/x.jpg → a JPEG of the same size", async () => {
    const r = await execute(
      "command",
      { engine: "graphicsmagick", command: "gm", arguments: "convert /input/up/x.png /output/x.jpg" },
      [upload()],
      full(),
    );
    expect(r.out.files.map((f) => f.filename)).toEqual(["x.jpg"]);
    expect(identify(tmpFile(r.out.files[0]!, "jpg"), "%m %wx%h")).toBe(`JPEG ${W}x${H}`);
    expect(r.engine).toEqual({ name: "graphicsmagick", version: gmVersion() });
  });

  it("quoted arguments with spaces survive splitting (-set comment 'hello world' → identify %c)", async () => {
    const r = await im("/input/up/x.png -set comment 'hello world' /output/c.png");
    expect(identify(tmpFile(r.out.files[0]!, "png"), "%c")).toBe("hello world");
    const info = await im(`/input/up/x.png -set comment "it's \\"quoted\\"" -format %c info:`);
    expect(info.out.extra?.output).toBe(`it's "quoted"`);
  });

  it("nothing is expanded: $(…), backticks and $VAR reach ImageMagick literally", async () => {
    const r = await im("/input/up/x.png -set comment '$(id) `id` $HOME' /output/c.png");
    expect(identify(tmpFile(r.out.files[0]!, "png"), "%c")).toBe("$(id) `id` $HOME");
  });

  const REFUSED: [args: string, field: "arguments" | "command", extra?: Record<string, unknown>][] = [
    ["/etc/passwd /output/x.png", "arguments"],
    ["../x /output/x.png", "arguments"],
    ["/input/../etc/passwd /output/x.png", "arguments"],
    ["/input/up/x.png @/etc/passwd /output/x.png", "arguments"],
    ["url:http://x /output/x.png", "arguments"],
    ["msl:/input/a", "arguments"],
    ["text:/etc/hosts /output/x.png", "arguments"],
    ["'/input/up/x.png /output/x.png", "arguments"],
    ['/input/up/x.png "/output/x.png', "arguments"],
    ["convert /input/up/x.png /output/x.png", "command", { command: "gm" }],
    ["/input/up/x.png; rm -rf / /output/y.png", "arguments"],
  ];
  for (const [args, field, extra] of REFUSED) {
    it(`creation refuses ${JSON.stringify(args)}${extra ? ` with ${JSON.stringify(extra)}` : ""} with a 422 naming ${field}`, () => {
      const r = job({ operation: "command", engine: "imagemagick", command: "convert", arguments: args, ...extra });
      const msgs = "errors" in r ? r.errors["tasks.t"] : undefined;
      expect(msgs, "must be a 422").toBeDefined();
      expect(msgs!.join(" ")).toMatch(new RegExp(`^Task t: ${field}:`));
    });
  }

  it("a shell payload never reaches a shell: refused cleanly with a TaskError, nothing deleted", async () => {
    const sentinels = [join(root, "sentinel.txt"), join(scratch, "sentinel.txt")];
    for (const s of sentinels) writeFileSync(s, "still here");
    // the creation check is bypassed here on purpose: the engine must refuse it again by itself
    await expectTaskError(() => im("/input/up/x.png; rm -rf / /output/y.png"), "UNSUPPORTED");
    // ";" and "&&" as words of their own pass the path check: they must be handed to convert as file names
    const err = await im("/input/up/x.png /output/y.png ; touch /output/z.png && rm /input/up/x.png").catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TaskError);
    expect((err as TaskError).code).toBe("CONVERSION_FAILED");
    // convert was handed "rm" as an input file name: the words were not run as commands
    expect((err as TaskError).message).toContain("unable to open image `rm'");
    for (const s of sentinels) expect(existsSync(s), s).toBe(true);
    // the server is still there and works
    const ok = await im("/input/up/x.png", { command: "identify" });
    expect(String(ok.out.extra?.output)).toContain(`${W}x${H}`);
  });
});

// ---------------------------------------------------------------------------------------------
// command over 64 MiB (issue 49)
// ---------------------------------------------------------------------------------------------

describe("command over 64 MiB: the input reaches the command's folder as a file, its output comes back from disk", () => {
  /** A native engine whose tools run under a 256 MB address-space limit (below the scan's 200 MB pixel cache + IM). */
  let tight: NativeServer;
  let scan: string;
  beforeAll(async () => {
    tight = await startNativeEngine({ NATIVE_MEMORY_MB: "256" });
    scan = join(scratch, "scan.tiff");
    // 5000 × 5000 RGB noise, uncompressed: 75 MB, over NATIVE_MAX_BYTES (64 MiB)
    writeScanTiff(scan, { pages: 1, width: 5000, height: 5000, dpi: 300 });
  }, scaled(120_000));
  afterAll(async () => tight?.stop());

  const upload = (): InputFile => ({
    ...bytesInput("scan.tiff", new Uint8Array(readFileSync(scan))),
    fromTask: "up",
  });
  /** The production thresholds (64 MiB), the tight engine. */
  const ctx = () => testContext({ engines: tight.engines() });

  it(
    "convert of a 75 MB scan → a 75 MB png and a 500 px png: the big output streamed back, every pixel kept (identify's signature)",
    async () => {
      expect(upload().size).toBeGreaterThan(64 * 2 ** 20);
      const r = await execute(
        "command",
        {
          engine: "imagemagick",
          command: "convert",
          arguments: "/input/up/scan.tiff ( +clone -resize 10% -write /output/small.png +delete ) /output/copy.png",
        },
        [upload()],
        ctx(),
      );
      expect(r.out.files.map((f) => f.filename)).toEqual(["copy.png", "small.png"]);
      const [copy, small] = r.out.files;
      // over the answer threshold: streamed from the native engine's disk
      expect(isStreamed(copy!.data)).toBe(true);
      const copyPath = join(scratch, "copy.png");
      writeFileSync(copyPath, await heldBytes(copy!.data as never));
      const smallPath = join(scratch, "small.png");
      writeFileSync(smallPath, await heldBytes(small!.data as never));
      expect(identify(copyPath, "%m %wx%h")).toBe("PNG 5000x5000");
      // identify's %# is the SHA-256 of the pixels: the PNG holds the scan's own
      expect(identify(copyPath, "%#")).toBe(identify(scan, "%#"));
      expect(identify(smallPath, "%m %wx%h")).toBe("PNG 500x500");
    },
    scaled(120_000),
  );

  it("over the row's 1 GiB the task ends OVER_BUDGET before any upload, naming the limit", async () => {
    const huge: InputFile = { ...bytesInput("x.png", new Uint8Array(8)), fromTask: "up", size: 2 * 1024 ** 3 };
    const err = await expectTaskError(
      () =>
        execute(
          "command",
          { engine: "imagemagick", command: "convert", arguments: "/input/up/x.png /output/y.png" },
          [huge],
          ctx(),
        ),
      "OVER_BUDGET",
    );
    expect(err.message).toContain("up to 1073741824 bytes");
  });
});
