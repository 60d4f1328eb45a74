// Builds the exact BPE counter's modules: compiles assembly/bpe/ once and puts into each copy,
// as one data segment, the tables it counts with, generated here at build time:
//   - the mergeable ranks of one encoding, from gpt-tokenizer's bundled data (rank r = the r-th
//     entry: its length in a byte array, its bytes in a pool): o200k_base in ctxloom-bpe.wasm,
//     cl100k_base in ctxloom-bpe-cl100k.wasm, none in ctxloom-bpe-vocab.wasm (a vocabulary is
//     written into it at run time: src/tokens/vocabulary.ts). One encoding a module: a page or a
//     Worker that counts only o200k_base ships only its ranks;
//   - the Unicode classes the split patterns use (letters by case, marks, numbers, \s), from
//     this JS engine's own Unicode data (/\p{Lu}/u and friends over every code point), so the
//     scanner agrees with the regexes gpt-tokenizer runs on the same engine.
// Nothing is fetched from the network at run time. The file goes to dist/ (the runtimes read or
// import it beside the JS) and to src/ (for the tests, which run the sources).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Where the tables start in linear memory (assembly/bpe/layout.ts: DATA_BASE). */
const DATA_BASE = 65536;
const HEADER_WORDS = 16;
const BLOCK_SHIFT = 7;

// Unicode classes (assembly/bpe/layout.ts: C_*).
const C_UPPER = 1,
  C_LOWER = 2,
  C_OTHER_LETTER = 3,
  C_MARK = 4,
  C_NUMBER = 5,
  C_SPACE = 6,
  C_PUNCT = 7;
/** Split patterns (assembly/bpe/layout.ts: P_*). */
const P_O200K = 0,
  P_CL100K = 1;

function unicodeClasses() {
  const tests = [
    [/^\s$/u, C_SPACE],
    [/^[\p{Lu}\p{Lt}]$/u, C_UPPER],
    [/^\p{Ll}$/u, C_LOWER],
    [/^[\p{Lm}\p{Lo}]$/u, C_OTHER_LETTER],
    [/^\p{M}$/u, C_MARK],
    [/^\p{N}$/u, C_NUMBER],
    [/^[\p{P}\p{S}]$/u, C_PUNCT],
  ];
  const any = /[\s\p{L}\p{M}\p{N}\p{P}\p{S}]/u;
  const classes = new Uint8Array(0x110000);
  for (let cp = 0; cp < 0x110000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue; // surrogates: refused before counting
    const ch = String.fromCodePoint(cp);
    if (!any.test(ch)) continue;
    const hits = tests.filter(([re]) => re.test(ch));
    if (hits.length !== 1) throw new Error(`U+${cp.toString(16)}: ${hits.length} classes`);
    classes[cp] = hits[0][1];
  }
  // Two levels: a u16 block number per 128 code points, then the distinct blocks.
  const blockSize = 1 << BLOCK_SHIFT;
  const index = new Uint16Array(0x110000 >> BLOCK_SHIFT);
  const blocks = [];
  const seen = new Map();
  for (let b = 0; b < index.length; b++) {
    const block = classes.subarray(b << BLOCK_SHIFT, (b + 1) << BLOCK_SHIFT);
    const key = block.join(",");
    let n = seen.get(key);
    if (n === undefined) {
      n = blocks.length;
      seen.set(key, n);
      blocks.push(block);
    }
    index[b] = n;
  }
  const blockBytes = new Uint8Array(blocks.length * blockSize);
  blocks.forEach((block, i) => blockBytes.set(block, i * blockSize));
  // And the Basic Multilingual Plane flat, one byte per code point (64 KiB): the scanner reads
  // the class of a 1-, 2- or 3-byte character in one load, without the index's.
  return { index: new Uint8Array(index.buffer), blocks: blockBytes, bmp: classes.slice(0, 0x10000) };
}

