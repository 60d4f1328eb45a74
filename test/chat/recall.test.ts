// Semantic recall through the Chat (issue 10): a fact that left the window long ago comes back
// through buildContext, whole exchanges within the memory slice; scopes branch, chat and user.
import { afterEach, expect, it } from "vitest";
import { countTokens, type Chat, type Loom, type UserChats } from "../../src/index.js";
import { RECALL_HEADER } from "../../src/recall/recalled.js";
import { forEachEngine, setup } from "../helpers.js";
import { filler } from "./recall-helpers.js";

const SMALL = { name: "recall-small", contextWindow: 4096 };
const FACT = "My cat's name is Bartholomew and he is nine years old.";
const FACT_ANSWER = "Noted: your cat Bartholomew is nine.";
const QUESTION = "What is my cat's name again?";

async function chatter(chat: Chat, from: number, turns: number): Promise<void> {
  for (let i = from; i < from + turns; i++) {
    const f = filler(i);
    await chat.append({ role: "user", content: f.user });
    await chat.append({ role: "assistant", content: f.assistant });
  }
}

forEachEngine((engine) => {
  let loom: Loom;
  let chats: UserChats;
  let chat: Chat;
  afterEach(async () => {
    await loom?.close();
  });

  it("a fact stated early in thousands of turns is recalled through buildContext after it left the window", async () => {
    ({ loom, chats, chat } = await setup(engine));
    await chatter(chat, 0, 3);
    const fact = await chat.append({ role: "user", content: FACT });
    const answer = await chat.append({ role: "assistant", content: FACT_ANSWER });
    await chatter(chat, 3, 2000);
    await chat.append({ role: "user", content: QUESTION });
    expect(chat.messageCount).toBe(4009);

    const plain = await chat.buildContext({ model: SMALL });
    expect(plain.conversation.some((m) => m.id === fact.id)).toBe(false); // it left the window
    expect(plain.recalled).toEqual([]);

    const ctx = await chat.buildContext({ model: SMALL, recall: true });
    const recalled = ctx.recalled.map((m) => m.id);
    expect(recalled).toContain(fact.id);
    expect(recalled).toContain(answer.id); // exchanges come whole
    // Nothing in the window is recalled again; the recall sits in the memory message, within its slice.
    const inWindow = new Set(ctx.conversation.map((m) => m.id));
    expect(recalled.filter((id) => inWindow.has(id))).toEqual([]);
    expect(ctx.memory.startsWith(RECALL_HEADER)).toBe(true);
    expect(ctx.memory).toContain("Bartholomew");
    expect(ctx.messages[0]).toEqual({ role: "system", content: ctx.memory });
    expect(ctx.usage.memory).toBeGreaterThan(0);
    expect(ctx.usage.memory).toBeLessThanOrEqual(ctx.budget.memory);
    expect(ctx.usage.memory).toBe(countTokens([{ role: "system", content: ctx.memory }], { model: chat.model }) - 3);
    expect(ctx.usage.total).toBe(
      countTokens(ctx.messages as { role: string; content: string }[] as never, { model: chat.model }),
    );
    expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
    // The recalled messages are the chat's, in order, and what the memory text shows.
    expect(recalled).toEqual([...recalled].sort((a, b) => a - b));
    for (const m of ctx.recalled) expect(ctx.memory).toContain(m.content);

    const stats = loom.stats().recall!;
    expect(stats.pending).toBe(0);
    expect(stats.embedded).toBe(4009); // user and assistant messages, all of them
    expect(stats.failures).toBe(0);
  });

  it("a tight memory slice drops the lowest-scored exchanges whole", async () => {
    ({ loom, chats, chat } = await setup(engine));
    await chat.append({ role: "user", content: FACT });
    await chat.append({ role: "assistant", content: FACT_ANSWER });
    await chatter(chat, 0, 300);
    await chat.append({ role: "user", content: QUESTION });
    const wide = await chat.buildContext({ model: SMALL, recall: { recent: 8, answersPerPrompt: 4 } });
    const narrow = await chat.buildContext({
      model: SMALL,
      recall: { recent: 8, answersPerPrompt: 4 },
      budget: { memory: 0.02, conversation: 0.58 },
    });
    expect(narrow.usage.memory).toBeLessThanOrEqual(narrow.budget.memory);
    expect(narrow.recalled.length).toBeGreaterThan(0);
    expect(narrow.recalled.length).toBeLessThan(wide.recalled.length);
    expect(narrow.recalled.map((m) => m.id).slice(0, 2)).toEqual([0, 1]); // the best match stays
    // Whole exchanges: each recalled user message comes with the answer below it.
    const ids = new Set(narrow.recalled.map((m) => m.id));
    for (const m of narrow.recalled) if (m.role === "user") expect(ids.has(m.id + 1)).toBe(true);
  });

  it("in the Anthropic format the recall goes into the system text, counted in usage.memory", async () => {
    ({ loom, chats, chat } = await setup(engine));
    await chat.append({ role: "user", content: FACT });
    await chat.append({ role: "assistant", content: FACT_ANSWER });
    await chatter(chat, 0, 300);
    await chat.append({ role: "user", content: QUESTION });
    const ctx = await chat.buildContext({
      model: SMALL,
      format: "anthropic",
      system: "Be brief.",
      memory: "The user lives in Lyon.",
      recall: { recent: 0 },
    });
    expect(ctx.recalled.map((m) => m.id).slice(0, 2)).toEqual([0, 1]);
    expect(ctx.memory.startsWith("The user lives in Lyon.\n\n" + RECALL_HEADER)).toBe(true);
    expect(ctx.system).toBe(`Be brief.\n\n${ctx.memory}`);
    expect(ctx.usage.memory).toBeLessThanOrEqual(ctx.budget.memory);
    expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
  });

  it("the query defaults to the input, and recall: false or a Loom without an embedder recalls nothing", async () => {
    ({ loom, chats, chat } = await setup(engine));
    await chat.append({ role: "user", content: FACT });
    await chat.append({ role: "assistant", content: FACT_ANSWER });
    await chatter(chat, 0, 200);
    const ctx = await chat.buildContext({ model: SMALL, input: QUESTION, recall: { recent: 0 } });
    expect(ctx.recalled.map((m) => m.id)).toContain(0);
    const off = await chat.buildContext({ model: SMALL, input: QUESTION, recall: false });
    expect(off.recalled).toEqual([]);
    expect(off.usage.memory).toBe(0);
  });

  it("chat.recall returns scored messages; scope branch never crosses to another branch", async () => {
    ({ loom, chats, chat } = await setup(engine));
    const q = await chat.append({ role: "user", content: "Remember: the vault password is swordfish." });
    await chat.append({ role: "assistant", content: "I will remember the vault password swordfish." });
    await chatter(chat, 0, 5);
    // Another branch: an edit of the first question, with a conversation of its own.
    await chat.edit(q.id, "Let us plan a trip to the mountains.");
    await chat.append({ role: "assistant", content: "Mountains it is: pack warm clothes." });
    await chatter(chat, 50, 5);
    const branch = new Set(chat.path().map((m) => m.id));

    const inBranch = await chat.recall("what is the vault password?", { scope: "branch", recent: 2 });
    expect(inBranch.length).toBeGreaterThan(0);
    for (const r of inBranch) {
      expect(branch.has(r.message.id)).toBe(true);
      expect(r.chatId).toBe(chat.id);
    }
    const all = await chat.recall("what is the vault password?", { scope: "chat", recent: 0 });
    expect(all[0]!.message.content).toContain("swordfish");
    expect(all[0]!.reason).toBe("prompt");
    expect(all[0]!.score).toBeGreaterThan(1); // the best lexical match (1), with its similarity
    const scores = all.map((r) => r.score!);
    expect(scores).toEqual([...scores].sort((a, b) => b - a)); // best first
    const top = await chat.recall("what is the vault password?", { k: 3 });
    expect(top.map((r) => [r.message.content.includes("swordfish"), r.reason])).toEqual([
      [true, "match"],
      [true, "match"],
      [false, "match"],
    ]);

    await chat.append({ role: "user", content: "what is the vault password?" });
    const ctx = await chat.buildContext({ model: SMALL, recall: { scope: "branch", recent: 20 } });
    for (const m of ctx.recalled) expect(branch.has(m.id)).toBe(true);
    expect(ctx.memory).not.toContain("swordfish");
  });

  it("scope user finds a fact in another chat of the user, never in another user's", async () => {
    ({ loom, chats, chat } = await setup(engine));
    await chat.append({ role: "user", content: "My dentist appointment is on Thursday at nine." });
    await chat.append({ role: "assistant", content: "Dentist on Thursday at nine, noted." });
    const bob = await loom.user("bob").create();
    await bob.append({ role: "user", content: "My dentist appointment is on Monday at noon." });
    await bob.append({ role: "assistant", content: "Dentist on Monday at noon, noted." });
    const other = await chats.create({ title: "later" });
    await chatter(other, 0, 10);
    await other.append({ role: "user", content: "When is my dentist appointment?" });

    expect(
      (await other.recall("When is my dentist appointment?", { recent: 0 })).some((r) =>
        r.message.content.includes("dentist on"),
      ),
    ).toBe(false);
    const found = (await other.recall("When is my dentist appointment?", { scope: "user", recent: 0 })).filter(
      (r) => r.chatId !== other.id,
    ); // the question itself matches best
    expect(found[0]!.chatId).toBe(chat.id);
    expect(found[0]!.message.content).toContain("Thursday");
    expect(found.some((r) => r.message.content.includes("Monday"))).toBe(false);

    const ctx = await other.buildContext({ recall: { scope: "user" } });
    expect(ctx.memory).toContain("Thursday");
    expect(ctx.memory).not.toContain("Monday");
    // The other chat goes on: recall reads its new messages.
    await chat.append({ role: "user", content: "My vet is Doctor Mole." });
    const vet = await other.recall("who is my vet?", { scope: "user", recent: 0, prompts: 1, answersPerPrompt: 0 });
    expect(vet.map((r) => [r.chatId, r.message.content])).toEqual([[chat.id, "My vet is Doctor Mole."]]);
  });

  it("messages of stop words only (vectors of zeros) are stored but never matched", async () => {
    ({ loom, chats, chat } = await setup(engine));
    await chat.append({ role: "user", content: "boat" });
    await chat.append({ role: "assistant", content: "the" });
    await chat.append({ role: "user", content: "the boat" });
    const found = await chat.recall("boat", { recent: 0, answersPerPrompt: 3 });
    expect(found.map((r) => r.message.id)).toEqual([0, 1, 2]);
    expect(loom.stats().recall).toMatchObject({ embedded: 3, indexed: 2 });
    expect(await chat.recall("the", { recent: 1 })).toMatchObject([{ reason: "recent", score: null }]); // a query of stop words: recent only
  });

  it("a deleted chat is forgotten by recall", async () => {
    ({ loom, chats, chat } = await setup(engine));
    await chat.append({ role: "user", content: FACT });
    await chat.append({ role: "assistant", content: FACT_ANSWER });
    const other = await chats.create();
    await other.append({ role: "user", content: QUESTION });
    expect((await other.recall(QUESTION, { scope: "user", recent: 0 })).length).toBeGreaterThan(0);
    const before = loom.stats().recall!.indexed;
    await chats.delete(chat.id);
    expect(loom.stats().recall!.indexed).toBe(before - 2);
    const after = await other.recall(QUESTION, { scope: "user", recent: 0 });
    expect(after.map((r) => r.chatId)).toEqual([other.id]); // only the question itself is left
    expect(after.some((r) => r.message.content.includes("Bartholomew"))).toBe(false);
  });
});
