// Issue 34, item 2: every context of a user's chats carries their working memory, with no
// option given: first in the memory message, beside the call's own `memory`, counted and cut
// exactly as `buildContext({ memory })` is with the same text, its revision said. Run on every
// store and both engines (test/memory/memory-stores.test.ts, test/runtime/do-worker.ts). No test
// framework here: the worker bundles it.
import type { ContextWindow, Loom } from "../../src/index.js";

/** A context as JSON, without what says where its memory came from. */
const same = (a: ContextWindow, b: ContextWindow) =>
  JSON.stringify({ ...a, memoryRevision: null }) === JSON.stringify({ ...b, memoryRevision: null });

/** A long text of sentences (about `n` words). */
const prose = (n: number) =>
  Array.from({ length: n / 8 }, (_, i) => `Sentence ${i} says the user likes item ${i} a lot.`).join(" ");

/** What each step answers, for users whose ids start with `u`. */
export async function memoryContextCases(loom: Loom, u: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const chats = loom.user(u);
  const chat = await chats.create({ title: "t", system: "Be brief.", model: "llama3.2" }); // a memory share of about 1,500 tokens
  await chat.append({ role: "user", content: "Plan a weekend." });
  const empty = await chat.buildContext();
  out["an empty memory"] = [empty.memoryRevision, empty.memory];
  await chats.memory.write({ path: "preferences.md", text: "- Prefers trains.\n- Vegetarian.", revision: 0 });
  const ctx = await chat.buildContext();
  out["carried"] = ctx.memoryRevision;
  out["its documents in the memory message"] =
    ctx.messages[1]!.role === "system" &&
    ctx.memory.includes("- Prefers trains.\n- Vegetarian.") &&
    ctx.messages[1]!.content === ctx.memory;
  const plain = await chat.buildContext({ memory: ctx.memory, memoryScope: "none" });
  out["the request buildContext({ memory }) makes of its text"] = same(ctx, plain);
  out["none carried"] = plain.memoryRevision;
  const beside = await chat.buildContext({ memory: "Today: rain in Porto." });
  out["beside the call's memory"] =
    beside.memory === `${ctx.memory}\n\nToday: rain in Porto.` &&
    same(beside, await chat.buildContext({ memory: beside.memory, memoryScope: "none" }));
  // A model's write is in the next context.
  await chat.memory.write({ path: "trip.md", text: "Porto, May 3-5.", revision: 1, by: "model" });
  const next = await chat.buildContext();
  out["the next revision"] = [next.memoryRevision, next.memory.includes("Porto, May 3-5.")];
  // Too large for the memory share: cut by the rules of buildContext({ memory }), and said.
  await chats.memory.write({ path: "long.md", text: prose(4_000), revision: 2 });
  const whole = (await chat.buildContext({ model: "gpt-4.1" })).memory; // a window that holds it all
  const cut = await chat.buildContext();
  const cutPlain = await chat.buildContext({ memory: whole, memoryScope: "none" });
  out["cut"] = {
    sameAsPlain: same(cut, cutPlain),
    omitted: cut.memoryRevision!.omitted === whole.length - cut.memory.length && cut.memoryRevision!.omitted > 0,
    withinShare: cut.usage.memory <= cut.budget.memory,
    withinLimit: cut.usage.total <= cut.usage.limit,
    head: whole.startsWith(cut.memory),
  };
  await chats.memory.delete({ path: "long.md", revision: 3 });
  // Other formats carry it too.
  const anthropic = await chat.buildContext({ format: "anthropic" });
  const responses = await chat.buildContext({ format: "responses" });
  out["anthropic and responses"] = [
    anthropic.system.includes("Porto, May 3-5."),
    anthropic.memoryRevision?.revision,
    responses.memoryRevision?.revision,
  ];
  // A chat's own memory, and none.
  const own = await chats.create({ memoryScope: "chat" });
  await own.append({ role: "user", content: "hi" });
  await own.memory.write({ path: "plan.md", text: "Just this chat.", revision: 0 });
  const ownCtx = await own.buildContext();
  out["a chat's own"] = [
    ownCtx.memoryRevision,
    ownCtx.memory.includes("Just this chat."),
    ownCtx.memory.includes("Prefers trains"),
  ];
  const users = await own.buildContext({ memoryScope: "user" });
  out["the user's, asked for in that chat"] = [users.memoryRevision?.scope, users.memory.includes("Prefers trains")];
  const none = await chats.create({ memoryScope: "none" });
  await none.append({ role: "user", content: "hi" });
  out["a chat that carries none"] = [(await none.buildContext()).memoryRevision, (await none.buildContext()).memory];
  return out;
}

export const expectedMemoryContext = (): Record<string, unknown> => ({
  "an empty memory": [{ scope: "user", revision: 0, omitted: 0 }, ""],
  carried: { scope: "user", revision: 1, omitted: 0 },
  "its documents in the memory message": true,
  "the request buildContext({ memory }) makes of its text": true,
  "none carried": null,
  "beside the call's memory": true,
  "the next revision": [{ scope: "user", revision: 2, omitted: 0 }, true],
  cut: { sameAsPlain: true, omitted: true, withinShare: true, withinLimit: true, head: true },
  "anthropic and responses": [true, 4, 4],
  "a chat's own": [{ scope: "chat", revision: 1, omitted: 0 }, true, false],
  "the user's, asked for in that chat": ["user", true],
  "a chat that carries none": [null, ""],
});
