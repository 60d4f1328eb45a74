// Runs the scenario on Deno with the installed package (npm resolution through node_modules,
// the "deno" export condition); prints JSON.
import { scenario } from "./scenario.js";

if (typeof Deno === "undefined") throw new Error("not running on Deno");
const runtime = { name: "deno", version: Deno.version.deno, v8: Deno.version.v8, resolved: import.meta.resolve("ctxloom") };
console.log(JSON.stringify({ runtime, report: await scenario() }));