async function ranks(encoding) {
  const { default: decoder } = await import(`gpt-tokenizer/bpeRanks/${encoding}`);
  const encoder = new TextEncoder();
  const lengths = new Uint8Array(decoder.length);
  const parts = [];
  let poolBytes = 0;
  let maxLength = 0;
  for (let rank = 0; rank < decoder.length; rank++) {
    const value = decoder[rank];
    if (value === undefined) continue; // a hole: an unused rank, never matched
    const bytes = typeof value === "string" ? encoder.encode(value) : Uint8Array.from(value);
    if (bytes.length === 0 || bytes.length > 255) throw new Error(`${encoding} rank ${rank}: ${bytes.length} bytes`);
    lengths[rank] = bytes.length;
    parts.push(bytes);
    poolBytes += bytes.length;
    maxLength = Math.max(maxLength, bytes.length);
  }
  if (decoder.length >= (1 << 20) - 1)
    throw new Error(`${encoding}: ${decoder.length} ranks; a hash slot holds rank + 1 in 20 bits`);
  if (poolBytes >= 1 << 22)
    throw new Error(`${encoding}: ${poolBytes} bytes of tokens; a hash slot holds a pool offset in 22 bits`);
  const pool = new Uint8Array(poolBytes);
  let at = 0;
  for (const bytes of parts) {
    pool.set(bytes, at);
    at += bytes.length;
  }
  return { count: decoder.length, lengths, pool, maxLength };
}

/** The modules built: file, and the encoding in each slot (assembly/bpe/layout.ts). */
export const MODULES = [
  { file: "ctxloom-bpe.wasm", slots: ["o200k_base", null] },
  { file: "ctxloom-bpe-cl100k.wasm", slots: [null, "cl100k_base"] },
  { file: "ctxloom-bpe-vocab.wasm", slots: [null, null] },
];

let unicodeMemo;

/** The tables of a module as one blob: a header of u32 words, then each array 8-byte aligned. */
export async function tablesBlob(slots = ["o200k_base", "cl100k_base"]) {
  const encodings = await Promise.all(slots.map((name) => (name ? ranks(name) : null)));
  const unicode = (unicodeMemo ??= unicodeClasses());
  const arrays = [];
  let size = HEADER_WORDS * 4;
  const place = (bytes) => {
    const at = size;
    arrays.push([at, bytes]);
    size = (size + bytes.length + 8 + 7) & ~7; // 8 spare bytes: word loads may read past an end
    return at;
  };
  const header = new Uint32Array(HEADER_WORDS);
  header[0] = 0x32455042; // "BPE2"
  header[13] = P_O200K;
  header[14] = P_CL100K;
  encodings.forEach((e, i) => {
    if (!e) return;
    header[2 + 4 * i] = e.count;
    header[3 + 4 * i] = place(e.lengths);
    header[4 + 4 * i] = place(e.pool);
    header[5 + 4 * i] = e.maxLength;
  });
  header[10] = place(unicode.index);
  header[11] = place(unicode.blocks);
  header[12] = place(unicode.bmp);
  header[1] = size;
  const blob = new Uint8Array(size);
  blob.set(new Uint8Array(header.buffer), 0);
  for (const [at, bytes] of arrays) blob.set(bytes, at);
  return { blob, encodings: encodings.filter((e) => e), unicode };
}

// --- wasm binary surgery: one more active data segment at DATA_BASE ---

