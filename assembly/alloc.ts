// Block allocator over the module's linear memory.
//
// Everything the core keeps lives in blocks whose size is a power of two times a
// unit, so a freed block goes to the free list of its size class and is handed out
// again to the next request of that class. New blocks come from a bump pointer; when
// it reaches the end of memory, memory grows by at least its current size (doubling),
// never past the limit set by `setMemoryLimit`. Doubling, not less: V8 counts linear memory
// as external memory, and each growth past its external limit starts a full collection of
// the JS heap (which frees none of it). Pages past the bump pointer are reserved, never
// touched, so they cost no resident memory. Every `memory.grow` is checked: a
// failure returns 0 and the caller reports it to JS, which throws a CtxloomError.

const PAGE_BITS: i32 = 16;
const CLASSES: i32 = 32;

/** Free-list heads: [0, CLASSES) for raw power-of-two byte blocks, [CLASSES, 2*CLASSES) for node blocks. */
const freeHeads = memory.data(2 * CLASSES * 4);

let top: usize = (__heap_base + 15) & ~15;
let limitPages: i32 = 65536; // 4 GiB: the wasm32 ceiling

/** Caps the memory the core may grow to, in 64 KiB pages (0 means no cap). O(1). */
export function setMemoryLimit(pages: i32): void {
  limitPages = pages <= 0 || pages > 65536 ? 65536 : pages;
}

/** Pages of linear memory in use (for the figures of memory per message). O(1). */
export function memoryPages(): i32 {
  return memory.size();
}

/**
 * Bytes below the bump pointer: every block handed out so far, free ones included (the pages above were never touched).
 * O(1).
 */
export function memoryUsed(): usize {
  return top;
}

function grow(end: usize): bool {
  const have = memory.size();
  const need = <i32>((<u64>end + 0xffff) >> PAGE_BITS); // in 64 bits: an end near 4 GiB must not wrap
  if (need <= have) return true;
  let want = max(need, have << 1);
  if (want > limitPages) want = need;
  if (want > limitPages) return false;
  return memory.grow(want - have) >= 0;
}

/** The end of `bytes` (rounded to 16) from `ptr`, or 0 when it would pass the 4 GiB address space. */
@inline function endOf(ptr: usize, bytes: usize): usize {
  const end = <u64>ptr + ((<u64>bytes + 15) & ~15);
  return end > 0xffff0000 ? 0 : <usize>end;
}

function take(bytes: usize): usize {
  const ptr = top;
  const end = endOf(ptr, bytes);
  if (end == 0 || !grow(end)) return 0;
  top = end;
  return ptr;
}

@inline function pop(list: i32, bytes: usize): usize {
  const head = freeHeads + (<usize>list << 2);
  const ptr = <usize>load<u32>(head);
  if (ptr != 0) {
    store<u32>(head, load<u32>(ptr));
    return ptr;
  }
  return take(bytes);
}

/** Frees a block: the topmost one gives its memory back to the bump pointer, any other joins its free list. */
@inline function push(list: i32, ptr: usize, bytes: usize): void {
  if (endOf(ptr, bytes) == top) {
    top = ptr; // the next block (or the one below, growing in place) reuses these warm pages
    return;
  }
  const head = freeHeads + (<usize>list << 2);
  store<u32>(ptr, load<u32>(head));
  store<u32>(head, <u32>ptr);
}

/** Whether a freed block of this class is waiting to be reused. */
@inline function hasFree(list: i32): bool {
  return load<u32>(freeHeads + (<usize>list << 2)) != 0;
}

/**
 * Grows the block at `ptr` from `bytes` to `newBytes` in place if it is the newest block; false otherwise or when
 * memory cannot grow.
 */
export function extendTop(ptr: usize, bytes: usize, newBytes: usize): bool {
  if (endOf(ptr, bytes) != top) return false;
  const end = endOf(ptr, newBytes);
  if (end == 0 || !grow(end)) return false;
  top = end;
  return true;
}

