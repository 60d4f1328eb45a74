// A user's working memory as ctxloom keeps it: documents (texts, and typed objects under a JSON
// schema) in memories of their own (the user's, or one chat's where the app asks), each write a
// numbered revision. The store keeps the records; this room reaches it through MemoryStore, the
// four methods of the Store it needs (declared here: the store room implements them).

/** A value JSON can hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };
/** A JSON schema, in the subset ctxloom reads (see `compileSchema`). */
export type JsonSchema = JsonObject;

/** Who wrote a revision: the application, or a model through a memory tool. */
export type MemoryAuthor = "app" | "model";

/** What a record holds: a text, a typed object (its JSON), or nothing (the document was deleted at that revision). */
export type MemoryKind = "text" | "object" | "deleted";

/**
 * One document's change at one revision, as a store keeps it and `memory.history()` reads it.
 * A revision is one write: it changes one document (two for a rename, more for a folder), and
 * its records share its number. Nothing is overwritten: the history is every record.
 */
export interface MemoryRecord {
  /** The revision's number in its memory: 1, 2, 3... */
  revision: number;
  /** The document's path: "preferences.md", "projects/trip.md" (`/memories/` before it for the memory tool). */
  path: string;
  /** What the record holds: a text, a typed object, or the document's deletion. */
  kind: MemoryKind;
  /** The text; a typed object's JSON; "" when deleted. */
  content: string;
  /** A typed object's JSON schema (JSON text); null for a text or a deletion. */
  schema: string | null;
  /** Who wrote it. */
  by: MemoryAuthor;
  /** The chat it was written from (a memory tool's chat, or `chat.memory`'s); null when none. */
  chatId: string | null;
  /** When, in milliseconds since the epoch. */
  at: number;
}

/**
 * What `Store.loadMemory` answers: the memory's revision and, unless it is the one the caller knew, each path's newest
 * record.
 */
export interface MemoryState {
  /** The newest revision (0 for a memory never written). */
  revision: number;
  /**
   * When the newest revision was written (0 for a memory never written): with `revision`, it
   * tells a memory from one that took its place after a delete (its revisions start again at 1).
   */
  at: number;
  /** Each path's newest record (deletions included), by path; left out when `revision` is the `known` one. */
  records?: MemoryRecord[];
}

/** Which records `Store.loadMemoryHistory` reads: in revision order, then path order. */
export interface MemoryQuery {
  /** Only this document's records. */
  path?: string;
  /** Only revisions after this one (default 0: from the first). */
  after?: number;
  /** Only revisions up to this one. */
  upTo?: number;
  /** At most this many records. */
  limit?: number;
}

/** What `Store.writeMemory` answers: written, or not because the memory's revision is another (`revision`). */
export type MemoryWriteResult = { ok: true } | { ok: false; revision: number };

type Awaitable<T> = T | Promise<T>;

/**
 * The memory methods of a Store (see Store's own for their contract). `chatId` names the
 * memory: null for the user's own, a chat's id for that chat's (a chat the user has, else
 * UNKNOWN_CHAT).
 */
/** What `Store.writeMemory` takes (see it). */
export interface WriteMemoryRequest {
  /** The memory's user. */
  userId: string;
  /** The chat whose memory it is, or null for the user's own. */
  chatId: string | null;
  /** The memory's revision the write is made on: it lands only when the memory is still at it. */
  expected: number;
  /** The records of revisions `expected + 1` on, in order. */
  records: MemoryRecord[];
}

export interface MemoryStore {
  loadMemory(userId: string, chatId: string | null, known?: number): Awaitable<MemoryState>;
  loadMemoryHistory(userId: string, chatId: string | null, query?: MemoryQuery): Awaitable<MemoryRecord[]>;
  writeMemory(request: WriteMemoryRequest): Awaitable<MemoryWriteResult>;
  deleteMemory(userId: string, chatId?: string | null): Awaitable<boolean>;
}

/** The Store methods a memory needs. */
export const MEMORY_METHODS = [
  "loadMemory",
  "loadMemoryHistory",
  "writeMemory",
  "deleteMemory",
] as const satisfies readonly (keyof MemoryStore)[];

/** A document as `memory.read()` gives it. */
export type MemoryDocument = MemoryTextDocument | MemoryObjectDocument;

/** What every document says of its newest revision. */
export interface MemoryDocumentBase {
  /** Its path: "preferences.md", "projects/trip.md". */
  path: string;
  /** The revision that last wrote it. */
  revision: number;
  /** Who last wrote it: the app, or a model through a memory tool. */
  by: MemoryAuthor;
  /** The chat it was last written from, or null. */
  chatId: string | null;
  /** When it was last written, in milliseconds since the epoch. */
  at: number;
}

/** A text document. */
export interface MemoryTextDocument extends MemoryDocumentBase {
  /** A text. */
  kind: "text";
  /** Its text. */
  text: string;
}

/** A typed object: a JSON object its schema admits; updates merge into it by key. */
export interface MemoryObjectDocument extends MemoryDocumentBase {
  /** A typed object. */
  kind: "object";
  /** The object, as its schema admits it. */
  value: JsonObject;
  /** Its JSON schema (ctxloom's subset: see docs/memory.md). */
  schema: JsonSchema;
}

/** What `memory.read()` returns: the memory's revision (name it when you write) and its documents, by path. */
export interface MemorySnapshot {
  /** The memory's newest revision (0: never written): name it when you write. */
  revision: number;
  /** Its documents, by path. */
  documents: MemoryDocument[];
}

/**
 * What a write returns: the revision it made, and whether it was merged over revisions written since the one it named.
 */
export interface MemoryWritten {
  /** The revision the write made. */
  revision: number;
  /**
   * True when the memory had moved past the revision named, and the change touched nothing written since (or only other
   * keys of its object).
   */
  merged: boolean;
}
