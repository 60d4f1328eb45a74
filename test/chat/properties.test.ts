// Differential property test of the conversation tree: random sequences of append / regenerate /
// edit / checkout / window run on a WASM Loom and a JS Loom side by side, and against a tiny
// model written here (parent links in an array). After every step everything observable agrees.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { CtxloomError, Loom, type Chat, type Priority, type Role } from "../../src/index.js";

type Op =
  | { t: "append"; role: "user" | "assistant" | "system"; priority: Priority | undefined; text: string; w: number }
  | { t: "regenerate"; pick: number; w: number }
  | { t: "edit"; pick: number; text: string; w: number }
  | { t: "checkout"; pick: number; w: number }
  | { t: "window"; w: number }
  | { t: "badId"; which: "checkout" | "regenerate" | "edit" | "get"; id: number; w: number };

const text = fc.string({ minLength: 1, maxLength: 6 });
const w = fc.integer({ min: 1, max: 12 });
const pick = fc.nat({ max: 1000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant("append" as const),
      role: fc.constantFrom("user" as const, "assistant" as const, "system" as const),
      priority: fc.option(fc.constantFrom<Priority>("low", "normal", "high", "critical"), { nil: undefined }),
      text,
      w,
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("regenerate" as const), pick, w }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("edit" as const), pick, text, w }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("checkout" as const), pick, w }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("window" as const), w }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("badId" as const),
      which: fc.constantFrom("checkout" as const, "regenerate" as const, "edit" as const, "get" as const),
      id: fc.oneof(fc.integer({ min: -3, max: -1 }), fc.integer({ min: 0, max: 3 }), fc.double({ noNaN: false })),
      w,
    }),
  },
);

/** The reference: a tree as parallel arrays. */
class Model {
  parent: number[] = [];
  role: Role[] = [];
  content: string[] = [];
  priority: Priority[] = [];
  head = -1;

  add(parent: number, role: Role, content: string, priority: Priority): number {
    this.parent.push(parent);
    this.role.push(role);
    this.content.push(content);
    this.priority.push(priority);
    this.head = this.parent.length - 1;
    return this.head;
  }
  path(id = this.head): number[] {
    const out: number[] = [];
    for (let n = id; n >= 0; n = this.parent[n]!) out.push(n);
    return out.reverse();
  }
  children(id: number): number[] {
    return this.parent.flatMap((p, i) => (p === id ? [i] : []));
  }
  leaves(): number[] {
    return this.parent.flatMap((_, i) => (this.parent.includes(i) ? [] : [i]));
  }
  ids(role: Role): number[] {
    return this.role.flatMap((r, i) => (r === role ? [i] : []));
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; code: string };

async function settle(f: () => unknown): Promise<Outcome> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    if (!(e instanceof CtxloomError)) throw e;
    return { ok: false, code: e.code };
  }
}

/** Deep copy with every message's createdAt zeroed (the two chats append at slightly different times). */
const strip = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === "object" && !ArrayBuffer.isView(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = k === "createdAt" ? 0 : strip(x);
    return out;
  }
  return v;
};

function observe(chat: Chat, w: number) {
  const n = chat.messageCount;
  const all = Array.from({ length: n }, (_, i) => strip(chat.get(i)));
  return {
    head: chat.head,
    messageCount: n,
    path: strip(chat.path()),
    window: strip(chat.window({ maxMessages: w })),
    leaves: chat.leaves(),
    roots: chat.roots(),
    children: Array.from({ length: n }, (_, i) => chat.children(i)),
    siblings: Array.from({ length: n }, (_, i) => chat.siblings(i)),
    all,
  };
}

function checkAgainstModel(chat: Chat, model: Model, w: number): void {
  const n = model.parent.length;
  expect(chat.messageCount).toBe(n);
  expect(chat.head).toBe(model.head < 0 ? null : model.head);
  const path = model.path();
  expect(chat.path().map((m) => m.id)).toEqual(path);
  expect(chat.path().map((m) => m.content)).toEqual(path.map((i) => model.content[i]));
  expect(chat.window({ maxMessages: w }).map((m) => m.id)).toEqual(path.slice(Math.max(0, path.length - w)));
  expect(chat.leaves()).toEqual(model.leaves());
  expect(chat.roots()).toEqual(model.children(-1));
  for (let i = 0; i < n; i++) {
    expect(chat.children(i)).toEqual(model.children(i));
    const m = chat.get(i);
    expect(m.parentId).toBe(model.parent[i]! < 0 ? null : model.parent[i]);
    expect(m.role).toBe(model.role[i]);
    expect(m.content).toBe(model.content[i]);
    expect(m.priority).toBe(model.priority[i]);
  }
}