/** A block of (1 << k) bytes, or 0 when memory cannot grow. */
export function allocRaw(k: i32): usize {
  return pop(k, <usize>1 << k);
}

export function freeRaw(ptr: usize, k: i32): void {
  push(k, ptr, <usize>1 << k);
}

/** A block of `unit << k` bytes for node blocks (one unit size, so a class is one block size), or 0. */
export function allocUnits(unit: usize, k: i32): usize {
  return pop(CLASSES + k, unit << k);
}

export function freeUnits(ptr: usize, unit: usize, k: i32): void {
  push(CLASSES + k, ptr, unit << k);
}

/** The class of the block the last `reuseUnits` returned. */
export let reusedClass: i32 = 0;

/**
 * The smallest freed node block of class k or more (its class in `reusedClass`), or 0 when
 * none is free: a growing tree takes it whole, so the memory of deleted chats serves again
 * before fresh memory is touched. O(classes).
 */
export function reuseUnits(k: i32): usize {
  for (let c = k; c < CLASSES; c++) {
    if (hasFree(CLASSES + c)) {
      reusedClass = c;
      return pop(CLASSES + c, 0);
    }
  }
  return 0;
}

// Handle tables: the tree table and the window table hand out small integer handles to
// fixed-size entries. A table is described by four words of static data, created as
// `memory.data<i32>([0, 0, 0, -1])`: address, log2 of its bytes, entries handed out, first
// free handle. It doubles when full; a dropped handle is chained through its entry's first
// word until it is reused.
const T_ADDRESS: usize = 0;
const T_LOG2: usize = 4;
const T_USED: usize = 8;
const T_FREE: usize = 12;

/** Address of entry `handle` of a table. */
@inline export function entryOf(desc: usize, entryBytes: usize, handle: i32): usize {
  return <usize>load<u32>(desc + T_ADDRESS) + <usize>handle * entryBytes;
}

/** A free handle of the table (a dropped one first), growing it when full; -1 when memory cannot grow. */
export function takeHandle(desc: usize, entryBytes: usize): i32 {
  const free = load<i32>(desc + T_FREE);
  if (free >= 0) {
    store<i32>(desc + T_FREE, load<i32>(entryOf(desc, entryBytes, free)));
    return free;
  }
  const table = <usize>load<u32>(desc + T_ADDRESS);
  const log2 = load<i32>(desc + T_LOG2);
  const used = load<i32>(desc + T_USED);
  if (table == 0 || <usize>(used + 1) * entryBytes > (<usize>1 << log2)) {
    const k = table == 0 ? 10 : log2 + 1;
    const next = allocRaw(k);
    if (next == 0) return -1;
    if (table != 0) {
      memory.copy(next, table, <usize>used * entryBytes);
      freeRaw(table, log2);
    }
    store<u32>(desc + T_ADDRESS, <u32>next);
    store<i32>(desc + T_LOG2, k);
  }
  store<i32>(desc + T_USED, used + 1);
  return used;
}

/** Gives a handle back for reuse. O(1). */
export function dropHandle(desc: usize, entryBytes: usize, handle: i32): void {
  store<i32>(entryOf(desc, entryBytes, handle), load<i32>(desc + T_FREE));
  store<i32>(desc + T_FREE, handle);
}

/**
 * The block of a growable buffer, with room for at least `bytes`. `slot` is the buffer's 8 bytes
 * of static data (its block's address, then log2 of its size); a block too small is replaced
 * by one a power of two large (at least 1 KiB) and freed. 0 when memory cannot grow.
 */
export function bufferOf(slot: usize, bytes: usize): usize {
  const ptr = load<usize>(slot);
  const log2 = load<i32>(slot, 4);
  if (ptr != 0 && bytes <= (<usize>1 << log2)) return ptr;
  let k = max(log2, 10);
  while ((<usize>1 << k) < bytes) k++;
  const next = allocRaw(k);
  if (next == 0) return 0;
  if (ptr != 0) freeRaw(ptr, log2);
  store<usize>(slot, next);
  store<i32>(slot, k, 4);
  return next;
}
