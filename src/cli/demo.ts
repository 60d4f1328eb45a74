// `ctxloom demo`: every capability on a conversation written here (no network, no key), on a
// fresh SQLite file in a temporary folder (in memory where better-sqlite3 is not installed).
// It narrates in text, or with --json prints one object with the figures it showed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Loom, memoryStore, type LoomOptions } from "../index.js";
import type { Store } from "../store/types.js";
import { budgetBars, recallDemo, restoreDemo, type DemoOut } from "./demo-more.js";
import { drawTree } from "./tree-view.js";

/** A fresh SQLite database for the demo, or the memory store (said so) without better-sqlite3. */
async function demoStore(out: DemoOut): Promise<{ store: Store; reopen: (() => Store) | null }> {
  try {
    const { sqliteStore } = await import("../store/sqlite.js");
    const file = join(mkdtempSync(join(tmpdir(), "ctxloom-demo-")), "demo.db");
    return { store: sqliteStore(file), reopen: () => sqliteStore(file) };
  } catch {
    out.note(
      "(better-sqlite3 is not installed: the demo keeps its chats in memory; `npm install better-sqlite3` for the " +
        "SQLite store)\n",
    );
    return { store: memoryStore(), reopen: null };
  }
}

/** Runs the demo: text on stdout, or (`json`) one JSON object of its figures at the end. */
export async function demo(engine: "wasm" | "js" | undefined, json = false): Promise<void> {
  const report: Record<string, unknown> = {};
  const out: DemoOut = json
    ? { say: () => {}, note: (text) => console.error(text), report }
    : { say: (text) => console.log(text), note: (text) => console.log(text), report };
  const say = out.say;
  const { store, reopen } = await demoStore(out);
  const options: LoomOptions = engine ? { engine, store } : { store };
  const loom = await Loom.open(options);
  const chats = loom.user("alice");
  const chat = await chats.create({
    title: "Trip to Lisbon",
    model: "gpt-4o",
    system: "You are a concise travel guide.",
  });
  say(`ctxloom demo: engine ${loom.engine}, chat "${chat.title}" (${chat.id})\n`);
  Object.assign(out.report, { engine: loom.engine, store: reopen ? "sqlite" : "memory", chat: chat.id });

  await chat.append({ role: "user", content: "I have three days in Lisbon. Where should I stay?" });
  const first = await chat.append({
    role: "assistant",
    content: "Stay in Baixa or Chiado: central, flat, and close to the river.",
  });
  const ask = await chat.append({ role: "user", content: "What should I eat there?" });
  const answer = await chat.append({
    role: "assistant",
    content: "Try pastéis de nata at Manteigaria and grilled sardines in Alfama.",
  });

  say("1. regenerate the last answer: a new sibling, the old answer kept");
  await chat.regenerate(answer.id);
  const second = await chat.append({
    role: "assistant",
    content: "Bacalhau à Brás, bifanas, and a ginjinha near Rossio.",
  });

  say("2. edit the second question: a new branch from the same point");
  await chat.edit(ask.id, "What should I eat there on a budget?");
  await chat.append({
    role: "assistant",
    content: "Tascas serve a prato do dia with soup and wine for about 12 euros.",
  });
  await chat.append({ role: "user", content: "And a cheap day trip?" });
  await chat.append({ role: "assistant", content: "Sintra by train from Rossio: about 5 euros return." });

  say("3. switch back to the regenerated answer's branch (O(1))\n");
  await chat.checkout(second.id);

  say(drawTree(chat));
  say(`\nsiblings of #${answer.id}: [${chat.siblings(answer.id).join(", ")}]   leaves: [${chat.leaves().join(", ")}]`);

  const window = chat.window({ maxMessages: 3 });
  say(`\nwindow({ maxMessages: 3 }) from head #${chat.head}:`);
  for (const m of window) say(`  #${m.id} ${m.role.padEnd(9)} ${m.tokens.toString().padStart(3)} tok  ${m.content}`);

  say(
    `\npath() restores the active branch: ${chat
      .path()
      .map((m) => `#${m.id}`)
      .join(" -> ")}`,
  );
  say(`first answer #${first.id} is still there: "${chat.get(first.id).content}"`);
  const chatCount = (await chats.list()).length;
  say(`\n${chatCount} chat(s) for alice, ${chat.messageCount} messages in "${chat.title}".`);
  out.report.tree = {
    messages: chat.messageCount,
    head: chat.head,
    leaves: chat.leaves(),
    siblings: { of: answer.id, ids: chat.siblings(answer.id) },
    window: window.map((m) => m.id),
    path: chat.path().map((m) => m.id),
    chats: chatCount,
  };

  // A budgeted context for a deliberately tiny model, so that the budget bites.
  await chat.checkout(answer.id);
  const critical = await chat.append({ role: "user", content: "Remember: I am vegetarian.", priority: "critical" });
  const low = await chat.append({
    role: "assistant",
    content: "Noted: vegetarian options only from now on.",
    priority: "low",
  });
  say(
    `\n4. back to answer #${answer.id}; append #${critical.id} "${critical.content}" (priority critical) and ` +
      `#${low.id} "${low.content}" (priority low)`,
  );
  const tiny = { name: "tiny-demo", contextWindow: 150, sizeClass: "tiny" as const, tokensPerChar: 0.25 };
  const request = {
    model: tiny,
    memory: "Alice travels in May. She prefers walking to taxis.",
    input: "So what should I eat tonight?",
  };
  const branch = chat.path().map((m) => m.id);
  const leftOut = (kept: { id: number }[]) => branch.filter((id) => !kept.some((m) => m.id === id));
  // By default the stable prefix keeps the request's start for prompt caches: the oldest messages leave first.
  const cached = await chat.buildContext(request);
  const ctx = await chat.buildContext({ ...request, stablePrefix: false });
  say(`\nbuildContext({ model: a 150-token window, memory, input, stablePrefix: false }) from head #${chat.head}:`);
  say(
    `  (stablePrefix: false, so the lowest priority leaves first; the default stable prefix would leave out the oldest, ${leftOut(
      cached.conversation,
    )
      .map((id) => `#${id}`)
      .join(", ")}, to keep the request's start for prompt caches)`,
  );
  for (const m of ctx.messages) say(`  ${m.role.padEnd(9)} ${m.content}`);
  const u = ctx.usage;
  say(
    `  usage: system ${u.system} + memory ${u.memory} + conversation ${u.conversation} + input ${u.input} + 3 = ${u.total} of ${u.limit} tokens; ${ctx.evicted} evicted: ${leftOut(
      ctx.conversation,
    )
      .map((id) => `#${id}`)
      .join(", ")}`,
  );
  const stats = chat.stats();
  say(`  stats: ${JSON.stringify(stats)}`);
  out.report.context = {
    window: tiny.contextWindow,
    head: chat.head,
    critical: critical.id,
    low: low.id,
    stablePrefix: false,
    kept: ctx.conversation.map((m) => m.id),
    evicted: ctx.evicted,
    leftOut: leftOut(ctx.conversation),
    usage: u,
    withStablePrefix: {
      kept: cached.conversation.map((m) => m.id),
      leftOut: leftOut(cached.conversation),
      usage: cached.usage,
    },
    stats,
  };

  // The standalone sliding window: lowest priority leaves first.
  const win = loom.slidingWindow({ maxTokens: 40 });
  win.add({ role: "system", content: "Be brief." });
  win.add({ role: "user", content: "Small talk about the weather.", priority: "low" });
  win.add({ role: "user", content: "My flight lands at 9pm.", priority: "high" });
  win.add({ role: "user", content: "Which tram goes to the castle?" });
  say(
    `\nloom.slidingWindow({ maxTokens: 40 }) after four adds (${win.tokenCount} ` +
      `tokens):\n${win.format().replace(/^/gm, "  ")}`,
  );
  out.report.slidingWindow = { maxTokens: 40, tokens: win.tokenCount, kept: win.messages.map((m) => m.content) };
  win.close();
  await budgetBars(chat, out);
  await summaries(chats, out);
  await recallDemo(chats, out);
  if (reopen) await restoreDemo(loom, chat, () => Loom.open({ ...options, store: reopen() }), store, out);
  else await loom.close();
  if (json) console.log(JSON.stringify(out.report, null, 2));
}

/** Progressive summaries: a long chat in a small window keeps its history and sends a summary of it. */
async function summaries(chats: ReturnType<Loom["user"]>, out: DemoOut): Promise<void> {
  const small = { name: "small-demo", contextWindow: 1_000, sizeClass: "tiny" as const, tokensPerChar: 0.25 };
  const chat = await chats.create({
    title: "Long planning chat",
    model: small,
    summaries: { select: { keepLast: 6 } },
  });
  const sights = [
    "Belém Tower",
    "Jerónimos Monastery",
    "the Alfama",
    "São Jorge Castle",
    "the LX Factory",
    "the Oceanário",
  ];
  for (let i = 0; i < 24; i++) {
    const sight = sights[i % sights.length]!;
    await chat.append({
      role: "user",
      content: `Day plan ${i + 1}: is ${sight} worth a morning? I like quiet places.`,
    });
    await chat.append({
      role: "assistant",
      content: `Yes: ${sight} is best before ten, when it is quiet. Book ahead in May.`,
    });
  }
  const ctx = await chat.buildContext();
  const s = chat.stats();
  out.say(
    `\nsummaries: "${chat.title}" has ${chat.messageCount - s.compressions} messages in a 1,000-token window; ` +
      `create({ summaries: { select: { keepLast: 6 } } })`,
  );
  for (const m of ctx.messages)
    out.say(
      `  ${m.role.padEnd(9)} ` +
        `${(typeof m.content === "string" ? m.content : JSON.stringify(m.content)).replace(/\n/g, "\n            ")}`,
    );
  out.say(
    `  usage ${ctx.usage.total} of ${ctx.usage.limit} tokens; compressed ${ctx.compressed}; ${s.compressions} ` +
      `summary saving ${s.tokensSaved} tokens (ratio ${s.compressionRatio.toFixed(1)})`,
  );
  out.say(`  path() still returns all ${chat.path().length} original messages`);
  out.report.summary = {
    messages: chat.messageCount - s.compressions,
    window: small.contextWindow,
    keepLast: 6,
    content: ctx.messages[0]!.content,
    usage: ctx.usage,
    compressed: ctx.compressed,
    compressions: s.compressions,
    tokensSaved: s.tokensSaved,
    compressionRatio: s.compressionRatio,
    path: chat.path().length,
  };
}
