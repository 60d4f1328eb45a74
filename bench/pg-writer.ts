// One writer process of the PostgreSQL bench: a Loom on the shared database appending to
// its own chats, `inflight` chats at a time. Prints { appends, ms } as JSON.
import { Loom } from "../src/index.js";
import { postgresStore } from "../src/postgres.js";

const [url, prefix, chatsArg, appendsArg, durability] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  "full" | "batched",
];
const loom = await Loom.open({
  store: postgresStore(url, { tablePrefix: prefix, durability, max: 8 }),
  counter: "heuristic",
});
const user = loom.user(`writer-${process.pid}`);
const chats = await Promise.all(Array.from({ length: Number(chatsArg) }, () => user.create({ model: "gpt-4o" })));
const perChat = Math.ceil(Number(appendsArg) / chats.length);
const started = performance.now();
await Promise.all(
  chats.map(async (chat) => {
    for (let i = 0; i < perChat; i++)
      await chat.append({ role: i % 2 ? "assistant" : "user", content: `message ${i} of a conversation` });
  }),
);
const ms = performance.now() - started;
await loom.close();
process.stdout.write(JSON.stringify({ appends: perChat * chats.length, ms }));
