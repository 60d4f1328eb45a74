// Test harness around worker.js (the documented example): runs it and reports which runtime
// answered, whether that runtime compiles WebAssembly bytes (workerd must not), and how the
// workerd entry's Loom.open treats its options.
import { Loom } from "ctxloom";
import example from "./worker.js";

export default {
  async fetch(request, env, ctx) {
    const response = await example.fetch(request, env, ctx);
    let compilesBytes;
    try {
      await WebAssembly.compile(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
      compilesBytes = true;
    } catch (error) {
      compilesBytes = String(error);
    }
    const strict = await Loom.open({ engine: "wasm", maxMemoryMB: 16 });
    const js = await Loom.open({ engine: "js" });
    let invalid;
    try {
      await Loom.open("wasm");
    } catch (error) {
      invalid = error.code;
    }
    return Response.json({
      userAgent: navigator.userAgent,
      compilesBytes,
      status: response.status,
      report: await response.json(),
      options: { strict: strict.engine, js: js.engine, instanceOfLoom: strict instanceof Loom, invalid },
    });
  },
};
