// One writer process of the fleet test: `appends` conditional appends spread over the
// shared chats, each retried on conflict with the next id and the parent it meant (the
// newest message it wrote to that chat, or the root). Prints every acknowledged id as JSON.
import { postgresStore } from "../../src/store/postgres.js";

const [url, writer, chatList, appendsArg, prefix] = process.argv.slice(2) as [string, string, string, string, string];
const chats = chatList.split(",");
const store = postgresStore(url, { max: 2, tablePrefix: prefix });
const acked: { chat: string; id: number; parent: number | null; content: string }[] = [];
const mine = new Map<string, number | null>();
const size = new Map<string, number>();
for (let i = 0; i < Number(appendsArg); i++) {
  const chat = chats[i % chats.length]!;
  const parent = mine.get(chat) ?? null;
  const content = `w${writer}-${i}`;
  let id = size.get(chat) ?? 0;
  for (;;) {
    const r = await store.appendMessage("fleet", chat, {
      id, parentId: parent, role: i % 2 ? "assistant" : "user", content, priority: "normal", tokens: 4, createdAt: Date.now(), kind: "message",
    }, id, Date.now());
    if (r.ok) break;
    id = r.size;
  }
  size.set(chat, id + 1);
  mine.set(chat, id);
  acked.push({ chat, id, parent, content });
}
await store.close();
process.stdout.write(JSON.stringify(acked));
