// The two exact backends agree: gpt-tokenizer (the default, loadEncoding) and js-tiktoken
// (tiktokenCounter) give identical counts for both encodings on a few hundred varied texts:
// real conversation texts from ../shared/data when present, plus unicode, emoji, code,
// whitespace runs and text that looks like special tokens.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadEncoding } from "../../src/tokens-entry.js";
import { tiktokenCounter } from "./tiktoken.js";

const dataDir = join(dirname(fileURLToPath(import.meta.url)), "../../../shared/data");

/** Up to `max` message texts from the shared data sets (none when the folder is absent). */
function sharedTexts(max: number): string[] {
  const out: string[] = [];
  const oasst = join(dataDir, "oasst/en_100_tree.jsonl");
  if (existsSync(oasst)) {
    interface M {
      text: string;
      replies?: M[];
    }
    const walk = (m: M) => {
      out.push(m.text);
      for (const r of m.replies ?? []) walk(r);
    };
    for (const line of readFileSync(oasst, "utf8").split("\n"))
      if (line.trim()) walk((JSON.parse(line) as { prompt: M }).prompt);
  } else {
    console.warn(`backends.test.ts: ${oasst} is absent; comparing on built-in texts only.`);
  }
  const sharegpt = join(dataDir, "sharegpt/axolotl_sharegpt_conversation.json");
  if (existsSync(sharegpt)) {
    for (const c of (JSON.parse(readFileSync(sharegpt, "utf8")) as { conversations: { value: string }[] })
      .conversations)
      out.push(c.value);
  }
  // spread the picks over the whole set
  const step = Math.max(1, Math.floor(out.length / max));
  return out.filter((_, i) => i % step === 0).slice(0, max);
}

const BUILT_IN = [
  "",
  " ",
  "\n\n\n",
  "   leading and trailing   ",
  "Hello, world!",
  "<|endoftext|>",
  "<|im_start|>system\nYou are helpful.<|im_end|>",
  "<|fim_prefix|>def f():<|fim_suffix|>",
  "text <|endofprompt|> more",
  "😀😃😄😁😆😅🤣😂🙂🙃😉😊😇 🥰😍🤩 👩‍👩‍👧‍👦 🏳️‍🌈 🇫🇷🇯🇵",
  "日本語のテキストです。漢字、ひらがな、カタカナ。",
  "中文文本测试，标点符号！",
  "Ελληνικά κείμενα και русский текст и العربية و עברית",
  "हिन्दी पाठ और தமிழ் உரை",
  "naïve café résumé — “quotes” ‘single’ … ½ ∑ ∫ √ ≠ ≤ ≥",
  "function add(a: number, b: number): number {\n\treturn a + b;\n}\n",
  "SELECT id, name FROM users WHERE created_at > NOW() - INTERVAL '7 days';",
  '{"key": [1, 2.5e-3, true, null], "nested": {"a": "b"}}',
  "https://example.com/path?query=1&other=two#fragment",
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  "1234567890 3.14159265358979 -42 1e100 0xDEADBEEF",
  "\u0000\u0001\u001f control chars \u007f",
  "\ud83d lone surrogate",
  "Mixed\r\nline\rendings\n",
  "tabs\t\tand    spaces",
  "'s 't 're 've 'm 'll 'd — contractions: don't won't I'm they're",
];

/** Deterministic pseudo-random strings over a varied alphabet. */
function randomTexts(n: number): string[] {
  const alphabet = [
    ..."abcdefghijklmnopqrstuvwxyz ABCXYZ 0123456789 .,;:!?'\"()[]{}<>|\\/_-+=*&^%$#@~`\n\t",
    "é",
    "ß",
    "中",
    "日",
    "😀",
    "👍🏽",
    "<|",
    "|>",
    "endoftext",
    "  ",
  ];
  let s = 12345;
  const next = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff), s);
  return Array.from({ length: n }, () =>
    Array.from({ length: next() % 200 }, () => alphabet[next() % alphabet.length]).join(""),
  );
}

describe("gpt-tokenizer and js-tiktoken count alike", () => {
  const texts = [...BUILT_IN, ...sharedTexts(300), ...randomTexts(150)];

  it("has a few hundred texts to compare", () => {
    expect(texts.length).toBeGreaterThanOrEqual(170);
  });

  for (const encoding of ["o200k_base", "cl100k_base"] as const) {
    it(`${encoding}: identical counts on every text`, async () => {
      const [fast, tiktoken] = await Promise.all([loadEncoding(encoding), tiktokenCounter(encoding)]);
      expect(fast.exact && tiktoken.exact).toBe(true);
      const differing = texts
        .filter((t) => fast.count(t) !== tiktoken.count(t))
        .map((t) => JSON.stringify(t.slice(0, 60)));
      expect(differing).toEqual([]);
      // special-token-looking text is plain text: more than one token
      expect(fast.count("<|endoftext|>")).toBeGreaterThan(1);
    });
  }

  it("loadEncoding loads once: the same counter every time", async () => {
    const [a, b] = await Promise.all([loadEncoding("o200k_base"), loadEncoding("o200k_base")]);
    expect(a).toBe(b);
    expect(await loadEncoding("o200k_base")).toBe(a);
  });
});
