// A Cloudflare Worker that answers with the scenario's report. wrangler bundles it with
// ctxloom's "workerd" export condition: the core arrives as a precompiled WebAssembly.Module
// (Workers refuse to compile WebAssembly bytes at run time).
import { scenario } from "./scenario.js";

export default {
  async fetch() {
    return Response.json(await scenario());
  },
};
