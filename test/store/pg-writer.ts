// One writer process of the fleet test: its own Loom (engine by writer number) on the shared
// database, appending to the shared chats round-robin through chat.append. A Loom that loses
// a race catches up and appends as a sibling. Prints every acknowledged message as JSON.
import { Loom } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";

const [url, writer, chatList, appendsArg, prefix] = process.argv.slice(2) as [string, string, string, string, string];
const loom = await Loom.open({
  engine: Number(writer) % 2 ? "js" : "wasm",
  store: postgresStore(url, { max: 2, tablePrefix: prefix }),
  counter: "heuristic",
});
const user = loom.user("fleet");
const chats = await Promise.all(chatList.split(",").map((id) => user.open(id)));
const acked: { chat: string; id: number; parent: number | null; content: string }[] = [];
for (let i = 0; i < Number(appendsArg); i++) {
  const chat = chats[i % chats.length]!;
  const content = `w${writer}-${i}`;
  const m = await chat.append({ role: "user", content });
  acked.push({ chat: chat.id, id: m.id, parent: m.parentId, content });
}
await loom.close();
process.stdout.write(JSON.stringify(acked));
