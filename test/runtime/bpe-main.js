// Test harness: the exact counter on Node or Deno from the installed package. Counts the texts
// the test wrote to bpe-texts.js in both encodings, and the cookbook's through countTokens.
import { countTokens, loadTokenizer } from "ctxloom";
import { wasmBpeCounter } from "ctxloom/tokens";
import texts from "./bpe-texts.js";

const COOKBOOK = [
  { role: "system", content: "You are a helpful, pattern-following assistant that translates corporate jargon into plain English." },
  { role: "system", name: "example_user", content: "New synergies will help drive top-line growth." },
  { role: "system", name: "example_assistant", content: "Things working well together will increase revenue." },
  { role: "system", name: "example_user", content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage." },
  { role: "system", name: "example_assistant", content: "Let's talk later when we're less busy about how to do better." },
  { role: "user", content: "This late pivot means we don't have time to boil the ocean for the client deliverable." },
];

const o200k = await wasmBpeCounter("o200k_base");
const cl100k = await wasmBpeCounter("cl100k_base");
await loadTokenizer("gpt-4o");
await loadTokenizer("gpt-4");
console.log(JSON.stringify({
  o200k: texts.map((t) => o200k.count(t)),
  cl100k: texts.map((t) => cl100k.count(t)),
  cookbook: { "gpt-4": countTokens(COOKBOOK, { model: "gpt-4" }), "gpt-4o": countTokens(COOKBOOK, { model: "gpt-4o" }) },
}));
