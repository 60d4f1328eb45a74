import { CtxloomError, checkOptions, describe, fromStore } from "../errors.js";
import { documentsOf, type MemoryCache, type MemorySpace } from "./cache.js";
import { checkQuery } from "./checks.js";
import { DEFAULT_LIMITS, planChange, type MemoryChange, type MemoryLimits, type MemoryNow } from "./changes.js";
import { checkMemoryExport, type MemoryExport } from "./export.js";
import { jsonObject } from "./json-object.js";
import { checkPath } from "./paths.js";
import type {
  JsonObject,
  JsonSchema,
  MemoryAuthor,
  MemoryDocument,
  MemoryQuery,
  MemoryRecord,
  MemorySnapshot,
  MemoryStore,
  MemoryWritten,
} from "./types.js";

/** What a Loom gives its memories: its store's memory methods and their cache (none when the store keeps no memory). */
export interface MemoryAccess {
  readonly cache: MemoryCache | null;
  /** The store's name, for errors. */
  readonly storeName: string;
  /** Throws LOOM_CLOSED once the Loom is closed. */
  checkOpen(): void;
}

/**
 * What every write names: the memory's revision it was made on (`memory.read().revision`; 0 for an empty memory), and
 * who writes.
 */
export interface MemoryWriteBase {
  /** The memory's revision you read (`(await memory.read()).revision`): a document written since is a conflict. */
  revision: number;
  /** Who writes: "app" (default) or "model" (a tool of your own that a model calls). */
  by?: MemoryAuthor;
}

/**
 * `memory.write()`: a text document, or a typed object (a JSON object its schema admits; the schema is kept with it).
 */
export type MemoryWriteInput = MemoryWriteBase &
  ({ path: string; text: string } | { path: string; value: JsonObject; schema?: JsonSchema });

/** Tries of a write whose store answered that another write landed first (each reads the memory again). */
const TRIES = 100;

/**
 * A memory: the user's own (`loom.user(id).memory`, shared by all their chats), or a chat's own
 * (`chat.memory` of a chat created with `memoryScope: "chat"`). Documents by path, each a text
 * or a typed object; every write a numbered revision kept in the history (who: "app" or
 * "model"; which chat; when). A write names the revision it was made on: a document written
 * since is refused (MEMORY_CONFLICT), nothing written; changes to other documents, or to other
 * keys of a typed object, merge. Contexts built in the user's chats carry it.
 */
export class Memory {
  /** The user whose memory it is. */
  readonly userId: string;
  /** null: the user's own memory; a chat's id: that chat's own. */
  readonly chatId: string | null;
  readonly #access: MemoryAccess;
  /** The chat writes are said to come from (`chat.memory`'s), or null. */
  readonly #from: string | null;

  /** @internal `loom.user(id).memory` and `chat.memory` make memories. */
  constructor(access: MemoryAccess, userId: string, chatId: string | null, from: string | null) {
    this.#access = access;
    this.userId = userId;
    this.chatId = chatId;
    this.#from = from;
  }

  /** The memory now: its revision (name it when you write) and its documents, by path. @throws STORE_FAILED */
  async read(): Promise<MemorySnapshot> {
    const space = await this.#now();
    return { revision: space.revision, documents: documentsOf(space).map(documentOf) };
  }

