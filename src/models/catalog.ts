// Context windows and encodings of current model families, from their public documentation.
// Each entry cites where the figure comes from. Names are the API model ids; getModelProfile
// matches exact names first, then the longest prefix (so "gpt-4o-2024-08-06" is "gpt-4o").
import type { CatalogEntry } from "./types.js";

export const CATALOG: readonly CatalogEntry[] = [
  // OpenAI. Encodings: o200k_base for gpt-4o, gpt-4.1, gpt-5 and the o-series; cl100k_base for gpt-4, gpt-4-turbo, gpt-3.5-turbo.
  { name: "gpt-5", contextWindow: 400_000, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-5" },
  { name: "gpt-5-mini", contextWindow: 400_000, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-5-mini" },
  { name: "gpt-5-nano", contextWindow: 400_000, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-5-nano" },
  { name: "gpt-4.1", contextWindow: 1_047_576, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-4.1" },
  { name: "gpt-4.1-mini", contextWindow: 1_047_576, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-4.1-mini" },
  { name: "gpt-4.1-nano", contextWindow: 1_047_576, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-4.1-nano" },
  { name: "gpt-4o", contextWindow: 128_000, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-4o" },
  { name: "gpt-4o-mini", contextWindow: 128_000, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-4o-mini" },
  { name: "gpt-4-turbo", contextWindow: 128_000, encoding: "cl100k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-4-turbo" },
  { name: "gpt-4", contextWindow: 8_192, encoding: "cl100k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-4" },
  { name: "gpt-4-32k", contextWindow: 32_768, encoding: "cl100k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-4" },
  { name: "gpt-3.5-turbo", contextWindow: 16_385, encoding: "cl100k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/gpt-3.5-turbo" },
  { name: "o1", contextWindow: 200_000, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/o1" },
  { name: "o1-mini", contextWindow: 128_000, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/o1-mini" },
  { name: "o3", contextWindow: 200_000, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/o3" },
  { name: "o3-mini", contextWindow: 200_000, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/o3-mini" },
  { name: "o4-mini", contextWindow: 200_000, encoding: "o200k_base", tokensPerChar: 0.25, source: "platform.openai.com/docs/models/o4-mini" },

  // Anthropic: 200K standard window (Sonnet 4 / 4.5 reach 1M only with the context-1m beta header).
  { name: "claude-opus-4-1", contextWindow: 200_000, tokensPerChar: 0.25, source: "docs.anthropic.com/en/docs/about-claude/models/overview" },
  { name: "claude-opus-4", contextWindow: 200_000, tokensPerChar: 0.25, source: "docs.anthropic.com/en/docs/about-claude/models/overview" },
  { name: "claude-sonnet-4-5", contextWindow: 200_000, tokensPerChar: 0.25, source: "docs.anthropic.com/en/docs/about-claude/models/overview" },
  { name: "claude-sonnet-4", contextWindow: 200_000, tokensPerChar: 0.25, source: "docs.anthropic.com/en/docs/about-claude/models/overview" },
  { name: "claude-haiku-4-5", contextWindow: 200_000, tokensPerChar: 0.25, source: "docs.anthropic.com/en/docs/about-claude/models/overview" },
  { name: "claude-3-7-sonnet", contextWindow: 200_000, tokensPerChar: 0.25, source: "docs.anthropic.com/en/docs/about-claude/models/overview" },
  { name: "claude-3-5-sonnet", contextWindow: 200_000, tokensPerChar: 0.25, source: "docs.anthropic.com/en/docs/about-claude/models/overview" },
  { name: "claude-3-5-haiku", contextWindow: 200_000, tokensPerChar: 0.25, source: "docs.anthropic.com/en/docs/about-claude/models/overview" },
  { name: "claude-3-opus", contextWindow: 200_000, tokensPerChar: 0.25, source: "docs.anthropic.com/en/docs/about-claude/models/overview" },
  { name: "claude-3-haiku", contextWindow: 200_000, tokensPerChar: 0.25, source: "docs.anthropic.com/en/docs/about-claude/models/overview" },

  // Google Gemini: documented input token limits; Google gives about 4 characters per token.
  { name: "gemini-2.5-pro", contextWindow: 1_048_576, tokensPerChar: 0.25, source: "ai.google.dev/gemini-api/docs/models" },
  { name: "gemini-2.5-flash", contextWindow: 1_048_576, tokensPerChar: 0.25, source: "ai.google.dev/gemini-api/docs/models" },
  { name: "gemini-2.0-flash", contextWindow: 1_048_576, tokensPerChar: 0.25, source: "ai.google.dev/gemini-api/docs/models/gemini-2.0-flash" },
  { name: "gemini-1.5-pro", contextWindow: 2_097_152, tokensPerChar: 0.25, source: "ai.google.dev/gemini-api/docs/models" },
  { name: "gemini-1.5-flash", contextWindow: 1_048_576, tokensPerChar: 0.25, source: "ai.google.dev/gemini-api/docs/models" },

  // Meta Llama 3.x: 128K = 131,072 positions (config max_position_embeddings). Hyphenated ids, not Ollama tags.
  { name: "llama-3.1-8b-instruct", contextWindow: 131_072, tokensPerChar: 0.28, source: "huggingface.co/meta-llama/Llama-3.1-8B-Instruct" },
  { name: "llama-3.1-70b-instruct", contextWindow: 131_072, tokensPerChar: 0.28, source: "huggingface.co/meta-llama/Llama-3.1-70B-Instruct" },
  { name: "llama-3.1-405b-instruct", contextWindow: 131_072, tokensPerChar: 0.28, source: "huggingface.co/meta-llama/Llama-3.1-405B-Instruct" },
  { name: "llama-3.2-1b-instruct", contextWindow: 131_072, tokensPerChar: 0.28, source: "huggingface.co/meta-llama/Llama-3.2-1B-Instruct" },
  { name: "llama-3.2-3b-instruct", contextWindow: 131_072, tokensPerChar: 0.28, source: "huggingface.co/meta-llama/Llama-3.2-3B-Instruct" },
  { name: "llama-3.3-70b-instruct", contextWindow: 131_072, tokensPerChar: 0.28, source: "huggingface.co/meta-llama/Llama-3.3-70B-Instruct" },

  // Qwen (DashScope ids). Qwen2.5 7B and up: "Full 131,072 tokens"; 0.5B-3B: 32,768.
  // Qwen3: "32,768 natively" (131,072 only with YaRN enabled), so the native figure is used.
  { name: "qwen2.5-1.5b-instruct", contextWindow: 32_768, tokensPerChar: 0.25, source: "huggingface.co/Qwen/Qwen2.5-1.5B-Instruct" },
  { name: "qwen2.5-3b-instruct", contextWindow: 32_768, tokensPerChar: 0.25, source: "huggingface.co/Qwen/Qwen2.5-3B-Instruct" }, // unconfirmed
  { name: "qwen2.5-7b-instruct", contextWindow: 131_072, tokensPerChar: 0.25, source: "huggingface.co/Qwen/Qwen2.5-7B-Instruct" },
  { name: "qwen2.5-14b-instruct", contextWindow: 131_072, tokensPerChar: 0.25, source: "huggingface.co/Qwen/Qwen2.5-14B-Instruct" },
  { name: "qwen2.5-32b-instruct", contextWindow: 131_072, tokensPerChar: 0.25, source: "huggingface.co/Qwen/Qwen2.5-32B-Instruct" },
  { name: "qwen2.5-72b-instruct", contextWindow: 131_072, tokensPerChar: 0.25, source: "huggingface.co/Qwen/Qwen2.5-72B-Instruct" },
  { name: "qwen3-8b", contextWindow: 32_768, tokensPerChar: 0.25, source: "huggingface.co/Qwen/Qwen3-8B" },
  { name: "qwen3-32b", contextWindow: 32_768, tokensPerChar: 0.25, source: "huggingface.co/Qwen/Qwen3-32B" },
  { name: "qwen3-30b-a3b", contextWindow: 32_768, tokensPerChar: 0.25, source: "huggingface.co/Qwen/Qwen3-30B-A3B" },
  { name: "qwen3-235b-a22b", contextWindow: 32_768, tokensPerChar: 0.25, source: "huggingface.co/Qwen/Qwen3-235B-A22B" }, // unconfirmed

  // Mistral: the docs give "128k" / "256k"; the lower decimal reading is used.
  { name: "mistral-large-latest", contextWindow: 128_000, tokensPerChar: 0.25, source: "docs.mistral.ai/getting-started/models" },
  { name: "mistral-medium", contextWindow: 128_000, tokensPerChar: 0.25, source: "docs.mistral.ai/getting-started/models" },
  { name: "mistral-small-latest", contextWindow: 128_000, tokensPerChar: 0.25, source: "docs.mistral.ai/getting-started/models" },
  { name: "codestral", contextWindow: 256_000, tokensPerChar: 0.25, source: "docs.mistral.ai/getting-started/models" },
  { name: "ministral-8b", contextWindow: 128_000, tokensPerChar: 0.25, source: "docs.mistral.ai/getting-started/models" },
  { name: "open-mistral-nemo", contextWindow: 128_000, tokensPerChar: 0.25, source: "docs.mistral.ai/getting-started/models" },
];
