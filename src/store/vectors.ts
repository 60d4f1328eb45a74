// The one encoding of an embedding in every SQL store: float32, little-endian, 4 bytes per
// number, nothing else. On a little-endian host (every host ctxloom runs on in practice) a
// vector's bytes are copied as they are; a big-endian one swaps them, so a file or a
// database moved between hosts reads back the same vectors.

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A vector's float32 little-endian bytes (a copy: the caller's vector is not kept). */
export function vectorToBytes(vector: Float32Array, littleEndian = LITTLE_ENDIAN): Uint8Array {
  if (littleEndian) return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength).slice();
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i]!, true);
  return bytes;
}

/** A vector from its float32 little-endian bytes (copied: the bytes may be shared or unaligned). */
export function vectorFromBytes(bytes: Uint8Array, littleEndian = LITTLE_ENDIAN): Float32Array {
  const vector = new Float32Array(bytes.byteLength >> 2);
  if (littleEndian) {
    new Uint8Array(vector.buffer).set(bytes.subarray(0, vector.byteLength));
    return vector;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}

/**
 * A BLOB as a driver returns it (better-sqlite3 and pg: a Buffer; a Durable Object: an ArrayBuffer) as bytes, or
 * undefined for anything else.
 */
export function asBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return undefined;
}
