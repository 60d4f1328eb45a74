// Context windows and encodings of current model families, from their providers' public
// documentation; each entry names the page its figure comes from. Names are the API model
// ids. getModelProfile matches exact names (and `aliases`) first, then a known name
// followed only by a version: a date (-2024-08-06, -20250929, @20250929), a -NNNN
// snapshot, -latest, a Bedrock -vN:M, or an Ollama :tag. So "gpt-4o-2024-08-06" is gpt-4o,
// while "gpt-4.5-preview" is not gpt-4 and "o1-preview" is not o1: they are listed apart.
//
// Figures are the standard input windows. Where a provider states a window in "K" (128K,
// 256K), the lower decimal reading is used; beta extensions (Claude's 1M header, Qwen's
// YaRN) are not counted. Checked against the providers' model pages as of November 2026.
import type { CatalogEntry } from "./types.js";

const OPENAI = "platform.openai.com/docs/models/";
const ANTHROPIC = "docs.anthropic.com/en/docs/about-claude/models/overview";
const GEMINI = "ai.google.dev/gemini-api/docs/models";
const XAI = "docs.x.ai/docs/models";
const DEEPSEEK = "api-docs.deepseek.com/quick_start/pricing";
const MISTRAL = "docs.mistral.ai/getting-started/models";

const openai = (name: string, contextWindow: number, encoding: "o200k_base" | "cl100k_base" = "o200k_base", page = name): CatalogEntry =>
  ({ name, contextWindow, encoding, tokensPerChar: 0.25, source: OPENAI + page });
const other = (name: string, contextWindow: number, source: string, tokensPerChar = 0.25): CatalogEntry =>
  ({ name, contextWindow, tokensPerChar, source });

