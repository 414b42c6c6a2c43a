/**
 * Engine identity of the WebAssembly ffmpeg for the engine table, known without loading the
 * 32 MB core: @ffmpeg/core 0.12.10 is ffmpeg 5.1.4 (its `-version` line; test/unit/media-engine.test.ts
 * asserts the two agree, so a package bump cannot drift silently).
 */
export const FFMPEG_ENGINE = { name: "ffmpeg", version: "5.1.4" } as const;
