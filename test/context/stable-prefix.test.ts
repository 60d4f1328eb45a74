// The stable prefix (buildContext({ stablePrefix })): once the window is full, consecutive
// builds of a growing chat repeat the previous request at their start most of the time, at
// the cost of at most `step` of the conversation's room; the same on both engines and after a
// restore; every guarantee of the plain selection kept; O(W) nodes visited; bad options refused.
import { describe, expect, it } from "vitest";
import {
  Loom,
  memoryStore,
  type Chat,
  type ChatExport,
  type ContextWindow,
  type ModelProfile,
} from "../../src/index.js";
import { countingEngine } from "../engine/counting.js";
import { ENGINES, expectRejectCode, forEachEngine, snapshot } from "../helpers.js";

const MODEL: ModelProfile = { name: "prefix-small", contextWindow: 4_000, sizeClass: "small", tokensPerChar: 0.25 };
const say = (i: number, n: number) =>
  Array.from({ length: n }, (_, k) => ["route", "tram", "museum", "budget", "ferry"][(i + k) % 5]).join(" ");

/** A chat of `n` messages (user and assistant in turn), imported in one write. */
function history(n: number): ChatExport {
  const messages = Array.from({ length: n }, (_, id) => ({
    id,
    parentId: id === 0 ? null : id - 1,
    role: id % 2 ? "assistant" : "user",
    priority: "normal",
    createdAt: 0,
    kind: "message",
    content:
      id % 2
        ? `Answer ${id >> 1} settles topic ${id >> 1}. Then it explains a little.`
        : `Question ${id >> 1} asks about topic ${id >> 1}.`,
  }));
  return {
    format: "ctxloom.chat",
    version: 1,
    head: n - 1,
    messages,
    chat: {
      id: `h${n}`,
      title: "",
      model: MODEL.name,
      system: null,
      createdAt: 0,
      updatedAt: 0,
      options: { profile: { ...MODEL } },
    },
  } as unknown as ChatExport;
}

/** The request as the provider sees it, one string per message. */
const sent = (ctx: ContextWindow) => [ctx.system, ...ctx.messages.map((m) => JSON.stringify(m))];
const startsWith = (next: string[], prev: string[]) => prev.every((s, i) => next[i] === s);

/** Grows a chat by `turns` exchanges, building before each answer; returns how many builds repeated the previous request. */
async function grow(
  chats: Chat[],
  turns: number,
  options: { stablePrefix?: boolean | { step: number } },
  check?: (ctx: ContextWindow, chat: Chat) => void,
) {
  let previous: string[] | null = null;
  let unchanged = 0;
  let full = 0;
  for (let i = 0; i < turns; i++) {
    for (const chat of chats)
      await chat.append({
        role: "user",
        content: `question ${i}: ${say(i, 20 + (i % 7) * 5)}`,
        ...(i % 11 === 3 ? { priority: "low" as const } : {}),
      });
    const ctxs = await Promise.all(chats.map((c) => c.buildContext({ memory: "Alice walks.", ...options })));
    for (let k = 1; k < ctxs.length; k++) expect(ctxs[k]!.messages).toEqual(ctxs[0]!.messages); // both engines alike
    const ctx = ctxs[0]!;
    check?.(ctx, chats[0]!);
    if (ctx.evicted > 0) full++;
    const now = sent(ctx);
    if (previous && ctx.evicted > 0 && startsWith(now, previous)) unchanged++;
    previous = now;
    for (const chat of chats)
      await chat.append({ role: "assistant", content: `answer ${i}: ${say(i + 2, 30 + (i % 5) * 9)}` });
  }
  return { unchanged, full };
}

