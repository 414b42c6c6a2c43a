// @ffmpeg/core 0.12.10 ships no types: the emscripten factory and the parts of the Module this engine uses (core.ts).
declare module "@ffmpeg/core" {
  const createFFmpegCore: (moduleArg: Record<string, unknown>) => Promise<unknown>;
  export default createFFmpegCore;
}
