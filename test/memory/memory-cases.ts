// Issue 34, items 1 and 4: a user's working memory through the public API, as every store
// must answer it: revisions with who, which chat and when; merges over other documents and
// other keys of a typed object; conflicts refused; a chat's own memory, exported with it; a
// user's memory exported and imported; every bad call refused with its code, nothing changed.
// Run on the memory, SQLite and PostgreSQL stores (test/memory/memory-stores.test.ts) and in a
// Durable Object (test/runtime/do-worker.ts). No test framework here: the worker bundles it.
import type { Loom, Memory, MemoryRecord } from "../../src/index.js";

const code = async (call: () => unknown): Promise<string> => {
  try {
    await call();
    return "ok";
  } catch (error) {
    return String((error as { code?: unknown }).code ?? `not coded: ${String(error)}`);
  }
};
/** A record without its time (which differs by run). */
const plain = (r: MemoryRecord) => [r.revision, r.path, r.kind, r.by, r.chatId, r.content];
/** Everything a memory holds, to compare before and after a refused call. */
const state = async (m: Memory) => ({ read: await m.read(), history: await m.history() });

export const PROFILE_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", maxLength: 40 },
    units: { enum: ["metric", "imperial"] },
    diet: {
      type: "object",
      properties: { vegetarian: { type: "boolean" }, allergies: { type: "array", items: { type: "string" } } },
    },
  },
  additionalProperties: false,
};

/** What each step answers, for users whose ids start with `u` (none of them known to the Loom's store yet). */
export async function memoryApiCases(loom: Loom, u: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const chats = loom.user(u);
  const memory = chats.memory;
  const chat = await chats.create({ id: "trip", title: "Trip" });
  out["empty"] = await memory.read();
  out["write a text"] = await memory.write({ path: "preferences.md", text: "- answers short", revision: 0 });
  out["a typed object, from a chat, by a model"] = await chat.memory.write({
    path: "profile",
    value: { name: "Ann", units: "metric" },
    schema: PROFILE_SCHEMA,
    revision: 1,
    by: "model",
  });
  out["update by key"] = await memory.update({ path: "profile", patch: { diet: { vegetarian: true } }, revision: 2 });
  const read = await memory.read();
  out["read"] = { revision: read.revision, documents: read.documents.map((d) => ({ ...d, at: typeof d.at })) };
  // Writers who read revision 3: a model changes the units, then the app writes what it read.
  out["other keys of the object, on revision 3"] = await chat.memory.update({
    path: "profile",
    patch: { units: "imperial" },
    revision: 3,
    by: "model",
  });
  out["another document, on revision 3: merged"] = await memory.write({
    path: "trip.md",
    text: "Porto in May",
    revision: 3,
  });
  out["the same key, on revision 3: refused"] = await code(() =>
    memory.update({ path: "profile", patch: { units: "metric" }, revision: 3 }),
  );
  out["a text written since, on revision 3: refused"] = await code(() =>
    memory.write({ path: "trip.md", text: "Lisbon", revision: 3 }),
  );
  // The object as read at revision 3 (units "metric"), renamed: the units the model set since stay.
  out["a whole object over other keys, on revision 3: merged"] = await memory.write({
    path: "profile",
    value: { name: "Anna", units: "metric", diet: { vegetarian: true } },
    revision: 3,
  });
  out["profile now"] = { ...(await memory.read()).documents.find((d) => d.path === "profile")!, at: "number" };
  out["rename"] = await memory.rename({ path: "trip.md", to: "trips/porto.md", revision: 6 });
  out["delete a folder"] = await memory.delete({ path: "trips", revision: 7 });
  out["history"] = (await memory.history()).map(plain);
  out["history of profile, after 3"] = (await memory.history({ path: "profile", after: 3 })).map((r) => r.revision);
  out["at is a time"] = (await memory.history()).every((r) => typeof r.at === "number" && r.at > 1.6e12);
  // A chat's own memory: its contexts carry it, the user's memory apart; exported and imported with the chat.
  const own = await chats.create({ id: "own", memoryScope: "chat" });
  out["a chat's own memory"] = [own.memory.chatId, chat.memory.chatId];
  out["write the chat's own"] = await own.memory.write({
    path: "plan.md",
    text: "day 1: the river",
    revision: 0,
    by: "model",
  });
  out["the user's memory untouched"] = (await memory.read()).revision;
  const exported = await chats.export("own");
  out["the chat's export"] = { version: exported.version, memory: exported.memory?.map(plain) };
  out["chat.export() alone"] = [chat.export().version, "memory" in own.export()];
  const copy = await loom.user(`${u}-2`).import(JSON.parse(JSON.stringify(exported)));
  out["imported: the new chat's memory"] = [copy.id === "own", (await copy.memory.history()).map(plain)];
  await chats.delete("own");
  out["the chat deleted: its memory with it"] = (
    await (await chats.create({ id: "own", memoryScope: "chat" })).memory.read()
  ).revision;
  // The user's memory, exported and imported by another user; not into a memory that has one.
  const whole = await memory.export();
  const other = loom.user(`${u}-3`).memory;
  out["import into an empty memory"] = (await other.import(JSON.stringify(whole))).revision;
  out["the same history"] = JSON.stringify(await other.history()) === JSON.stringify(await memory.history());
  out["import into one that has a memory"] = await code(() => other.import(whole));
  return out;
}

