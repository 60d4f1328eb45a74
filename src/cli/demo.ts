// `ctxloom demo`: every capability on a conversation written here (no network, no key), on a
// fresh SQLite file (in memory where better-sqlite3 is not installed).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Loom, memoryStore, type LoomOptions } from "../index.js";
import type { Store } from "../store/types.js";
import { budgetBars, recallDemo, restoreDemo } from "./demo-more.js";
import { drawTree } from "./tree-view.js";

/** A fresh SQLite database for the demo, or the memory store (said so) without better-sqlite3. */
async function demoStore(): Promise<{ store: Store; reopen: (() => Store) | null }> {
  try {
    const { sqliteStore } = await import("../store/sqlite.js");
    const file = join(mkdtempSync(join(tmpdir(), "ctxloom-demo-")), "demo.db");
    return { store: sqliteStore(file), reopen: () => sqliteStore(file) };
  } catch {
    console.log("(better-sqlite3 is not installed: the demo keeps its chats in memory; `npm install better-sqlite3` for the SQLite store)\n");
    return { store: memoryStore(), reopen: null };
  }
}

export async function demo(engine: "wasm" | "js" | undefined): Promise<void> {
  const { store, reopen } = await demoStore();
  const options: LoomOptions = engine ? { engine, store } : { store };
  const loom = await Loom.open(options);
  const chats = loom.user("alice");
  const chat = await chats.create({ title: "Trip to Lisbon", model: "gpt-4o", system: "You are a concise travel guide." });
  console.log(`ctxloom demo: engine ${loom.engine}, chat "${chat.title}" (${chat.id})\n`);

  await chat.append({ role: "user", content: "I have three days in Lisbon. Where should I stay?" });
  const first = await chat.append({ role: "assistant", content: "Stay in Baixa or Chiado: central, flat, and close to the river." });
  const ask = await chat.append({ role: "user", content: "What should I eat there?" });
  const answer = await chat.append({ role: "assistant", content: "Try pastéis de nata at Manteigaria and grilled sardines in Alfama." });

  console.log("1. regenerate the last answer: a new sibling, the old answer kept");
  await chat.regenerate(answer.id);
  const second = await chat.append({ role: "assistant", content: "Bacalhau à Brás, bifanas, and a ginjinha near Rossio." });

  console.log("2. edit the second question: a new branch from the same point");
  await chat.edit(ask.id, "What should I eat there on a budget?");
  await chat.append({ role: "assistant", content: "Tascas serve a prato do dia with soup and wine for about 12 euros." });
  await chat.append({ role: "user", content: "And a cheap day trip?" });
  await chat.append({ role: "assistant", content: "Sintra by train from Rossio: about 5 euros return." });

  console.log("3. switch back to the regenerated answer's branch (O(1))\n");
  await chat.checkout(second.id);

  console.log(drawTree(chat));
  console.log(`\nsiblings of #${answer.id}: [${chat.siblings(answer.id).join(", ")}]   leaves: [${chat.leaves().join(", ")}]`);

  const window = chat.window({ maxMessages: 3 });
  console.log(`\nwindow({ maxMessages: 3 }) from head #${chat.head}:`);
  for (const m of window) console.log(`  #${m.id} ${m.role.padEnd(9)} ${m.tokens.toString().padStart(3)} tok  ${m.content}`);

  console.log(`\npath() restores the active branch: ${chat.path().map((m) => `#${m.id}`).join(" -> ")}`);
  console.log(`first answer #${first.id} is still there: "${chat.get(first.id).content}"`);
  console.log(`\n${(await chats.list()).length} chat(s) for alice, ${chat.messageCount} messages in "${chat.title}".`);

  // A budgeted context for a deliberately tiny model, so that the budget bites.
  await chat.checkout(answer.id);
  await chat.append({ role: "user", content: "Remember: I am vegetarian.", priority: "critical" });
  await chat.append({ role: "assistant", content: "Noted: vegetarian options only from now on.", priority: "low" });
  const tiny = { name: "tiny-demo", contextWindow: 150, sizeClass: "tiny" as const, tokensPerChar: 0.25 };
  const ctx = await chat.buildContext({
    model: tiny,
    memory: "Alice travels in May. She prefers walking to taxis.",
    input: "So what should I eat tonight?",
  });
  console.log(`\nbuildContext({ model: a 150-token window, memory, input }) from head #${chat.head}:`);
  for (const m of ctx.messages) console.log(`  ${m.role.padEnd(9)} ${m.content}`);
  const u = ctx.usage;
  console.log(`  usage: system ${u.system} + memory ${u.memory} + conversation ${u.conversation} + input ${u.input} + 3 = ${u.total} of ${u.limit} tokens; ${ctx.evicted} evicted`);
  console.log(`  stats: ${JSON.stringify(chat.stats())}`);

  // The standalone sliding window: lowest priority leaves first.
  const win = loom.window({ maxTokens: 40 });
  win.add({ role: "system", content: "Be brief." });
  win.add({ role: "user", content: "Small talk about the weather.", priority: "low" });
  win.add({ role: "user", content: "My flight lands at 9pm.", priority: "high" });
  win.add({ role: "user", content: "Which tram goes to the castle?" });
  console.log(`\nloom.window({ maxTokens: 40 }) after four adds (${win.tokenCount} tokens):\n${win.format().replace(/^/gm, "  ")}`);
  win.dispose();
  await budgetBars(chat);
  await summaries(chats);
  await recallDemo(chats);
  if (reopen) await restoreDemo(loom, chat, () => Loom.open({ ...options, store: reopen() }), store);
  else await loom.close();
}

/** Progressive summaries: a long chat in a small window keeps its history and sends a summary of it. */
async function summaries(chats: ReturnType<Loom["user"]>): Promise<void> {
  const small = { name: "small-demo", contextWindow: 1_000, sizeClass: "tiny" as const, tokensPerChar: 0.25 };
  const chat = await chats.create({ title: "Long planning chat", model: small, summarize: { select: { keepLast: 6 } } });
  const sights = ["Belém Tower", "Jerónimos Monastery", "the Alfama", "São Jorge Castle", "the LX Factory", "the Oceanário"];
  for (let i = 0; i < 24; i++) {
    const sight = sights[i % sights.length]!;
    await chat.append({ role: "user", content: `Day plan ${i + 1}: is ${sight} worth a morning? I like quiet places.` });
    await chat.append({ role: "assistant", content: `Yes: ${sight} is best before ten, when it is quiet. Book ahead in May.` });
  }
  const ctx = await chat.buildContext();
  const s = chat.stats();
  console.log(`\nsummaries: "${chat.title}" has ${chat.messageCount - s.compressions} messages in a 1,000-token window; create({ summarize: { select: { keepLast: 6 } } })`);
  for (const m of ctx.messages) console.log(`  ${m.role.padEnd(9)} ${(typeof m.content === "string" ? m.content : JSON.stringify(m.content)).replace(/\n/g, "\n            ")}`);
  console.log(`  usage ${ctx.usage.total} of ${ctx.usage.limit} tokens; compressed ${ctx.compressed}; ${s.compressions} summary saving ${s.tokensSaved} tokens (ratio ${s.compressionRatio.toFixed(1)})`);
  console.log(`  path() still returns all ${chat.path().length} original messages`);
}
