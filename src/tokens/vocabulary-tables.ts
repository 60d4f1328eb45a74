// An open model's tokenizer file read into the tables of ctxloom's BPE counter: every token
// that merges can make, as bytes, in the order its merges run (tiktoken's ranks). Two forms:
//   - Hugging Face's tokenizer.json (Llama 3, Qwen 2.5 / 3, DeepSeek V3: byte-level BPE, each
//     byte a character of GPT-2's table; Gemma 3: SentencePiece merges over characters, "▁" for
//     a space, bytes for a character the vocabulary lacks). A token's rank is the first merge
//     that makes it; the counts are those of the file's own merges (the tests compare them with
//     Hugging Face's tokenizer on the multilingual corpora: identical).
//   - Mistral's Tekken file (tekken.json: `vocab` of base64 tokens by rank; or the `bpe_ranks`
//     string of js-tiktoken's format), its ranks as they are, up to the vocabulary's size less
//     the special tokens.
// Nothing here reads a file or fetches: the caller hands over the object it parsed.
import { CtxloomError, describe } from "../errors.js";

/** An open model's encoding: its tokenizer file handed over at run time (registerEncoding). */
export type OpenEncoding = "llama3" | "qwen2" | "deepseek_v3" | "tekken" | "gemma3";

/** The tables written into the counter: a length a rank, the tokens' bytes back to back, and the split pattern. */
export interface VocabularyTables {
  lengths: Uint8Array;
  pool: Uint8Array;
  longest: number;
  /** assembly/bpe/layout.ts: P_* */
  pattern: number;
  /** Rewrites a text as the tokenizer's normalizer does, where it changes some (Qwen: NFC; Gemma: "▁" is a space). */
  prepare?: (text: string) => string;
}

