// Context windows, input limits and encodings of current model families, from their providers'
// public documentation; each entry names the page its figures come from, and its comment gives
// the provider's documented numbers (context / max output, and the input limit where the
// provider states one apart). Names are the API model ids. getModelProfile matches exact names
// (and `aliases`) first, then a known name followed only by a version: a date (-2024-08-06,
// -20250929, @20250929), a -NNNN snapshot, -latest, a Bedrock -vN:M, or an Ollama :tag. So
// "gpt-4o-2024-08-06" is gpt-4o, while "gpt-4.5-preview" is not gpt-4 and "o1-preview" is not
// o1: they are listed apart. A name the catalog lacks is inferred from its family (infer.ts).
//
// Figures are the standard windows. Where a provider states a window in "K" (128K, 256K), the
// lower decimal reading is used; beta extensions (Qwen's YaRN) are not counted. The input limit
// (`maxInputTokens`) is set only where the provider refuses input below the window: OpenAI's
// gpt-5 family answers "Input tokens exceed the configured limit of 272,000 tokens" on a
// 400,000 window (the window less the 128,000 of output), while its other models and
// Anthropic's take input up to the window; Google states Gemini's window as its input limit.
//
// Checked in November 2026 against the providers' pages as a search index holds them (no
// browser here): OpenAI's and xAI's model pages were reachable only through copies (AI gateways,
// API mirrors quoting them), so their figures are as those copies give them, cross-checked with
// LiteLLM's model table where it lists the model; entries marked "not re-checked" keep the figures
// of the catalog's first version, found in no page this time.
import type { CatalogEntry, OpenEncoding } from "./types.js";

const OPENAI = "platform.openai.com/docs/models/";
const GPT5_INPUT = "openai.com/index/introducing-gpt-5-for-developers";
const ANTHROPIC = "platform.claude.com/docs/en/about-claude/models/overview";
const CLAUDE = "platform.claude.com/docs/en/models/";
const GEMINI = "ai.google.dev/gemini-api/docs/models";
const XAI = "docs.x.ai/docs/models";
const DEEPSEEK = "api-docs.deepseek.com/quick_start/pricing";
const MISTRAL = "docs.mistral.ai/getting-started/models";

interface OpenAIOptions {
  /** The input limit, where OpenAI caps input below the window. */
  input?: number;
  /** The page that states the input limit, when the model's page does not. */
  inputSource?: string;
  encoding?: "o200k_base" | "cl100k_base";
  /** The model's page, when it is not its own name's. */
  page?: string;
}
const openai = (name: string, contextWindow: number, o: OpenAIOptions = {}): CatalogEntry => ({
  name,
  contextWindow,
  ...(o.input ? { maxInputTokens: o.input } : {}),
  encoding: o.encoding ?? "o200k_base",
  tokensPerChar: 0.25,
  source: OPENAI + (o.page ?? name) + (o.inputSource ? ` + ${o.inputSource}` : ""),
});
const other = (
  name: string,
  contextWindow: number,
  source: string,
  tokensPerChar = 0.25,
  encoding?: OpenEncoding,
): CatalogEntry => ({ name, contextWindow, tokensPerChar, source, ...(encoding ? { encoding } : {}) });

const CL100K = { encoding: "cl100k_base" } as const;
/** The gpt-5 family's split: a 400,000 window of which 128,000 is kept for output. */
const GPT5 = { input: 272_000, inputSource: GPT5_INPUT } as const;

