// The recall scenario inside a Cloudflare Worker: the core arrives as a precompiled module (as
// wrangler hands it over), the JS engine runs beside it.
import core from "../../build/ctxloom.wasm";
import { JsEngine, WasmEngine } from "../../src/engine/index.js";
import { recallScenario } from "./scenario.js";

export default {
  async fetch(): Promise<Response> {
    const wasm = await recallScenario(await WasmEngine.create(core));
    const js = await recallScenario(new JsEngine());
    return Response.json({ userAgent: navigator.userAgent, wasm, js });
  },
};
