/** The engine contract suites (test/contract/engines.cases.ts) on the Node host: every engine in process. */
import { engineContract } from "../contract/engines.cases";
import { nodeEngines } from "../../src/runtime/node/engines";

engineContract("node", () => nodeEngines());
