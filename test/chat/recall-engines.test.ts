// Two engines, one behaviour: the same random conversations (branches, tool calls, several
// chats) recall the same messages with the same scores on the WASM core and the TS engine.
import fc from "fast-check";
import { expect, it, vi } from "vitest";
import { Loom, type Chat } from "../../src/index.js";

const WORDS = [
  "cat",
  "boat",
  "river",
  "name",
  "Seabird",
  "green",
  "dentist",
  "Thursday",
  "plan",
  "trip",
  "mountain",
  "password",
  "the",
  "is",
  "my",
];

type Step =
  | { op: "turn"; user: number[]; answer: number[] }
  | { op: "edit"; back: number; user: number[] }
  | { op: "tool" }
  | { op: "chat" };
const words = fc.array(fc.integer({ min: 0, max: WORDS.length - 1 }), { minLength: 1, maxLength: 6 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant("turn" as const), user: words, answer: words }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("edit" as const), back: fc.nat(), user: words }) },
  { weight: 1, arbitrary: fc.constant({ op: "tool" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "chat" as const }) },
);
const text = (w: number[]) => w.map((i) => WORDS[i]).join(" ");

async function play(engine: "wasm" | "js", steps: Step[]): Promise<{ loom: Loom; chat: Chat; order: string[] }> {
  const loom = await Loom.open({ engine });
  // The same clock on both runs: chats are listed by update time, so ties would differ.
  let clock = 1_700_000_000_000;
  const now = vi.spyOn(Date, "now").mockImplementation(() => clock++);
  try {
    return await playSteps(loom, steps);
  } finally {
    now.mockRestore();
  }
}

async function playSteps(loom: Loom, steps: Step[]): Promise<{ loom: Loom; chat: Chat; order: string[] }> {
  const chats = loom.user("u");
  let chat = await chats.create();
  const order = [chat.id];
  let calls = 0;
  for (const s of steps) {
    if (s.op === "turn") {
      await chat.append({ role: "user", content: text(s.user) });
      await chat.append({ role: "assistant", content: text(s.answer) });
    } else if (s.op === "edit") {
      const users = chat.path().filter((m) => m.role === "user");
      if (users.length > 0) await chat.edit(users[s.back % users.length]!.id, text(s.user));
    } else if (s.op === "tool") {
      if (chat.head === null || chat.get(chat.head).role !== "assistant") continue;
      const id = `call_${calls++}`;
      await chat.append({
        role: "assistant",
        content: "",
        toolCalls: [{ id, type: "function", function: { name: "lookup", arguments: "{}" } }],
      });
      await chat.append({ role: "tool", content: "river boat", toolCallId: id });
      await chat.append({ role: "assistant", content: "found the boat" });
    } else {
      chat = await chats.create();
      order.push(chat.id);
    }
  }
  return { loom, chat, order };
}

/** What is the same on both engines: chats by creation order, no creation times. */
function plain(found: Awaited<ReturnType<Chat["recall"]>>, order: string[]) {
  return found.map(({ message: { createdAt: _t, ...message }, chatId, ...rest }) => ({
    ...rest,
    message,
    chat: order.indexOf(chatId),
  }));
}

it("random conversations recall the same on both engines, in every scope", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(step, { minLength: 1, maxLength: 25 }),
      words,
      fc.nat({ max: 3 }),
      fc.nat({ max: 3 }),
      async (steps, query, k1, k2) => {
        const a = await play("wasm", steps);
        const b = await play("js", steps);
        try {
          for (const scope of ["branch", "chat", "user"] as const) {
            const options = { scope, prompts: k1, answersPerPrompt: k2, recent: 2 };
            expect(plain(await a.chat.recall(text(query), options), a.order)).toEqual(
              plain(await b.chat.recall(text(query), options), b.order),
            );
          }
          if (a.chat.head !== null) {
            const [x, y] = await Promise.all(
              [a, b].map((p) => p.chat.buildContext({ recall: { scope: "user" }, input: text(query) })),
            );
            expect([y!.messages, y!.usage, y!.recalled.map((m) => [m.id, m.content])]).toEqual([
              x!.messages,
              x!.usage,
              x!.recalled.map((m) => [m.id, m.content]),
            ]);
          }
        } finally {
          await a.loom.close();
          await b.loom.close();
        }
      },
    ),
    { numRuns: 40 },
  );
}, 120_000);
