// The memories a Loom has read, by owner: each one's revision, newest records and the text a
// context carries of it (made once per revision). Every read asks the store for what changed
// since the revision held (another process may have written): a memory unchanged costs the
// store's answer of its revision, and no text is made again.
import { CtxloomError, describe, fromStoreNow } from "../errors.js";
import { checkRecord } from "./checks.js";
import type { MemoryNow } from "./changes.js";
import { toToolPath } from "./paths.js";
import type { MemoryRecord, MemoryState, MemoryStore } from "./types.js";

/** A memory as read: its revision, its newest records by path, and its text once a context asked for it. */
export interface MemorySpace extends MemoryNow {
  readonly byPath: Map<string, MemoryRecord>;
  /**
   * When its newest revision was written (0: never): a memory deleted and written again to the same revision is
   * another.
   */
  readonly at: number;
  /** The text a context carries (made on first use; "" for a memory without documents). */
  text?: string;
}

const KEPT = 1000;
const EMPTY_REVISION = 0;
const READING = "reading a memory";
/** Every empty memory (revision 0, no records), shared: read-only, its text made. */
const EMPTY: MemorySpace = Object.freeze({
  revision: EMPTY_REVISION,
  at: 0,
  byPath: new Map<string, MemoryRecord>(),
  text: "",
});

/** `userId`'s memory (null) or one of its chats' (an id), as a key. */
const keyOf = (userId: string, chatId: string | null) => `${userId}\u0000${chatId ?? ""}`;

export class MemoryCache {
  readonly store: MemoryStore;
  readonly #spaces = new Map<string, MemorySpace>();

  constructor(store: MemoryStore) {
    this.store = store;
  }

  /** The memory now (the store asked with the revision held): synchronous when the store answers so. */
  now(userId: string, chatId: string | null): MemorySpace | Promise<MemorySpace> {
    // Most users hold no memory: a build for one makes no key, keeps nothing and allocates nothing here.
    const key = this.#spaces.size === 0 ? null : keyOf(userId, chatId);
    const held = key === null ? undefined : this.#spaces.get(key);
    let answer: MemoryState | Promise<MemoryState>;
    try {
      answer = this.store.loadMemory(userId, chatId, held?.revision ?? EMPTY_REVISION);
    } catch (cause) {
      return fromStoreNow(READING, () => {
        throw cause;
      }); // mapped as any store failure
    }
    if (answer !== null && typeof (answer as { then?: unknown }).then === "function") {
      return (fromStoreNow(READING, () => answer) as Promise<MemoryState>).then((state) =>
        this.#answered(userId, chatId, held, state),
      );
    }
    return this.#answered(userId, chatId, held, answer as MemoryState);
  }

