// Test harness: the exact token counter on Workers. POST a JSON array of texts; answers with
// their counts in both encodings (WebAssembly counter), the cookbook's counts through
// countTokens, and whether this runtime compiles WebAssembly bytes (workerd must not). The
// Workers entry carries o200k_base's module; cl100k_base's is handed over as the docs say.
import { Loom, countTokens, loadTokenizer } from "ctxloom";
import cl100kModule from "ctxloom/bpe-cl100k.wasm";
import { wasmBpeCounter } from "ctxloom/tokens";

const COOKBOOK = [
  { role: "system", content: "You are a helpful, pattern-following assistant that translates corporate jargon into plain English." },
  { role: "system", name: "example_user", content: "New synergies will help drive top-line growth." },
  { role: "system", name: "example_assistant", content: "Things working well together will increase revenue." },
  { role: "system", name: "example_user", content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage." },
  { role: "system", name: "example_assistant", content: "Let's talk later when we're less busy about how to do better." },
  { role: "user", content: "This late pivot means we don't have time to boil the ocean for the client deliverable." },
];

let handedOver;

export default {
  async fetch(request) {
    handedOver ??= Loom.open({ bpe: cl100kModule }).then((loom) => loom.close());
    await handedOver;
    const texts = await request.json();
    let compilesBytes;
    try {
      await WebAssembly.compile(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
      compilesBytes = true;
    } catch (error) {
      compilesBytes = String(error);
    }
    const o200k = await wasmBpeCounter("o200k_base");
    const cl100k = await wasmBpeCounter("cl100k_base");
    await loadTokenizer("gpt-4o");
    await loadTokenizer("gpt-4");
    return Response.json({
      compilesBytes,
      o200k: texts.map((t) => o200k.count(t)),
      cl100k: texts.map((t) => cl100k.count(t)),
      cookbook: { "gpt-4": countTokens(COOKBOOK, { model: "gpt-4" }), "gpt-4o": countTokens(COOKBOOK, { model: "gpt-4o" }) },
    });
  },
};
