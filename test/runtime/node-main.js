// Runs the scenario on Node with the installed package; prints JSON.
import { scenario } from "./scenario.js";

const runtime = { name: "node", version: process.versions.node, resolved: import.meta.resolve("ctxloom") };
console.log(JSON.stringify({ runtime, report: await scenario() }));