/** Runs one op on a chat and on the model (the model only on success). */
async function run(
  chat: Chat,
  model: Model | undefined,
  o: Op,
  ids: { assistant: number[]; user: number[]; all: number },
): Promise<Outcome> {
  switch (o.t) {
    case "append": {
      const r = await settle(() =>
        chat.append({ role: o.role, content: o.text, ...(o.priority ? { priority: o.priority } : {}) }),
      );
      if (r.ok && model)
        model.add(model.head, o.role, o.text, o.priority ?? (o.role === "system" ? "critical" : "normal"));
      return r;
    }
    case "regenerate": {
      if (ids.assistant.length === 0) return { ok: true, value: "skipped" };
      const id = ids.assistant[o.pick % ids.assistant.length]!;
      const r = await settle(() => chat.regenerate(id));
      if (r.ok && model) model.head = model.parent[id]!;
      return r;
    }
    case "edit": {
      if (ids.user.length === 0) return { ok: true, value: "skipped" };
      const id = ids.user[o.pick % ids.user.length]!;
      const r = await settle(() => chat.edit(id, o.text));
      if (r.ok && model) model.add(model.parent[id]!, "user", o.text, model.priority[id]!);
      return r;
    }
    case "checkout": {
      if (ids.all === 0) return { ok: true, value: "skipped" };
      const id = o.pick % ids.all;
      const r = await settle(() => chat.checkout(id));
      if (r.ok && model) model.head = id;
      return r;
    }
    case "window":
      return settle(() => chat.window({ maxMessages: o.w }));
    case "badId": {
      // ids near the edges, negative or non-integer: some valid, most not; both engines must agree
      const id = Number.isInteger(o.id) && o.id >= 0 ? ids.all + o.id : o.id;
      if (o.which === "get") return settle(() => chat.get(id));
      if (o.which === "checkout") {
        const r = await settle(() => chat.checkout(id));
        if (r.ok && model) model.head = id;
        return r;
      }
      if (o.which === "regenerate") {
        const r = await settle(() => chat.regenerate(id));
        if (r.ok && model) model.head = model.parent[id]!;
        return r;
      }
      const r = await settle(() => chat.edit(id, "edited"));
      if (r.ok && model) model.add(model.parent[id]!, "user", "edited", model.priority[id]!);
      return r;
    }
  }
}

describe("wasm and js Looms agree on random operation sequences (and with a reference model)", () => {
  let wasm: Loom;
  let js: Loom;
  beforeAll(async () => {
    wasm = await Loom.open({ engine: "wasm" });
    js = await Loom.open({ engine: "js" });
  });
  afterAll(async () => {
    await wasm.close();
    await js.close();
  });

  it("after every step: heads, paths, windows, children, siblings, leaves, roots, messages", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        const a = await wasm.user("p").create();
        const b = await js.user("p").create();
        const model = new Model();
        try {
          for (const o of ops) {
            const ids = { assistant: model.ids("assistant"), user: model.ids("user"), all: model.parent.length };
            const ra = await run(a, model, o, ids);
            const rb = await run(b, undefined, o, ids);
            expect(strip(ra)).toEqual(strip(rb));
            expect(observe(a, o.w)).toEqual(observe(b, o.w));
            checkAgainstModel(a, model, o.w);
          }
        } finally {
          // delete the chats: the engines' tree handles and blocks are reused by the next runs
          await wasm.user("p").delete(a.id);
          await js.user("p").delete(b.id);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("long runs on few chats: many appends force block growth while other chats stay intact", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat({ max: 2 }), op), { minLength: 100, maxLength: 300 }),
        async (steps) => {
          const pairs: [Chat, Chat, Model][] = [];
          for (let i = 0; i < 3; i++)
            pairs.push([await wasm.user("q").create(), await js.user("q").create(), new Model()]);
          try {
            for (const [k, o] of steps) {
              const [a, b, model] = pairs[k]!;
              const ids = { assistant: model.ids("assistant"), user: model.ids("user"), all: model.parent.length };
              expect(strip(await run(a, model, o, ids))).toEqual(strip(await run(b, undefined, o, ids)));
            }
            for (const [a, b, model] of pairs) {
              expect(observe(a, 7)).toEqual(observe(b, 7));
              checkAgainstModel(a, model, 7);
            }
          } finally {
            for (const [a, b] of pairs) {
              await wasm.user("q").delete(a.id);
              await js.user("q").delete(b.id);
            }
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