  /** The memory a store's answer makes, read whole again when it names the revision held of another memory. */
  #answered(
    userId: string,
    chatId: string | null,
    held: MemorySpace | undefined,
    state: MemoryState,
  ): MemorySpace | Promise<MemorySpace> {
    const space = this.#took(userId, chatId, held, state);
    if (space) return space;
    // The revision held, but not the memory held (deleted and written again since): read it whole.
    const again = fromStoreNow(READING, () => this.store.loadMemory(userId, chatId));
    return again instanceof Promise
      ? again.then((s) => this.#took(userId, chatId, undefined, s)!)
      : this.#took(userId, chatId, undefined, again)!;
  }

  /** After a write landed on `before`: the memory with its records, with no store read. */
  wrote(userId: string, chatId: string | null, before: MemoryNow, records: readonly MemoryRecord[]): void {
    const key = keyOf(userId, chatId);
    const revision = records[records.length - 1]!.revision;
    if ((this.#spaces.get(key)?.revision ?? -1) >= revision) return; // a later write's answer came first
    const byPath = new Map(before.byPath);
    for (const r of records) byPath.set(r.path, r);
    this.#keep(key, { revision, at: records[records.length - 1]!.at, byPath });
  }

  /** Forgets a user's memories (or one), after a delete. */
  forget(userId: string, chatId?: string | null): void {
    if (chatId !== undefined) {
      this.#spaces.delete(keyOf(userId, chatId));
      return;
    }
    const prefix = `${userId}\u0000`;
    for (const key of [...this.#spaces.keys()]) if (key.startsWith(prefix)) this.#spaces.delete(key);
  }

  /**
   * The memory a store's answer makes of what was held; undefined when it names the revision held of another memory.
   */
  #took(
    userId: string,
    chatId: string | null,
    held: MemorySpace | undefined,
    state: MemoryState,
  ): MemorySpace | undefined {
    if (
      state === null ||
      typeof state !== "object" ||
      !Number.isInteger(state.revision) ||
      state.revision < 0 ||
      typeof state.at !== "number"
    ) {
      throw new CtxloomError(
        "STORE_CORRUPT",
        `The store answered ${describe(state)} for a memory, not its state ({ revision, at, records }).`,
      );
    }
    if (state.records === undefined) {
      if (held && held.revision === state.revision)
        return held.at === state.at ? this.#keep(keyOf(userId, chatId), held) : undefined;
      if (state.revision === EMPTY_REVISION) return EMPTY; // (not kept: an empty memory is the same whoever asks)
      throw new CtxloomError(
        "STORE_CORRUPT",
        `The store left out the records of a memory at revision ${state.revision}, which this ` + `Loom does not hold.`,
      );
    }
    if (!Array.isArray(state.records))
      throw new CtxloomError(
        "STORE_CORRUPT",
        `The store answered ${describe(state.records)} for a ` + `memory's records.`,
      );
    const byPath = new Map<string, MemoryRecord>();
    for (const r of state.records) {
      try {
        checkRecord(r, "a record");
      } catch (error) {
        throw new CtxloomError(
          "STORE_CORRUPT",
          `The store holds a memory record ctxloom cannot read: ` + `${(error as Error).message}`,
          { cause: error },
        );
      }
      if (r.revision > state.revision)
        throw new CtxloomError(
          "STORE_CORRUPT",
          `A memory record of revision ${r.revision} is past the ` + `memory's ${state.revision}.`,
        );
      byPath.set(r.path, r);
    }
    const key = keyOf(userId, chatId);
    if (state.revision === EMPTY_REVISION) {
      this.#spaces.delete(key); // (emptied: nothing to hold)
      return EMPTY;
    }
    return this.#keep(key, { revision: state.revision, at: state.at, byPath });
  }

  #keep(key: string, space: MemorySpace): MemorySpace {
    this.#spaces.delete(key); // most recently used last
    if (this.#spaces.size >= KEPT) this.#spaces.delete(this.#spaces.keys().next().value!);
    this.#spaces.set(key, space);
    return space;
  }
}

/** The documents a memory holds now (deletions left out), by path. */
export const documentsOf = (space: MemoryNow): MemoryRecord[] =>
  [...space.byPath.values()]
    .filter((r) => r.kind !== "deleted")
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

/**
 * The text a context carries of a memory: a line saying what it is, then each document in a
 * tag naming its path as the memory tool does (a typed object as its JSON). "" without documents.
 */
export function memoryText(space: MemorySpace, scope: "user" | "chat"): string {
  if (space.text !== undefined) return space.text;
  const docs = documentsOf(space);
  const whose = scope === "user" ? "what is known of the user across chats" : "what is kept for this chat";
  const text =
    docs.length === 0
      ? ""
      : [`Memory (revision ${space.revision}): ${whose}, in ${toToolPath("")}.`, ...docs.map((r) => fileText(r))].join(
          "\n",
        );
  space.text = text;
  return text;
}

const fileText = (r: MemoryRecord) =>
  `<file path="${toToolPath(r.path)}"${r.kind === "object" ? ' type="object"' : ""}>\n${r.content}\n</file>`;