/** What memoryApiCases must answer (u: its user id prefix). */
export function expectedMemoryApi(_u: string): Record<string, unknown> {
  const doc = (path: string, revision: number, by: string, chatId: string | null) => ({
    path,
    revision,
    by,
    chatId,
    at: "number",
  });
  return {
    empty: { revision: 0, documents: [] },
    "write a text": { revision: 1, merged: false },
    "a typed object, from a chat, by a model": { revision: 2, merged: false },
    "update by key": { revision: 3, merged: false },
    read: {
      revision: 3,
      documents: [
        { ...doc("preferences.md", 1, "app", null), kind: "text", text: "- answers short" },
        {
          ...doc("profile", 3, "app", null),
          kind: "object",
          value: { name: "Ann", units: "metric", diet: { vegetarian: true } },
          schema: PROFILE_SCHEMA,
        },
      ],
    },
    "other keys of the object, on revision 3": { revision: 4, merged: false },
    "another document, on revision 3: merged": { revision: 5, merged: true },
    "the same key, on revision 3: refused": "MEMORY_CONFLICT",
    "a text written since, on revision 3: refused": "MEMORY_CONFLICT",
    "a whole object over other keys, on revision 3: merged": { revision: 6, merged: true },
    "profile now": {
      path: "profile",
      revision: 6,
      by: "app",
      chatId: null,
      at: "number",
      kind: "object",
      value: { name: "Anna", units: "imperial", diet: { vegetarian: true } },
      schema: PROFILE_SCHEMA,
    },
    rename: { revision: 7, merged: false },
    "delete a folder": { revision: 8, merged: false },
    history: [
      [1, "preferences.md", "text", "app", null, "- answers short"],
      [2, "profile", "object", "model", "trip", '{"name":"Ann","units":"metric"}'],
      [3, "profile", "object", "app", null, '{"name":"Ann","units":"metric","diet":{"vegetarian":true}}'],
      [4, "profile", "object", "model", "trip", '{"name":"Ann","units":"imperial","diet":{"vegetarian":true}}'],
      [5, "trip.md", "text", "app", null, "Porto in May"],
      [6, "profile", "object", "app", null, '{"name":"Anna","units":"imperial","diet":{"vegetarian":true}}'],
      [7, "trip.md", "deleted", "app", null, ""],
      [7, "trips/porto.md", "text", "app", null, "Porto in May"],
      [8, "trips/porto.md", "deleted", "app", null, ""],
    ],
    "history of profile, after 3": [4, 6],
    "at is a time": true,
    "a chat's own memory": ["own", null],
    "write the chat's own": { revision: 1, merged: false },
    "the user's memory untouched": 8,
    "the chat's export": { version: 3, memory: [[1, "plan.md", "text", "model", "own", "day 1: the river"]] },
    "chat.export() alone": [2, false],
    "imported: the new chat's memory": [true, [[1, "plan.md", "text", "model", "own", "day 1: the river"]]],
    "the chat deleted: its memory with it": 0,
    "import into an empty memory": 8,
    "the same history": true,
    "import into one that has a memory": "MEMORY_CONFLICT",
  };
}

