// ssh2 asks the optional native `cpu-features` addon which ciphers the CPU accelerates (inside a try/catch).
// A Worker cannot load native addons, so wrangler's [alias] points `cpu-features` here (storage-connectors.md §3.5).
module.exports = function cpuFeatures() {
  throw new Error("cpu-features is not available in a Worker");
};
