/**
 * The engine contract suites (test/contract/engines.cases.ts) on the workerd host, with the engines
 * the api Worker builds (runtime/workerd/engines.ts): pdf-lib and PDFium in the isolate, ImageMagick
 * and ExifTool in their own engine Workers behind the service bindings (the shared entry's RPC).
 */
import { env } from "cloudflare:test";
import { engineContract } from "../contract/engines.cases";
import { workerdEngines } from "../../src/runtime/workerd/engines";
import type { Env } from "../../src/env";

engineContract("workerd", () => workerdEngines(env as unknown as Env));
