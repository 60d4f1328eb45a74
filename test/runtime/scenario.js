// One conversation, the same in every runtime: open a Loom on the in-memory store, chat,
// regenerate an answer and edit a question (two sibling branches), switch back, and build
// the context the model would see. Plain JavaScript, so Node, Deno, workerd and a browser run it as is.
import { Loom } from "ctxloom";

/** Runs the conversation and returns plain JSON: the engine, the tree's shape, the path, the window and the context. */
export async function scenario() {
  const loom = await Loom.open();
  const chat = await loom.user("alice").create({
    title: "Trip to Lisbon",
    model: "gpt-4o",
    system: "You are a concise travel guide.",
  });

  await chat.append({ role: "user", content: "Three days in Lisbon: where should I stay?" });
  await chat.append({ role: "assistant", content: "Baixa or Chiado: central, flat, close to the river." });
  const ask = await chat.append({ role: "user", content: "What should I eat?" });
  const answer = await chat.append({ role: "assistant", content: "Pastéis de nata and grilled sardines." });

  await chat.regenerate(answer.id); // head := the question; the next answer is a sibling
  const second = await chat.append({ role: "assistant", content: "Bacalhau à Brás and a bifana." });
  await chat.edit(ask.id, "What should I eat on a budget?"); // a new branch from the same point
  await chat.append({ role: "assistant", content: "A prato do dia at a tasca, about 12 euros." });
  await chat.checkout(second.id); // back to the regenerated answer, O(1)

  const context = await chat.buildContext({ input: "And a cheap day trip?" });

  const brief = (m) => ({ id: m.id, parentId: m.parentId, role: m.role, tokens: m.tokens, content: m.content });
  const report = {
    engine: loom.engine,
    head: chat.head,
    leaves: chat.leaves(),
    siblings: chat.siblings(answer.id),
    path: chat.path().map(brief),
    window: chat.window({ maxMessages: 3 }).map(brief),
    context: { messages: context.messages, usage: context.usage, evicted: context.evicted },
  };
  await loom.close();
  return report;
}