/** Item 4: bad calls, each with the code it must fail with; run on a memory holding one text and one typed object. */
export async function memoryBadCases(loom: Loom, u: string): Promise<Record<string, unknown>> {
  const chats = loom.user(u);
  const memory = chats.memory;
  await memory.write({ path: "notes.md", text: "likes tea", revision: 0 });
  await memory.write({ path: "profile", value: { name: "Ann" }, schema: PROFILE_SCHEMA, revision: 1 });
  await memory.write({ path: "notes.md", text: "likes green tea", revision: 2 });
  const before = await state(memory);
  const bad = <T>(v: unknown) => v as T;
  const calls: [string, () => unknown][] = [
    [
      "a schema with a keyword outside the subset (pattern)",
      () =>
        memory.write({
          path: "p2",
          value: {},
          schema: { type: "object", properties: { a: { type: "string", pattern: "^a" } } },
          revision: 3,
        }),
    ],
    [
      "a schema with $ref",
      () => memory.write({ path: "p2", value: {}, schema: { type: "object", $ref: "#/defs/x" }, revision: 3 }),
    ],
    [
      "a schema of a string, not an object",
      () => memory.write({ path: "p2", value: {}, schema: { type: "string" }, revision: 3 }),
    ],
    [
      "a schema with an unknown type",
      () =>
        memory.write({
          path: "p2",
          value: {},
          schema: { type: "object", properties: { a: { type: "text" } } },
          revision: 3,
        }),
    ],
    [
      "a schema whose required is not a list",
      () => memory.write({ path: "p2", value: {}, schema: { type: "object", required: "a" }, revision: 3 }),
    ],
    ["a new typed object without a schema", () => memory.write({ path: "p2", value: { a: 1 }, revision: 3 })],
    [
      "a value its schema refuses (a property it does not allow)",
      () => memory.write({ path: "profile", value: { name: "Ann", age: 3 }, revision: 3 }),
    ],
    [
      "a value its schema refuses (an enum)",
      () => memory.write({ path: "profile", value: { units: "cubits" }, revision: 3 }),
    ],
    [
      "an update its schema refuses (a type)",
      () => memory.update({ path: "profile", patch: { diet: { vegetarian: "yes" } }, revision: 3 }),
    ],
    [
      "an update its schema refuses (too long)",
      () => memory.update({ path: "profile", patch: { name: "A".repeat(41) }, revision: 3 }),
    ],
    ["an update of a text", () => memory.update({ path: "notes.md", patch: { a: 1 }, revision: 3 })],
    ["an update of nothing", () => memory.update({ path: "none", patch: { a: 1 }, revision: 3 })],
    ["a text over a typed object", () => memory.write({ path: "profile", text: "x", revision: 3 })],
    [
      "a revision that is not the latest, on a document written since",
      () => memory.write({ path: "notes.md", text: "likes coffee", revision: 1 }),
    ],
    ["a revision past the latest", () => memory.write({ path: "other.md", text: "x", revision: 4 })],
    ["no revision", () => memory.write(bad({ path: "other.md", text: "x" }))],
    ["a revision not a count", () => memory.write({ path: "other.md", text: "x", revision: -1 })],
    ["a text past the cap", () => memory.write({ path: "big.md", text: "x".repeat(100_001), revision: 3 })],
    [
      "an object past the cap",
      () => memory.write({ path: "big", value: { a: "x".repeat(100_000) }, schema: { type: "object" }, revision: 3 }),
    ],
    ["a path climbing out", () => memory.write({ path: "../eve/notes.md", text: "x", revision: 3 })],
    ["an absolute path", () => memory.write({ path: "/memories/notes.md", text: "x", revision: 3 })],
    ["a hidden name", () => memory.write({ path: ".notes", text: "x", revision: 3 })],
    ["a document under a document", () => memory.write({ path: "notes.md/more", text: "x", revision: 3 })],
    ["a rename onto a document", () => memory.rename({ path: "notes.md", to: "profile", revision: 3 })],
    ["a rename into itself", () => memory.rename({ path: "notes.md", to: "notes.md/x", revision: 3 })],
    ["a delete of nothing", () => memory.delete({ path: "none", revision: 3 })],
    [
      "a value that is not JSON (NaN)",
      () => memory.write({ path: "p2", value: { a: Number.NaN }, schema: { type: "object" }, revision: 3 }),
    ],
    [
      "a value that is not JSON (a function)",
      () => memory.write({ path: "p2", value: bad({ a: () => 1 }), schema: { type: "object" }, revision: 3 }),
    ],
    [
      "a value that is not an object",
      () => memory.write({ path: "p2", value: bad([1]), schema: { type: "object" }, revision: 3 }),
    ],
    ["an unknown option", () => memory.write(bad({ path: "p2", text: "x", revision: 3, merge: true }))],
    ["an author", () => memory.write({ path: "p2", text: "x", revision: 3, by: bad("robot") })],
    ["a history query with an unknown key", () => memory.history(bad({ since: 2 }))],
    [
      "an export of another format",
      () =>
        loom.user(`${u}-empty`).memory.import(bad({ format: "ctxloom.chat", version: 1, revision: 0, records: [] })),
    ],
    [
      "an export whose object its schema refuses",
      () =>
        loom.user(`${u}-empty`).memory.import({
          format: "ctxloom.memory",
          version: 1,
          revision: 1,
          records: [
            {
              revision: 1,
              path: "p",
              kind: "object",
              content: '{"a":1}',
              schema: '{"type":"object","additionalProperties":false}',
              by: "app",
              chatId: null,
              at: 1,
            },
          ],
        }),
    ],
    [
      "an export with a gap in its revisions",
      () =>
        loom.user(`${u}-empty`).memory.import({
          format: "ctxloom.memory",
          version: 1,
          revision: 2,
          records: [
            { revision: 2, path: "p", kind: "text", content: "x", schema: null, by: "app", chatId: null, at: 1 },
          ],
        }),
    ],
    // Another user's memory: nothing reaches it from this user, and this user's revision means nothing there.
    [
      "another user's memory, written on this user's revision",
      () => loom.user(`${u}-eve`).memory.write({ path: "notes.md", text: "x", revision: 3 }),
    ],
    ["another user's chat, exported", () => loom.user(`${u}-eve`).export("mine")],
  ];
  await chats.create({ id: "mine" });
  const codes: Record<string, string> = {};
  for (const [what, call] of calls) codes[what] = await code(call);
  // Too many documents: the 201st is refused.
  const many = loom.user(`${u}-many`).memory;
  for (let i = 0; i < 200; i++) await many.write({ path: `d${i}`, text: "x", revision: i });
  codes["a document past the count"] = await code(() => many.write({ path: "d200", text: "x", revision: 200 }));
  return {
    codes,
    unchanged: JSON.stringify(await state(memory)) === JSON.stringify(before),
    others: [
      (await loom.user(`${u}-eve`).memory.read()).revision,
      (await loom.user(`${u}-empty`).memory.read()).revision,
      (await many.read()).revision,
    ],
  };
}