describe("the stable prefix on a growing chat", () => {
  it("most builds repeat the previous request once the window is full, identically on both engines, within the step", async () => {
    const looms = await Promise.all(ENGINES.map((engine) => Loom.open({ engine })));
    const chats = await Promise.all(looms.map((l) => l.user("u").create({ model: MODEL, system: "Be brief." })));
    const plainLooms = await Promise.all(ENGINES.map((engine) => Loom.open({ engine })));
    const plainChats = await Promise.all(
      plainLooms.map((l) => l.user("u").create({ model: MODEL, system: "Be brief." })),
    );
    const stable = await grow(chats, 150, {}, (ctx, chat) => {
      expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
      const path = chat.path();
      expect(ctx.conversation.at(-1)!.id).toBe(path.at(-1)!.id); // the newest user turn
      expect(ctx.evicted).toBe(path.length - ctx.conversation.length);
      if (ctx.evicted > 0) {
        // Unused: at most the step (0.1 of the room) and the message that did not fit.
        const room = ctx.usage.limit - (ctx.usage.total - ctx.usage.conversation);
        const before = path[path.length - ctx.conversation.length - 1]!;
        expect(ctx.usage.limit - ctx.usage.total).toBeLessThanOrEqual(Math.floor(0.1 * room) + before.tokens);
      }
    });
    const plain = await grow(plainChats, 150, { stablePrefix: false });
    expect(stable.full).toBeGreaterThan(100);
    // An exchange here is about a fifth of the step (0.1 of a 3,000-token room): about half the
    // builds repeat the previous request; with the plain selection none does.
    expect(stable.unchanged / stable.full).toBeGreaterThan(0.4);
    expect(plain.unchanged).toBe(0);
    // A larger step: more builds repeat.
    const wide = await Promise.all(ENGINES.map((engine) => Loom.open({ engine })));
    const wideChats = await Promise.all(wide.map((l) => l.user("u").create({ model: MODEL, system: "Be brief." })));
    const stepped = await grow(wideChats, 150, { stablePrefix: { step: 0.3 } });
    expect(stepped.unchanged / stepped.full).toBeGreaterThan(0.75);
    await Promise.all([...looms, ...plainLooms, ...wide].map((l) => l.close()));
  });

  it("is a function of the chat: a restored chat, on the other engine, builds the same request", async () => {
    const store = memoryStore();
    const a = await Loom.open({ engine: "wasm", store });
    const chat = await a.user("u").create({ model: MODEL });
    await grow([chat], 60, {});
    const ctx = await chat.buildContext();
    expect(ctx.evicted).toBeGreaterThan(0);
    await a.close();
    const b = await Loom.open({ engine: "js", store });
    const again = await (await b.user("u").open(chat.id)).buildContext();
    expect(again.messages).toEqual(ctx.messages);
    await b.close();
  });

  it("keeps CRITICAL messages from before the horizon and HIGH ones the plain selection keeps", async () => {
    for (const engine of ENGINES) {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: MODEL });
      const pinned = await chat.append({
        role: "user",
        content: "My name is Alice; remember it.",
        priority: "critical",
      });
      await chat.append({ role: "assistant", content: "Noted, Alice.", priority: "high" });
      await grow([chat], 80, {});
      const ctx = await chat.buildContext();
      const plain = await chat.buildContext({ stablePrefix: false });
      expect(ctx.conversation[0]!.id).toBe(pinned.id);
      const kept = new Set(ctx.conversation.map((m) => m.id));
      for (const m of plain.conversation)
        if (m.priority !== "normal" && m.priority !== "low") expect(kept.has(m.id)).toBe(true);
      await loom.close();
    }
  });
});

forEachEngine((engine) => {
  describe("what a stable build visits", () => {
    const visits = new Map<number, number[]>();
    for (const n of [2_000, 20_000]) {
      it(`${n} messages: O(W) nodes`, async () => {
        const loom = Loom.withEngine(await countingEngine(engine), {
          store: memoryStore(),
          counter: "heuristic",
          maxOpenChats: 1000,
          recall: false,
        });
        const chat = await loom.user("u").import(history(n));
        const e = loom.engineImpl;
        const counts: number[] = [];
        for (let i = 0; i < 5; i++) {
          await chat.append({ role: "user", content: `Follow-up ${i}. One more question.` });
          e.resetVisited();
          const ctx = await chat.buildContext({
            model: { name: "w8k", contextWindow: 8_000, sizeClass: "medium", tokensPerChar: 0.25 },
          });
          counts.push(e.visited);
          expect(ctx.evicted).toBeGreaterThan(0);
          // Two selections and the walks back to a little past the horizon (doubling from 64).
          expect(e.visited).toBeLessThanOrEqual(8 * ctx.conversation.length + 256);
          await chat.append({ role: "assistant", content: `Reply ${i}. One more answer.` });
        }
        visits.set(n, counts);
        await loom.close();
      });
    }
    it("about the same at 20,000 as at 2,000 (the checkpoints fall at other depths)", () => {
      const [small, large] = [visits.get(2_000)!, visits.get(20_000)!];
      small.forEach((v, i) => expect(Math.abs(large[i]! - v)).toBeLessThanOrEqual(0.05 * v));
    });
  });

  it("refuses bad stablePrefix options; nothing changes", async () => {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ model: MODEL });
    await chat.append({ role: "user", content: "hi" });
    const before = await snapshot(chat);
    for (const stablePrefix of [
      "yes",
      1,
      null,
      { step: 0.6 },
      { step: -0.1 },
      { step: "0.1" },
      { step: Number.NaN },
      { stp: 0.1 },
    ]) {
      await expectRejectCode(() => chat.buildContext({ stablePrefix } as never), "INVALID_ARGUMENT");
    }
    expect(await snapshot(chat)).toEqual(before);
    expect((await chat.buildContext({ stablePrefix: { step: 0 } })).messages).toEqual(
      (await chat.buildContext({ stablePrefix: false })).messages,
    );
    await loom.close();
  });
});
