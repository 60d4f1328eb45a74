// A Worker bundled WITHOUT the "workerd" condition (a bundler that does not know it): the
// main entry's embedded bytes cannot compile here, so Loom.open() falls back to the JS engine,
// and Loom.open({ wasm }) with the "ctxloom/wasm" subpath is the escape hatch.
import { Loom } from "ctxloom";
import core from "ctxloom/wasm";

export default {
  async fetch() {
    const hatch = await Loom.open({ wasm: core });
    const fallback = await Loom.open();
    let strict;
    try {
      await Loom.open({ engine: "wasm" });
      strict = "opened";
    } catch (error) {
      strict = error.code;
    }
    return Response.json({ userAgent: navigator.userAgent, hatch: hatch.engine, fallback: fallback.engine, strict });
  },
};