export const CATALOG: readonly CatalogEntry[] = [
  // OpenAI. o200k_base for gpt-4o and later and the o-series; cl100k_base for gpt-4, gpt-4-turbo, gpt-3.5-turbo.
  openai("gpt-5.1", 400_000),
  openai("gpt-5.1-codex", 400_000),
  openai("gpt-5.1-chat-latest", 128_000, "o200k_base", "gpt-5.1-chat-latest"),
  openai("gpt-5", 400_000),
  openai("gpt-5-mini", 400_000),
  openai("gpt-5-nano", 400_000),
  openai("gpt-5-pro", 400_000),
  openai("gpt-5-codex", 400_000),
  openai("gpt-5-chat-latest", 128_000),
  openai("gpt-4.1", 1_047_576),
  openai("gpt-4.1-mini", 1_047_576),
  openai("gpt-4.1-nano", 1_047_576),
  openai("gpt-4.5-preview", 128_000),
  openai("gpt-4o", 128_000),
  openai("gpt-4o-mini", 128_000),
  openai("chatgpt-4o-latest", 128_000),
  openai("gpt-4-turbo", 128_000, "cl100k_base"),
  openai("gpt-4-turbo-preview", 128_000, "cl100k_base", "gpt-4-turbo"),
  openai("gpt-4-0125-preview", 128_000, "cl100k_base", "gpt-4-turbo"),
  openai("gpt-4-1106-preview", 128_000, "cl100k_base", "gpt-4-turbo"),
  openai("gpt-4", 8_192, "cl100k_base"),
  openai("gpt-4-32k", 32_768, "cl100k_base", "gpt-4"),
  openai("gpt-3.5-turbo", 16_385, "cl100k_base"),
  openai("o1", 200_000),
  openai("o1-pro", 200_000),
  openai("o1-preview", 128_000),
  openai("o1-mini", 128_000),
  openai("o3", 200_000),
  openai("o3-pro", 200_000),
  openai("o3-mini", 200_000),
  openai("o4-mini", 200_000),
  openai("gpt-oss-120b", 131_072), // o200k_harmony: o200k_base's ranks plus chat specials, same counts for text
  openai("gpt-oss-20b", 131_072),

  // Anthropic: 200K standard window (Sonnet 4 / 4.5 reach 1M only with the context-1m beta header).
  other("claude-opus-4-5", 200_000, ANTHROPIC),
  other("claude-sonnet-4-5", 200_000, ANTHROPIC),
  other("claude-haiku-4-5", 200_000, ANTHROPIC),
  other("claude-opus-4-1", 200_000, ANTHROPIC),
  other("claude-opus-4", 200_000, ANTHROPIC),
  other("claude-sonnet-4", 200_000, ANTHROPIC),
  other("claude-3-7-sonnet", 200_000, ANTHROPIC),
  other("claude-3-5-sonnet", 200_000, ANTHROPIC),
  other("claude-3-5-haiku", 200_000, ANTHROPIC),
  other("claude-3-opus", 200_000, ANTHROPIC),
  other("claude-3-haiku", 200_000, ANTHROPIC),

  // Google Gemini: documented input token limits; Google gives about 4 characters per token.
  other("gemini-3-pro-preview", 1_048_576, `${GEMINI}/gemini-3-pro-preview`),
  other("gemini-2.5-pro", 1_048_576, GEMINI),
  other("gemini-2.5-flash", 1_048_576, GEMINI),
  other("gemini-2.5-flash-lite", 1_048_576, GEMINI),
  other("gemini-2.0-flash", 1_048_576, `${GEMINI}/gemini-2.0-flash`),
  other("gemini-2.0-flash-lite", 1_048_576, GEMINI),
  other("gemini-1.5-pro", 2_097_152, GEMINI),
  other("gemini-1.5-flash", 1_048_576, GEMINI),

  // xAI Grok.
  other("grok-4", 256_000, XAI),
  other("grok-4-fast", 2_000_000, XAI),
  other("grok-code-fast-1", 256_000, XAI),
  other("grok-3", 131_072, XAI),
  other("grok-3-mini", 131_072, XAI),

  // DeepSeek: the API's ids (V3.x is deepseek-chat, R1 deepseek-reasoner), and the open weights' names.
  other("deepseek-chat", 128_000, DEEPSEEK, 0.3),
  other("deepseek-reasoner", 128_000, DEEPSEEK, 0.3),
  other("deepseek-v3", 128_000, "huggingface.co/deepseek-ai/DeepSeek-V3", 0.3),
  other("deepseek-r1", 128_000, "huggingface.co/deepseek-ai/DeepSeek-R1", 0.3),

  // Meta Llama 3.x: 128K = 131,072 positions (config max_position_embeddings); Llama 4 from its model card.
  other("llama-4-scout-17b-16e-instruct", 10_000_000, "huggingface.co/meta-llama/Llama-4-Scout-17B-16E-Instruct", 0.28),
  other("llama-4-maverick-17b-128e-instruct", 1_000_000, "huggingface.co/meta-llama/Llama-4-Maverick-17B-128E-Instruct", 0.28),
  other("llama-3.1-8b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.1-8B-Instruct", 0.28),
  other("llama-3.1-70b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.1-70B-Instruct", 0.28),
  other("llama-3.1-405b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.1-405B-Instruct", 0.28),
  other("llama-3.2-1b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.2-1B-Instruct", 0.28),
  other("llama-3.2-3b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.2-3B-Instruct", 0.28),
  other("llama-3.3-70b-instruct", 131_072, "huggingface.co/meta-llama/Llama-3.3-70B-Instruct", 0.28),

  // Qwen. Qwen2.5 7B and up: "Full 131,072 tokens"; 0.5B-3B: 32,768. Qwen3: "32,768 natively"
  // (131,072 only with YaRN enabled); the 2507 updates and Qwen3-Coder: 262,144 natively.
  other("qwen2.5-1.5b-instruct", 32_768, "huggingface.co/Qwen/Qwen2.5-1.5B-Instruct"),
  other("qwen2.5-3b-instruct", 32_768, "huggingface.co/Qwen/Qwen2.5-3B-Instruct"),
  other("qwen2.5-7b-instruct", 131_072, "huggingface.co/Qwen/Qwen2.5-7B-Instruct"),
  other("qwen2.5-14b-instruct", 131_072, "huggingface.co/Qwen/Qwen2.5-14B-Instruct"),
  other("qwen2.5-32b-instruct", 131_072, "huggingface.co/Qwen/Qwen2.5-32B-Instruct"),
  other("qwen2.5-72b-instruct", 131_072, "huggingface.co/Qwen/Qwen2.5-72B-Instruct"),
  other("qwen3-8b", 32_768, "huggingface.co/Qwen/Qwen3-8B"),
  other("qwen3-32b", 32_768, "huggingface.co/Qwen/Qwen3-32B"),
  other("qwen3-30b-a3b", 32_768, "huggingface.co/Qwen/Qwen3-30B-A3B"),
  other("qwen3-235b-a22b", 32_768, "huggingface.co/Qwen/Qwen3-235B-A22B"),
  other("qwen3-235b-a22b-instruct-2507", 262_144, "huggingface.co/Qwen/Qwen3-235B-A22B-Instruct-2507"),
  other("qwen3-coder-480b-a35b-instruct", 262_144, "huggingface.co/Qwen/Qwen3-Coder-480B-A35B-Instruct"),

  // Mistral: "128k" / "256k" in the docs, read as 128,000 / 256,000.
  other("mistral-large-latest", 128_000, MISTRAL),
  other("mistral-large", 128_000, MISTRAL),
  other("mistral-medium-latest", 128_000, MISTRAL),
  other("mistral-medium", 128_000, MISTRAL),
  other("mistral-small-latest", 128_000, MISTRAL),
  other("mistral-small", 128_000, MISTRAL),
  other("codestral-latest", 256_000, MISTRAL),
  other("codestral", 256_000, MISTRAL),
  other("ministral-8b", 128_000, MISTRAL),
  other("ministral-3b", 128_000, MISTRAL),
  other("open-mistral-nemo", 128_000, MISTRAL),
];

/**
 * Other spellings of catalog names: OpenRouter's dotted Claude versions and the like.
 * Provider prefixes (openai/, anthropic., google/, ...) are stripped before lookup.
 */
export const ALIASES: Readonly<Record<string, string>> = {
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