/** Each encoding's split pattern (the file's must be it) and the counter's P_* for it. */
const PATTERNS: Record<Exclude<OpenEncoding, "gemma3">, { regex: string; id: number }> = {
  llama3: {
    id: 2,
    regex:
      "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| " +
      "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  },
  qwen2: {
    id: 3,
    regex:
      "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| " +
      "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  },
  tekken: {
    id: 4,
    regex:
      "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+" +
      "|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*" +
      "|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  },
  deepseek_v3: {
    id: 5,
    regex:
      "\\p{N}{1,3}|[一-龥぀-ゟ゠-ヿ]+|[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+" +
      "|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
  },
};
const P_PIECES = 6;

type Json = Record<string, unknown>;

const refuse = (encoding: OpenEncoding, why: string): never => {
  throw new CtxloomError(
    "INVALID_ARGUMENT",
    `This tokenizer file is not ${encoding}'s: ${why}. Pass the parsed tokenizer.json (or tekken.json) of a ` +
      `${encoding} model.`,
  );
};

/** GPT-2's table: each byte as a character (byte-level BPE writes tokens in it). */
function byteLevelChars(): Map<string, number> {
  const direct = [...range(0x21, 0x7e), ...range(0xa1, 0xac), ...range(0xae, 0xff)];
  const map = new Map<string, number>();
  let extra = 0;
  for (let b = 0; b < 256; b++) map.set(String.fromCharCode(direct.includes(b) ? b : 256 + extra++), b);
  return map;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The split regex of a tokenizer.json's pre-tokenizers, joined (DeepSeek's are three). */
function splitRegex(file: Json): string {
  const pre = file.pre_tokenizer as Json | null;
  const list = (pre?.type === "Sequence" ? (pre.pretokenizers as Json[]) : pre ? [pre] : []).filter(
    (p) => p.type === "Split",
  );
  return list.map((p) => String((p.pattern as Json | undefined)?.Regex ?? "")).join("|");
}

/** The merges of a tokenizer.json as pairs ("a b" strings in older files, [a, b] in newer ones). */
function mergePairs(model: Json): [string, string][] {
  const merges = model.merges;
  if (!Array.isArray(merges)) return [];
  return merges.map((m) =>
    Array.isArray(m) ? [String(m[0]), String(m[1])] : (String(m).split(" ") as [string, string]),
  );
}

/** Tables of a sorted list of tokens (bytes), refusing what the counter cannot hold. */
function pack(
  encoding: OpenEncoding,
  tokens: Uint8Array[],
  pattern: number,
  prepare?: (text: string) => string,
): VocabularyTables {
  if (tokens.length >= (1 << 20) - 1) refuse(encoding, `${tokens.length} tokens (the counter holds fewer than 2^20)`);
  const lengths = new Uint8Array(tokens.length);
  let bytes = 0;
  let longest = 1;
  tokens.forEach((t, r) => {
    lengths[r] = t.length;
    bytes += t.length;
    longest = Math.max(longest, t.length);
  });
  if (bytes >= 1 << 22) refuse(encoding, `${bytes} bytes of tokens (the counter holds fewer than 4 MiB)`);
  const pool = new Uint8Array(bytes);
  let at = 0;
  for (const t of tokens) {
    pool.set(t, at);
    at += t.length;
  }
  return prepare ? { lengths, pool, longest, pattern, prepare } : { lengths, pool, longest, pattern };
}

/** The tables of a Hugging Face tokenizer.json of `encoding`. @throws INVALID_ARGUMENT when it is another's */
function huggingFaceTables(encoding: OpenEncoding, file: Json): VocabularyTables {
  const model = (file.model ?? {}) as Json;
  if (model.type !== "BPE") refuse(encoding, `its model is ${describe(model.type)}, not BPE`);
  const merges = mergePairs(model);
  if (merges.length === 0) refuse(encoding, "it has no merges");
  const encoder = new TextEncoder();
  const made = new Map<string, number>(); // a token -> the first merge that makes it
  merges.forEach(([a, b], i) => {
    if (!made.has(a + b)) made.set(a + b, i);
  });
  const tokens: Uint8Array[] = [];
  let toBytes: (token: string) => Uint8Array | undefined;
  let pattern: number;
  let prepare: ((text: string) => string) | undefined;
  if (encoding === "gemma3") {
    const normalizer = (file.normalizer ?? {}) as Json;
    if (model.byte_fallback !== true || normalizer.type !== "Replace" || normalizer.content !== "▁") {
      refuse(encoding, 'it is not SentencePiece merges with byte fallback and spaces as "▁"');
    }
    pattern = P_PIECES;
    const spaced = (token: string) => encoder.encode(token.replaceAll("▁", " "));
    toBytes = spaced;
    prepare = (text) => (text.includes("▁") ? text.replaceAll("▁", " ") : text);
    // The characters merges start from, first: a character of several bytes is merged from its
    // bytes before anything else (its prefixes ranked lowest), so that merges start from it.
    const vocab = Object.keys((model.vocab ?? {}) as Json);
    const prefixes = new Set<string>();
    const chars: Uint8Array[] = [];
    for (const token of vocab) {
      if ([...token].length !== 1 || made.has(token)) continue;
      const bytes = spaced(token);
      if (bytes.length < 2) continue;
      for (let k = 2; k < bytes.length; k++) prefixes.add(bytes.subarray(0, k).join(","));
      chars.push(bytes);
    }
    for (const p of prefixes) tokens.push(Uint8Array.from(p.split(",").map(Number)));
    tokens.push(...chars);
  } else {
    const expected = PATTERNS[encoding];
    const regex = splitRegex(file);
    if (regex !== expected.regex) refuse(encoding, `its split pattern is ${describe(regex.slice(0, 60))}...`);
    pattern = expected.id;
    const chars = byteLevelChars();
    toBytes = (token) => {
      const out = new Uint8Array(token.length);
      for (let i = 0; i < token.length; i++) {
        const b = chars.get(token[i]!);
        if (b === undefined) return undefined;
        out[i] = b;
      }
      return out;
    };
    for (let b = 0; b < 256; b++) tokens.push(Uint8Array.of(b));
    if (encoding === "qwen2") prepare = (text) => text.normalize("NFC");
  }
  for (const token of [...made.keys()].sort((x, y) => made.get(x)! - made.get(y)!)) {
    const bytes = toBytes(token);
    if (bytes && bytes.length <= 255) tokens.push(bytes);
  }
  return pack(encoding, tokens, pattern, prepare);
}

/** The tables of Mistral's Tekken file. @throws INVALID_ARGUMENT when it is not one */
function tekkenTables(file: Json): VocabularyTables {
  const config = (file.config ?? {}) as Json;
  if (config.pattern !== PATTERNS.tekken.regex) refuse("tekken", "its config.pattern is not Tekken's");
  const size = Number(config.default_vocab_size) - Number(config.default_num_special_tokens);
  if (!Number.isInteger(size) || size <= 256) refuse("tekken", "its config gives no vocabulary size");
  const decode = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const byRank: Uint8Array[] = [];
  if (Array.isArray(file.vocab)) {
    for (const entry of file.vocab as Json[]) byRank[Number(entry.rank)] = decode(String(entry.token_bytes));
  } else if (typeof file.bpe_ranks === "string") {
    for (const line of file.bpe_ranks.split("\n")) {
      const [, offset, ...tokens] = line.split(" ");
      tokens.forEach((t, i) => (byRank[Number(offset) + i] = decode(t)));
    }
  } else refuse("tekken", "it has neither vocab nor bpe_ranks");
  const tokens = byRank.slice(0, size);
  if (tokens.length < size || tokens.some((t) => t === undefined)) refuse("tekken", "ranks are missing");
  return pack("tekken", tokens, PATTERNS.tekken.id);
}

/** The counter's tables for an open encoding's tokenizer file. @throws INVALID_ARGUMENT */
export function vocabularyTables(encoding: OpenEncoding, file: unknown): VocabularyTables {
  if (file === null || typeof file !== "object" || Array.isArray(file)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `registerEncoding takes the parsed tokenizer file (an object); got ${describe(file)}.`,
    );
  }
  return encoding === "tekken" ? tekkenTables(file as Json) : huggingFaceTables(encoding, file as Json);
}
