// The later parts of `ctxloom demo`: budget bars for a small and a large model, recall of an
// early fact, and a restore from the database in a second Loom.
import type { Loom } from "../index.js";
import type { Store } from "../store/types.js";
import { budgetLines } from "./render.js";

type Chats = ReturnType<Loom["user"]>;

/**
 * Where the demo writes: `say` narrates (nothing with --json), `note` tells of the store, `report` gathers the figures
 * for --json.
 */
export interface DemoOut {
  say(text: string): void;
  note(text: string): void;
  report: Record<string, unknown>;
}
type Chat = Awaited<ReturnType<Chats["create"]>>;

/** The context of the same chat for a small and a large model, with a bar per budget slice. */
export async function budgetBars(chat: Chat, out: DemoOut): Promise<void> {
  const small = { name: "small-demo", contextWindow: 300, sizeClass: "tiny" as const, tokensPerChar: 0.25 };
  const budgets = [];
  for (const model of [small, "gpt-4o"] as const) {
    const ctx = await chat.buildContext({ model, memory: "Alice travels in May. She prefers walking to taxis." });
    const u = ctx.usage;
    const b = ctx.budget;
    const name = typeof model === "string" ? model : `${model.name} (${model.contextWindow} tokens)`;
    out.say(`\nbudget of ${name}: ${ctx.conversation.length} messages kept, ${ctx.evicted} left out`);
    for (const line of budgetLines([
      ["system", u.system, b.system],
      ["memory", u.memory, b.memory],
      ["conversation", u.conversation, b.conversation],
      ["input", u.input, b.input],
      ["total", u.total, u.limit],
    ]))
      out.say(`  ${line}`);
    budgets.push({ model: name, kept: ctx.conversation.length, evicted: ctx.evicted, usage: u, budget: b });
  }
  out.report.budgets = budgets;
}

/** A fact stated early, asked about 400 messages later, in a window it left long ago. */
export async function recallDemo(chats: Chats, out: DemoOut): Promise<void> {
  const chat = await chats.create({ title: "Recall", model: "gpt-4o" });
  await chat.append({ role: "user", content: "My hotel is the Memmo Alfama, room 402." });
  await chat.append({ role: "assistant", content: "Noted: Memmo Alfama, room 402." });
  for (let i = 0; i < 200; i++) {
    await chat.append({ role: "user", content: `Tell me one thing about tram line ${i}.` });
    await chat.append({ role: "assistant", content: `Tram ${i} runs every twenty minutes.` });
  }
  await chat.append({ role: "user", content: "Which room is my hotel room again?" });
  const small = { name: "small-demo", contextWindow: 2_000, sizeClass: "tiny" as const, tokensPerChar: 0.25 };
  const ctx = await chat.buildContext({ model: small, recall: { prompts: 1, answersPerPrompt: 0, recent: 0 } });
  out.say(
    `\nrecall: "Which room is my hotel room again?" after ${chat.messageCount - 1} messages, in a 2,000-token window`,
  );
  out.say(`  the window keeps #${ctx.conversation[0]?.id}..#${ctx.conversation.at(-1)?.id}; recalled into memory:`);
  for (const m of ctx.recalled) out.say(`  #${m.id} ${m.role.padEnd(9)} ${m.content}`);
  out.report.recall = {
    messages: chat.messageCount - 1,
    window: small.contextWindow,
    query: "Which room is my hotel room again?",
    kept: [ctx.conversation[0]?.id ?? null, ctx.conversation.at(-1)?.id ?? null],
    recalled: ctx.recalled.map((m) => m.id),
  };
}

/** Closes the Loom and opens the chat again in a second Loom on the same database: the same tree and context. */
export async function restoreDemo(
  loom: Loom,
  chat: Chat,
  reopen: () => Promise<Loom>,
  store: Store,
  out: DemoOut,
): Promise<void> {
  const before = {
    path: chat.path().map((m) => m.id),
    leaves: chat.leaves(),
    ctx: (await chat.buildContext()).messages,
  };
  const id = chat.id;
  await loom.close();
  const again = await reopen();
  const back = await again.user("alice").open(id);
  const same =
    JSON.stringify(before) ===
    JSON.stringify({
      path: back.path().map((m) => m.id),
      leaves: back.leaves(),
      ctx: (await back.buildContext()).messages,
    });
  out.say(
    `\nrestore: a second Loom on ${store.name} opens "${back.title}": path ` +
      `${before.path.map((n) => `#${n}`).join(" -> ")}, leaves [${before.leaves.join(", ")}]`,
  );
  out.say(`  messages, branches, head and context identical to the first Loom's: ${same}`);
  out.report.restore = { store: store.name, path: before.path, leaves: before.leaves, identical: same };
  await again.close();
}