  /**
   * Writes a text document (`{ path, text }`) or a typed object (`{ path, value, schema }`; a
   * typed object written again keeps its schema unless given another), made on `revision`.
   * @throws MEMORY_CONFLICT (the document was written since `revision`; for an object, the same keys),
   *   MEMORY_TOO_LARGE, INVALID_PATH, PATH_EXISTS (a folder there), INVALID_SCHEMA, SCHEMA_MISMATCH, INVALID_ARGUMENT
   */
  write(input: MemoryWriteInput): Promise<MemoryWritten> {
    return this.#change("memory.write(input)", input, ["path", "text", "value", "schema"], (o) => {
      const path = checkPath(o.path);
      if (typeof o.text === "string" && o.value === undefined && o.schema === undefined)
        return { op: "text", path, text: o.text };
      if (o.text !== undefined)
        throw new CtxloomError(
          "INVALID_ARGUMENT",
          `memory.write takes { path, text } or { path, value, schema ` +
            `}; got text ${describe(o.text)}${o.value === undefined ? "" : " and a value"}.`,
        );
      const value = jsonObject(o.value, "value");
      return o.schema === undefined
        ? { op: "value", path, value }
        : { op: "value", path, value, schema: jsonObject(o.schema, "schema") };
    });
  }

  /**
   * Merges `patch` into a typed object by key (JSON Merge Patch: a key's value replaces it, an
   * object merges into an object, null removes the key). Updates of other keys written since
   * `revision` merge; of the same keys, MEMORY_CONFLICT. @throws UNKNOWN_PATH, SCHEMA_MISMATCH, MEMORY_TOO_LARGE
   */
  update(input: MemoryWriteBase & { path: string; patch: JsonObject }): Promise<MemoryWritten> {
    return this.#change("memory.update(input)", input, ["path", "patch"], (o) => ({
      op: "update",
      path: checkPath(o.path),
      patch: jsonObject(o.patch, "patch"),
    }));
  }

  /** Deletes a document, or a folder's (every document under it). @throws UNKNOWN_PATH, MEMORY_CONFLICT */
  delete(input: MemoryWriteBase & { path: string }): Promise<MemoryWritten> {
    return this.#change("memory.delete(input)", input, ["path"], (o) => ({ op: "delete", path: checkPath(o.path) }));
  }

  /** Moves a document, or a folder's, to `to`. @throws UNKNOWN_PATH, PATH_EXISTS, INVALID_PATH, MEMORY_CONFLICT */
  rename(input: MemoryWriteBase & { path: string; to: string }): Promise<MemoryWritten> {
    return this.#change("memory.rename(input)", input, ["path", "to"], (o) => ({
      op: "rename",
      path: checkPath(o.path),
      to: checkPath(o.to, "to"),
    }));
  }

  /**
   * The history: every record (a document's change at a revision: who, from which chat, when), in
   * revision order, with `{ path, after, upTo, limit }` to narrow it. @throws INVALID_ARGUMENT, STORE_FAILED
   */
  async history(query?: MemoryQuery): Promise<MemoryRecord[]> {
    const store = this.#store();
    const q = checkQuery(this.userId, this.chatId, query);
    return await fromStore("reading a memory's history", () => store.loadMemoryHistory(this.userId, this.chatId, q));
  }

  /** The memory and its whole history, as portable JSON for `import`. */
  async export(): Promise<MemoryExport> {
    const store = this.#store();
    const records = await fromStore("reading a memory's history", () =>
      store.loadMemoryHistory(this.userId, this.chatId, {}),
    );
    return {
      format: "ctxloom.memory",
      version: 1,
      revision: records.length ? records[records.length - 1]!.revision : 0,
      records,
    };
  }

  /**
   * Imports an export (`memory.export()`) with its history into this memory, which must be empty
   * (MEMORY_CONFLICT otherwise): all of it or nothing. @throws INVALID_ARGUMENT naming what is wrong, MEMORY_CONFLICT
   */
  async import(data: MemoryExport | string): Promise<MemorySnapshot> {
    const store = this.#store();
    const { records } = checkMemoryExport(data);
    if (records.length > 0) {
      const r = await fromStore("importing a memory", () =>
        store.writeMemory({ userId: this.userId, chatId: this.chatId, expected: 0, records }),
      );
      if (!r.ok) {
        throw new CtxloomError(
          "MEMORY_CONFLICT",
          `This memory is not empty (revision ${r.revision}): an export imports into an empty ` +
            `memory only. Nothing was imported.`,
        );
      }
      this.#access.cache!.forget(this.userId, this.chatId);
    }
    return this.read();
  }

  /**
   * @internal A change made on the memory as it is when the write is tried (a memory tool's
   * command): `make` reads it and says what to write; when another write lands first, it runs
   * again on the memory then. Returns what `make` returned beside the revision written.
   */
  async apply<T>(
    make: (now: MemoryNow) => { change: MemoryChange; answer: T },
    by: MemoryAuthor,
    limits: MemoryLimits,
  ): Promise<MemoryWritten & { answer: T }> {
    return this.#write(
      (now) => {
        const { change, answer } = make(now);
        return { change, expected: now.revision, answer };
      },
      by,
      limits,
    );
  }

  /** @internal The memory now, as the tools read it. */
  now(): Promise<MemoryNow> {
    return this.#now();
  }

  #store(): MemoryStore {
    this.#access.checkOpen();
    const cache = this.#access.cache;
    if (!cache) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `The store ${this.#access.storeName} keeps no memory (it has no loadMemory, loadMemoryHistory, writeMemory ` +
          `and deleteMemory); ` +
          `use a store of ctxloom's.`,
      );
    }
    return cache.store;
  }

  async #now(): Promise<MemorySpace> {
    this.#store();
    return await this.#access.cache!.now(this.userId, this.chatId);
  }

  #change<O extends MemoryWriteBase>(
    what: string,
    input: O,
    keys: string[],
    make: (o: Partial<Record<string, unknown>> & O) => MemoryChange,
  ): Promise<MemoryWritten> {
    try {
      this.#store();
      const o = checkOptions<O>(input, what, [...keys, "revision", "by"]) as O & Partial<Record<string, unknown>>;
      if (typeof o.revision !== "number" || !Number.isInteger(o.revision) || o.revision < 0) {
        throw new CtxloomError(
          "INVALID_ARGUMENT",
          `${what} needs the revision you read (memory.read().revision; 0 for an empty ` +
            `memory); got ${describe(o.revision)}.`,
        );
      }
      if (o.by !== undefined && o.by !== "app" && o.by !== "model")
        throw new CtxloomError("INVALID_ARGUMENT", `by must be "app" or "model"; got ${describe(o.by)}.`);
      const change = make(o);
      const expected = o.revision;
      return this.#write(() => ({ change, expected, answer: undefined }), o.by ?? "app", DEFAULT_LIMITS).then(
        ({ revision, merged }) => ({ revision, merged }),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Plans on the memory now and writes, again on the memory then while other writes land first. */
  async #write<T>(
    plan: (now: MemoryNow) => { change: MemoryChange; expected: number; answer: T },
    by: MemoryAuthor,
    limits: MemoryLimits,
  ): Promise<MemoryWritten & { answer: T }> {
    const store = this.#store();
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const now = await this.#now();
      const { change, expected, answer } = plan(now);
      const stamp = { by, chatId: this.#from, at: Date.now() };
      const recordAt = async (path: string, revision: number) =>
        (
          await fromStore("reading a memory's history", () =>
            store.loadMemoryHistory(this.userId, this.chatId, { path, upTo: revision }),
          )
        ).pop();
      const { records, merged } = await planChange(now, expected, change, stamp, limits, recordAt);
      const result = await fromStore("writing a memory", () =>
        store.writeMemory({ userId: this.userId, chatId: this.chatId, expected: now.revision, records }),
      );
      if (result.ok) {
        this.#access.cache!.wrote(this.userId, this.chatId, now, records);
        return { revision: now.revision + 1, merged, answer };
      }
    }
    throw new CtxloomError(
      "MEMORY_CONFLICT",
      `The memory changed under this write ${TRIES} times in a row: too many writers at once. ` +
        `Nothing was written; try again.`,
    );
  }
}

/** A record as `read()` shows its document. */
function documentOf(r: MemoryRecord): MemoryDocument {
  const base = { path: r.path, revision: r.revision, by: r.by, chatId: r.chatId, at: r.at };
  if (r.kind === "object")
    return {
      ...base,
      kind: "object",
      value: JSON.parse(r.content) as JsonObject,
      schema: JSON.parse(r.schema!) as JsonSchema,
    };
  return { ...base, kind: "text", text: r.content };
}