export const CATALOG: readonly CatalogEntry[] = [
  // OpenAI. o200k_base for gpt-4o and later and the o-series; cl100k_base for gpt-4, gpt-4-turbo, gpt-3.5-turbo.
  // 1,050,000 context / 128,000 output; input 922,000 (the window less the output, as OpenAI's figures are quoted)
  openai("gpt-5.4", 1_050_000, { input: 922_000 }),
  openai("gpt-5.2", 400_000, GPT5), // 400,000 / 128,000; input 272,000
  openai("gpt-5.2-pro", 400_000, GPT5), // 400,000 / 128,000; input 272,000
  openai("gpt-5.2-chat-latest", 128_000), // 128,000 / 16,384
  openai("gpt-5.1", 400_000, GPT5), // 400,000 / 128,000; input 272,000
  openai("gpt-5.1-codex", 400_000, GPT5), // 400,000 / 128,000; input 272,000
  openai("gpt-5.1-codex-mini", 400_000, GPT5), // 400,000 / 128,000; input 272,000
  openai("gpt-5.1-chat-latest", 128_000), // 128,000 / 16,384
  openai("gpt-5", 400_000, GPT5), // 400,000 / 128,000; input 272,000 (the API's error names this limit)
  openai("gpt-5-mini", 400_000, GPT5), // 400,000 / 128,000; input 272,000
  openai("gpt-5-nano", 400_000, GPT5), // 400,000 / 128,000; input 272,000
  // 400,000 / 272,000 output: by the family's rule input is at most 128,000. Not verified: no page
  // states gpt-5-pro's input limit, and LiteLLM lists 128,000 output.
  openai("gpt-5-pro", 400_000, { input: 128_000 }),
  openai("gpt-5-codex", 400_000, GPT5), // 400,000 / 128,000; input 272,000
  openai("gpt-5-chat-latest", 128_000), // 128,000 / 16,384
  openai("gpt-4.1", 1_047_576), // 1,047,576 / 32,768
  openai("gpt-4.1-mini", 1_047_576), // 1,047,576 / 32,768
  openai("gpt-4.1-nano", 1_047_576), // 1,047,576 / 32,768
  openai("gpt-4.5-preview", 128_000), // 128,000 / 16,384
  openai("gpt-4o", 128_000), // 128,000 / 16,384
  openai("gpt-4o-mini", 128_000), // 128,000 / 16,384
  openai("chatgpt-4o-latest", 128_000), // 128,000 / 16,384
  openai("gpt-4-turbo", 128_000, CL100K), // 128,000 / 4,096
  openai("gpt-4-turbo-preview", 128_000, { ...CL100K, page: "gpt-4-turbo" }), // 128,000 / 4,096
  openai("gpt-4-0125-preview", 128_000, { ...CL100K, page: "gpt-4-turbo" }), // 128,000 / 4,096
  openai("gpt-4-1106-preview", 128_000, { ...CL100K, page: "gpt-4-turbo" }), // 128,000 / 4,096
  openai("gpt-4", 8_192, CL100K), // 8,192 / 8,192
  openai("gpt-4-32k", 32_768, { ...CL100K, page: "gpt-4" }), // 32,768 (not re-checked: the model is retired)
  openai("gpt-3.5-turbo", 16_385, CL100K), // 16,385 / 4,096
  openai("o1", 200_000), // 200,000 / 100,000
  openai("o1-pro", 200_000), // 200,000 / 100,000
  openai("o1-preview", 128_000), // 128,000 / 32,768
  openai("o1-mini", 128_000), // 128,000 / 65,536
  openai("o3", 200_000), // 200,000 / 100,000
  openai("o3-pro", 200_000), // 200,000 / 100,000
  openai("o3-mini", 200_000), // 200,000 / 100,000
  openai("o4-mini", 200_000), // 200,000 / 100,000 (the API's error names 200,000 as the limit)
  // 131,072 / 131,072; o200k_harmony: o200k_base's ranks plus chat specials, same counts for text
  openai("gpt-oss-120b", 131_072),
  openai("gpt-oss-20b", 131_072), // 131,072 / 131,072

  // Anthropic: input and output share the window (no input limit apart). 1M windows from the model
  // pages; 4.5 and older at their standard 200K (Sonnet 4 / 4.5 reach 1M only with a beta header).
  other("claude-sonnet-5", 1_000_000, `${CLAUDE}sonnet-5/overview`), // 1M / 128K
  other("claude-opus-4-6", 1_000_000, `${CLAUDE}opus-4-6/overview`), // 1M / 128K
  other("claude-sonnet-4-6", 1_000_000, `${CLAUDE}sonnet-4-6/overview`), // 1M / 128K
  other("claude-opus-4-5", 200_000, ANTHROPIC), // 200K / 64K
  other("claude-sonnet-4-5", 200_000, `${CLAUDE}sonnet-4-5/overview`), // 200K / 64K
  other("claude-haiku-4-5", 200_000, ANTHROPIC), // 200K / 64K
  other("claude-opus-4-1", 200_000, ANTHROPIC), // 200K / 32K
  other("claude-opus-4", 200_000, ANTHROPIC), // 200K / 32K
  other("claude-sonnet-4", 200_000, ANTHROPIC), // 200K / 64K (1M with the context-1m beta header)
  other("claude-3-7-sonnet", 200_000, ANTHROPIC), // 200K / 64K
  other("claude-3-5-sonnet", 200_000, ANTHROPIC), // 200K / 8,192
  other("claude-3-5-haiku", 200_000, ANTHROPIC), // 200K / 8,192
  other("claude-3-opus", 200_000, ANTHROPIC), // 200K / 4,096
  other("claude-3-haiku", 200_000, ANTHROPIC), // 200K / 4,096

  // Google Gemini: the documented input token limit is the window (output is limited apart);
  // Google gives about 4 characters per token.
  other("gemini-3.1-pro-preview", 1_048_576, `${GEMINI}/gemini-3.1-pro-preview`), // input 1,048,576 / output 65,536
  other("gemini-3-pro-preview", 1_048_576, `${GEMINI}/gemini-3-pro-preview`), // input 1,048,576 / output 65,536
  other("gemini-2.5-pro", 1_048_576, GEMINI), // input 1,048,576 / output 65,536
  other("gemini-2.5-flash", 1_048_576, GEMINI), // input 1,048,576 / output 65,536
  other("gemini-2.5-flash-lite", 1_048_576, GEMINI), // input 1,048,576 / output 65,536
  other("gemini-2.0-flash", 1_048_576, `${GEMINI}/gemini-2.0-flash`), // input 1,048,576 / output 8,192
  other("gemini-2.0-flash-lite", 1_048_576, GEMINI), // input 1,048,576 / output 8,192
  other("gemini-1.5-pro", 2_097_152, GEMINI), // input 2,097,152 / output 8,192 (not re-checked: retired)
  other("gemini-1.5-flash", 1_048_576, GEMINI), // input 1,048,576 / output 8,192 (not re-checked: retired)

  // xAI Grok: one context window per model, no output split stated.
  other("grok-4", 256_000, XAI), // 256,000
  other("grok-4-fast", 2_000_000, XAI), // 2,000,000
  other("grok-code-fast-1", 256_000, XAI), // 256,000 (some copies say 262,144: the lower reading)
  other("grok-3", 131_072, XAI), // 131,072 (not re-checked)
  other("grok-3-mini", 131_072, XAI), // 131,072 (not re-checked)

  // DeepSeek: the API's ids (V3.x is deepseek-chat, R1 deepseek-reasoner), and the open weights'
  // names. The API's page gave 64K in early 2025 and 128K since V3.1; 128K is kept.
  other("deepseek-chat", 128_000, DEEPSEEK, 0.3, "deepseek_v3"), // 128K / 8K
  other("deepseek-reasoner", 128_000, DEEPSEEK, 0.3, "deepseek_v3"), // 128K / 64K
  other("deepseek-v3", 128_000, "huggingface.co/deepseek-ai/DeepSeek-V3", 0.3, "deepseek_v3"), // 128K
  other("deepseek-r1", 128_000, "huggingface.co/deepseek-ai/DeepSeek-R1", 0.3, "deepseek_v3"), // 128K

  // Meta Llama 3.x: 128K = 131,072 positions (config max_position_embeddings); Llama 4 from its
  // model card. Open weights: the window is what the server is run with, at most these.
  // 10M
  other("llama-4-scout-17b-16e-instruct", 10_000_000, "huggingface.co/meta-llama/Llama-4-Scout-17B-16E-Instruct", 0.28),
  other(
    "llama-4-maverick-17b-128e-instruct",
    1_000_000,
    "huggingface.co/meta-llama/Llama-4-Maverick-17B-128E-Instruct",
    0.28,
  ), // 1M
  other("llama-3.1-8b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.1-8B-Instruct", 0.28, "llama3"), // 131,072
  // 131,072
  other("llama-3.1-70b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.1-70B-Instruct", 0.28, "llama3"),
  // 131,072
  other("llama-3.1-405b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.1-405B-Instruct", 0.28, "llama3"),
  other("llama-3.2-1b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.2-1B-Instruct", 0.28, "llama3"), // 131,072
  other("llama-3.2-3b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.2-3B-Instruct", 0.28, "llama3"), // 131,072
  // 131,072
  other("llama-3.3-70b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.3-70B-Instruct", 0.28, "llama3"),

  // Qwen. Qwen2.5 7B and up: "Full 131,072 tokens"; 0.5B-3B: 32,768. Qwen3: "32,768 natively"
  // (131,072 only with YaRN enabled); the 2507 updates and Qwen3-Coder: 262,144 natively.
  other("qwen2.5-1.5b-instruct", 32_768, "huggingface.co/Qwen/Qwen2.5-1.5B-Instruct", 0.25, "qwen2"), // 32,768
  other("qwen2.5-3b-instruct", 32_768, "huggingface.co/Qwen/Qwen2.5-3B-Instruct", 0.25, "qwen2"), // 32,768
  other("qwen2.5-7b-instruct", 131_072, "huggingface.co/Qwen/Qwen2.5-7B-Instruct", 0.25, "qwen2"), // 131,072
  other("qwen2.5-14b-instruct", 131_072, "huggingface.co/Qwen/Qwen2.5-14B-Instruct", 0.25, "qwen2"), // 131,072
  other("qwen2.5-32b-instruct", 131_072, "huggingface.co/Qwen/Qwen2.5-32B-Instruct", 0.25, "qwen2"), // 131,072
  other("qwen2.5-72b-instruct", 131_072, "huggingface.co/Qwen/Qwen2.5-72B-Instruct", 0.25, "qwen2"), // 131,072
  other("qwen3-8b", 32_768, "huggingface.co/Qwen/Qwen3-8B", 0.25, "qwen2"), // 32,768
  other("qwen3-32b", 32_768, "huggingface.co/Qwen/Qwen3-32B", 0.25, "qwen2"), // 32,768
  other("qwen3-30b-a3b", 32_768, "huggingface.co/Qwen/Qwen3-30B-A3B", 0.25, "qwen2"), // 32,768
  other("qwen3-235b-a22b", 32_768, "huggingface.co/Qwen/Qwen3-235B-A22B", 0.25, "qwen2"), // 32,768
  // 262,144
  other("qwen3-235b-a22b-instruct-2507", 262_144, "huggingface.co/Qwen/Qwen3-235B-A22B-Instruct-2507", 0.25, "qwen2"),
  // 262,144
  other("qwen3-coder-480b-a35b-instruct", 262_144, "huggingface.co/Qwen/Qwen3-Coder-480B-A35B-Instruct", 0.25, "qwen2"),

  // Google Gemma 3 (open weights): 128K (131,072) for 4B and up, 32K for 1B, from the model card.
  other("gemma-3-27b-it", 131_072, "huggingface.co/google/gemma-3-27b-it", 0.25, "gemma3"), // 128K
  other("gemma-3-12b-it", 131_072, "huggingface.co/google/gemma-3-12b-it", 0.25, "gemma3"), // 128K
  other("gemma-3-4b-it", 131_072, "huggingface.co/google/gemma-3-4b-it", 0.25, "gemma3"), // 128K
  other("gemma-3-1b-it", 32_768, "huggingface.co/google/gemma-3-1b-it", 0.25, "gemma3"), // 32K

  // Mistral: "128k" / "256k" in the docs, read as 128,000 / 256,000 (not re-checked: the docs'
  // model table was not reachable this time).
  other("mistral-large-latest", 128_000, MISTRAL), // 128k
  other("mistral-large", 128_000, MISTRAL), // 128k
  other("mistral-medium-latest", 128_000, MISTRAL), // 128k
  other("mistral-medium", 128_000, MISTRAL), // 128k
  other("mistral-small-latest", 128_000, MISTRAL), // 128k
  other("mistral-small", 128_000, MISTRAL), // 128k
  other("codestral-latest", 256_000, MISTRAL), // 256k
  other("codestral", 256_000, MISTRAL), // 256k
  other("ministral-8b", 128_000, MISTRAL), // 128k
  other("ministral-3b", 128_000, MISTRAL), // 128k
  // 128k; Tekken (its tokenizer, mistral-common's tekken.json)
  other("open-mistral-nemo", 128_000, MISTRAL, 0.25, "tekken"),
];

/**
 * Other spellings of catalog names: OpenRouter's dotted Claude versions and the like.
 * Provider prefixes (openai/, anthropic., google/, ...) are stripped before lookup.
 */
export const ALIASES: Readonly<Record<string, string>> = {
  "claude-opus-4.6": "claude-opus-4-6",
  "claude-sonnet-4.6": "claude-sonnet-4-6",
  "claude-opus-4.5": "claude-opus-4-5",
  "claude-sonnet-4.5": "claude-sonnet-4-5",
  "claude-haiku-4.5": "claude-haiku-4-5",
  "claude-opus-4.1": "claude-opus-4-1",
  "claude-3.7-sonnet": "claude-3-7-sonnet",
  "claude-3.5-sonnet": "claude-3-5-sonnet",
  "claude-3.5-haiku": "claude-3-5-haiku",
  "claude-4-opus": "claude-opus-4",
  "claude-4-sonnet": "claude-sonnet-4",
  "mistral-large-instruct": "mistral-large",
  "mistral-small-instruct": "mistral-small",
};
