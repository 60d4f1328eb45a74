// The page of bench/growth.bench.ts: a chat's messages written through a Loom on the browser's
// IndexedDB store, and what the site's storage holds after.
import { Loom } from "../src/index.js";
import { indexedDBStore } from "../src/browser.js";

async function fill(texts: string[], chats: number, perChat: number): Promise<number> {
  const loom = await Loom.open({ store: indexedDBStore(), counter: "heuristic", recall: false });
  for (let c = 0; c < chats; c++) {
    const chat = await loom.user("u").create({ id: `c${c}` });
    for (let i = 0; i < perChat; i++)
      await chat.append({ role: i % 2 ? "assistant" : "user", content: texts[(c * perChat + i) % texts.length]! });
  }
  await loom.close();
  return (await navigator.storage.estimate()).usage ?? 0;
}

Object.assign(globalThis, { ctxloomFill: fill });
