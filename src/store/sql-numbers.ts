// A long chat's numbers apart from its texts (schema version 5): per chunk of CHUNK messages, one
// BLOB of what a paged open reads of each (parent, tokens, time, codes), 17 bytes a message, so
// that opening a chat of a million messages reads 17 MB in a thousand rows instead of walking a
// gigabyte of message rows. A chunk is written once it is full (its last message appended, or
// read from the rows by a paged open), rewritten when a redaction changes one of its messages,
// and deleted with its chat: a chunk that is there is exact; one that is not is read from the rows.
import type { SqlConnection } from "./sql-connection.js";
import { asBytes } from "./vectors.js";

/** Messages a chunk holds: ids `chunk * CHUNK` to `chunk * CHUNK + CHUNK - 1`. */
export const CHUNK = 1024;
/** Bytes a message takes in a chunk's BLOB. */
const BYTES = 17;
/** In a chunk's code byte, beside role | priority << 2 | kind << 4: the message has optional fields. */
export const HAS_EXTRAS = 32;
/** In a chunk's code byte: the message's text is empty. */
export const EMPTY_TEXT = 64;
/** Chunks a read of the BLOBs returns at most (about 1 MB). */
const READ = 64;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * A chunk's numbers, as its BLOB holds them (little-endian, in this order): created f64, parent
 * i32 (-1: none), tokens i32, code u8 (role | priority << 2 | kind << 4 | HAS_EXTRAS | EMPTY_TEXT).
 */
export interface ChunkNumbers {
  created: Float64Array;
  parents: Int32Array;
  tokens: Int32Array;
  codes: Uint8Array;
}

export type NumbersStatements = ReturnType<typeof numbersStatements>;

/** The statements over `${p}message_numbers`. */
export function numbersStatements(p: string) {
  const numbers = `${p}message_numbers`;
  return {
    chunks: `SELECT chunk, data FROM ${numbers} WHERE chat = ? AND chunk >= ? AND chunk < ? ORDER BY chunk`,
    put: `INSERT OR REPLACE INTO ${numbers} (chat, chunk, data) VALUES (?, ?, ?)`,
    deleteChunk: `DELETE FROM ${numbers} WHERE chat = ? AND chunk = ?`,
  };
}

/** The chunk's BLOB (`littleEndian`: the host's order, a parameter for the tests). */
export function encodeChunk(n: ChunkNumbers, littleEndian = LITTLE_ENDIAN): Uint8Array {
  const count = n.codes.length;
  const bytes = new Uint8Array(count * BYTES);
  if (littleEndian) {
    new Float64Array(bytes.buffer, 0, count).set(n.created);
    new Int32Array(bytes.buffer, count * 8, count).set(n.parents);
    new Int32Array(bytes.buffer, count * 12, count).set(n.tokens);
  } else {
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < count; i++) {
      view.setFloat64(i * 8, n.created[i]!, true);
      view.setInt32(count * 8 + i * 4, n.parents[i]!, true);
      view.setInt32(count * 12 + i * 4, n.tokens[i]!, true);
    }
  }
  bytes.set(n.codes, count * 16);
  return bytes;
}

/** A chunk from its BLOB (CHUNK messages), or undefined when the BLOB is not one. */
export function decodeChunk(bytes: Uint8Array, littleEndian = LITTLE_ENDIAN): ChunkNumbers | undefined {
  if (bytes.byteLength !== CHUNK * BYTES) return undefined;
  // The driver's bytes may be shared or unaligned (a Buffer of a pool): the views get a copy of their own.
  const own = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength ? bytes : bytes.slice();
  const count = CHUNK;
  const n: ChunkNumbers = {
    created: new Float64Array(own.buffer, 0, count),
    parents: new Int32Array(own.buffer, count * 8, count),
    tokens: new Int32Array(own.buffer, count * 12, count),
    codes: new Uint8Array(own.buffer, count * 16, count),
  };
  if (!littleEndian) {
    const view = new DataView(own.buffer);
    const swapped: ChunkNumbers = {
      created: new Float64Array(count),
      parents: new Int32Array(count),
      tokens: new Int32Array(count),
      codes: n.codes,
    };
    for (let i = 0; i < count; i++) {
      swapped.created[i] = view.getFloat64(i * 8, true);
      swapped.parents[i] = view.getInt32(count * 8 + i * 4, true);
      swapped.tokens[i] = view.getInt32(count * 12 + i * 4, true);
    }
    return swapped;
  }
  return n;
}

/**
 * Chunks 0 to `below - 1` of chat `key` that are written, in order, READ at a time: `each(chunk,
 * bytes)` for each (a value that is not bytes comes as undefined, read as no chunk).
 */
export function eachStoredChunk(
  db: SqlConnection,
  ns: NumbersStatements,
  key: number,
  below: number,
  each: (chunk: number, bytes: Uint8Array | undefined) => void,
): void {
  for (let from = 0; from < below; from += READ) {
    for (const [chunk, data] of db.all(ns.chunks, key, from, Math.min(below, from + READ))) {
      each(chunk as number, asBytes(data));
    }
  }
}