/** What memoryBadCases must answer. */
export const expectedMemoryBad = (): Record<string, unknown> => ({
  codes: {
    "a schema with a keyword outside the subset (pattern)": "INVALID_SCHEMA",
    "a schema with $ref": "INVALID_SCHEMA",
    "a schema of a string, not an object": "INVALID_SCHEMA",
    "a schema with an unknown type": "INVALID_SCHEMA",
    "a schema whose required is not a list": "INVALID_SCHEMA",
    "a new typed object without a schema": "INVALID_SCHEMA",
    "a value its schema refuses (a property it does not allow)": "SCHEMA_MISMATCH",
    "a value its schema refuses (an enum)": "SCHEMA_MISMATCH",
    "an update its schema refuses (a type)": "SCHEMA_MISMATCH",
    "an update its schema refuses (too long)": "SCHEMA_MISMATCH",
    "an update of a text": "INVALID_ARGUMENT",
    "an update of nothing": "UNKNOWN_PATH",
    "a text over a typed object": "INVALID_ARGUMENT",
    "a revision that is not the latest, on a document written since": "MEMORY_CONFLICT",
    "a revision past the latest": "MEMORY_CONFLICT",
    "no revision": "INVALID_ARGUMENT",
    "a revision not a count": "INVALID_ARGUMENT",
    "a text past the cap": "MEMORY_TOO_LARGE",
    "an object past the cap": "MEMORY_TOO_LARGE",
    "a path climbing out": "INVALID_PATH",
    "an absolute path": "INVALID_PATH",
    "a hidden name": "INVALID_PATH",
    "a document under a document": "PATH_EXISTS",
    "a rename onto a document": "PATH_EXISTS",
    "a rename into itself": "INVALID_PATH",
    "a delete of nothing": "UNKNOWN_PATH",
    "a value that is not JSON (NaN)": "INVALID_ARGUMENT",
    "a value that is not JSON (a function)": "INVALID_ARGUMENT",
    "a value that is not an object": "INVALID_ARGUMENT",
    "an unknown option": "INVALID_ARGUMENT",
    "an author": "INVALID_ARGUMENT",
    "a history query with an unknown key": "INVALID_ARGUMENT",
    "an export of another format": "INVALID_ARGUMENT",
    "an export whose object its schema refuses": "INVALID_ARGUMENT",
    "an export with a gap in its revisions": "INVALID_ARGUMENT",
    "another user's memory, written on this user's revision": "MEMORY_CONFLICT",
    "another user's chat, exported": "UNKNOWN_CHAT",
    "a document past the count": "MEMORY_TOO_LARGE",
  },
  unchanged: true,
  others: [0, 0, 200],
});