function readLeb(bytes, at) {
  let value = 0,
    shift = 0,
    byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

function leb(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

function sleb(value) {
  const out = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/** `wasm` with `blob` as an active data segment at `offset`; checks the module's own data ends below it. */
function withDataSegment(wasm, blob, offset) {
  const sections = [];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, body] = readLeb(wasm, at + 1);
    sections.push({ id, body: wasm.subarray(body, body + size) });
    at = body + size;
  }
  const segment = [0x00, 0x41, ...sleb(offset), 0x0b, ...leb(blob.length)];
  let dataSeen = false;
  const out = [wasm.subarray(0, 8)];
  for (const s of sections) {
    let body = s.body;
    if (s.id === 11) {
      dataSeen = true;
      const [n, rest] = readLeb(body, 0);
      // The module's own segments must end below the tables.
      let p = rest;
      for (let i = 0; i < n; i++) {
        if (body[p] !== 0x00 || body[p + 1] !== 0x41) throw new Error("unexpected data segment kind");
        const [start, q] = readLeb(body, p + 2); // small positive offsets: the unsigned read agrees
        const [len, r] = readLeb(body, q + 1);
        if (start + len > offset) throw new Error(`the module's data reaches ${start + len}, above ${offset}`);
        p = r + len;
      }
      body = Uint8Array.from([...leb(n + 1), ...body.subarray(rest), ...segment, ...blob]);
    } else if (s.id === 12) {
      const [n] = readLeb(body, 0);
      body = Uint8Array.from(leb(n + 1));
    }
    out.push(Uint8Array.from([s.id, ...leb(body.length)]), body);
    if (s.id === 10 && !sections.some((t) => t.id === 11)) {
      // No data of its own: the tables make the data section, right after the code.
      dataSeen = true;
      const own = Uint8Array.from([...leb(1), ...segment, ...blob]);
      out.push(Uint8Array.from([11, ...leb(own.length)]), own);
    }
  }
  if (!dataSeen) throw new Error("the module has no code section");
  return Buffer.concat(out);
}

async function main() {
  mkdirSync(join(root, "build"), { recursive: true });
  mkdirSync(join(root, "dist"), { recursive: true });
  const asc = createRequire(import.meta.url).resolve("assemblyscript/bin/asc.js");
  // Memory starts at the tables' end (the largest module's): it grows as a module needs.
  const pages = Math.ceil((DATA_BASE + 65536) / 65536);
  execFileSync(
    process.execPath,
    [asc, "--config", "assembly/bpe/asconfig.json", "--target", "release", "--initialMemory", String(pages)],
    { cwd: root, stdio: "inherit" },
  );
  const raw = readFileSync(join(root, "build/ctxloom-bpe.raw.wasm"));
  for (const { file, slots } of MODULES) {
    const { blob, encodings } = await tablesBlob(slots);
    const named = withCustomSection(
      withDataSegment(raw, blob, DATA_BASE),
      "ctxloom-bpe",
      slots.filter((e) => e).join(","),
    );
    const wasm = withInitialMemory(named, Math.ceil((DATA_BASE + blob.length) / 65536));
    await WebAssembly.compile(wasm); // fails the build on a malformed module
    writeFileSync(join(root, "build", file), wasm);
    // Beside the sources too (src/, not committed), so that src/tokens/wasm-bpe.ts finds it at
    // the same relative path as dist/tokens/wasm-bpe.js finds dist/.
    copyFileSync(join(root, "build", file), join(root, "src", file));
    copyFileSync(join(root, "build", file), join(root, "dist", file));
    writeFileSync(
      join(root, `dist/${file}.d.ts`),
      `/** ctxloom's exact BPE counter, precompiled by the importer (Workers, bundlers with a CompiledWasm rule). */\n` +
        `declare const bpe: WebAssembly.Module;\nexport default bpe;\n`,
    );
    const ranksLine = encodings.map((e) => `${e.count} ranks, ${e.pool.length} bytes`).join("; ") || "no ranks";
    console.log(`build/${file}: ${wasm.length} bytes (tables ${blob.length}: ${ranksLine}) -> src/ and dist/`);
  }
}

/**
 * `wasm` with a custom section `name` holding `text`: what a module carries, read without
 * instantiating it (WebAssembly.Module.customSections) when one is handed over.
 */
function withCustomSection(wasm, name, text) {
  const encoder = new TextEncoder();
  const nameBytes = encoder.encode(name);
  const body = Uint8Array.from([...leb(nameBytes.length), ...nameBytes, ...encoder.encode(text)]);
  return Buffer.concat([wasm, Uint8Array.from([0, ...leb(body.length)]), body]);
}

/** `wasm` with its memory's initial size set to `pages` (the memory section: one memory, limits flag 0 or 1). */
function withInitialMemory(wasm, pages) {
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, body] = readLeb(wasm, at + 1);
    if (id === 5) {
      const flag = wasm[body + 1];
      const [, afterMin] = readLeb(wasm, body + 2);
      const rest = wasm.subarray(afterMin, body + size);
      const section = Uint8Array.from([1, flag, ...leb(pages), ...rest]);
      return Buffer.concat([
        wasm.subarray(0, at),
        Uint8Array.from([5, ...leb(section.length)]),
        section,
        wasm.subarray(body + size),
      ]);
    }
    at = body + size;
  }
  throw new Error("the module has no memory section");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
