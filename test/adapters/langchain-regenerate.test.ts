// Regenerate and edit through RunnableWithMessageHistory (issue 32, item 2): after
// chat.regenerate(answerId) or chat.edit(id, text), the runnable sends the question itself; the
// history reads the conversation before it and does not append it again, so the chat holds the
// question once, the model sees it once, and the new answer is a sibling of the old one.
// @langchain/core's own RunnableWithMessageHistory, prompt templates and FakeListChatModel.
import { HumanMessage } from "@langchain/core/messages";
import type { ChatPromptValueInterface } from "@langchain/core/prompt_values";
import { ChatPromptTemplate, MessagesPlaceholder } from "@langchain/core/prompts";
import { RunnableLambda, RunnableWithMessageHistory } from "@langchain/core/runnables";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { expect, it } from "vitest";
import { Loom, type UserChats } from "../../src/index.js";
import { CtxloomChatMessageHistory } from "../../src/langchain.js";
import { forEachEngine } from "../helpers.js";

/** A chain with history (the prompt it sent each run kept in `sent`); without a history key, the model alone. */
function chainFor(chats: UserChats, responses: string[], withKey = true) {
  const sent: string[][] = [];
  const record = RunnableLambda.from((value: ChatPromptValueInterface | HumanMessage[]) => {
    const messages = Array.isArray(value) ? value : value.toChatMessages();
    sent.push(messages.map((m) => `${m.type}: ${m.text}`));
    return value;
  });
  const model = new FakeListChatModel({ responses });
  const prompt = ChatPromptTemplate.fromMessages([new MessagesPlaceholder("history"), ["human", "{question}"]]);
  const getMessageHistory = async (sessionId: string) => new CtxloomChatMessageHistory(await chats.open(sessionId));
  const chain = withKey
    ? new RunnableWithMessageHistory({
        runnable: prompt.pipe(record).pipe(model),
        getMessageHistory,
        inputMessagesKey: "question",
        historyMessagesKey: "history",
      })
    : new RunnableWithMessageHistory({ runnable: record.pipe(model), getMessageHistory });
  return { chain, sent };
}

const rows = (chat: { path(): { role: string; content: string }[] }) =>
  chat.path().map((m) => `${m.role}: ${m.content}`);

forEachEngine((engine) => {
  it("a regenerate, then the same question through the runnable: asked once, the new answer beside the old one", async () => {
    const loom = await Loom.open({ engine });
    const chats = loom.user("alice");
    const chat = await chats.create({ model: "gpt-4o", system: "Be brief." });
    const { chain, sent } = chainFor(chats, ["Hello Alice.", "Paris.", "Paris, France."]);
    const session = { configurable: { sessionId: chat.id } };
    await chain.invoke({ question: "I am Alice." }, session);
    await chain.invoke({ question: "Capital of France?" }, session);
    const old = chat.path()[3]!;
    await chat.regenerate(old.id);
    await chain.invoke({ question: "Capital of France?" }, session);
    expect(sent[2]).toEqual([
      "system: Be brief.",
      "human: I am Alice.",
      "ai: Hello Alice.",
      "human: Capital of France?",
    ]);
    expect(rows(chat)).toEqual([
      "user: I am Alice.",
      "assistant: Hello Alice.",
      "user: Capital of France?",
      "assistant: Paris, France.",
    ]);
    expect(chat.siblings(chat.head!)).toEqual([old.id]);
    expect(chat.messageCount).toBe(5);
    await loom.close();
  });

  it("an edit, then the new text through the runnable (with the model alone as the runnable too)", async () => {
    for (const withKey of [true, false]) {
      const loom = await Loom.open({ engine });
      const chats = loom.user("alice");
      const chat = await chats.create({ model: "gpt-4o" });
      const { chain, sent } = chainFor(chats, ["Paris.", "Rome."], withKey);
      const session = { configurable: { sessionId: chat.id } };
      await chain.invoke(
        withKey ? { question: "Capital of France?" } : [new HumanMessage("Capital of France?")],
        session,
      );
      const asked = chat.path()[0]!;
      await chat.edit(asked.id, "Capital of Italy?");
      await chain.invoke(
        withKey ? { question: "Capital of Italy?" } : [new HumanMessage("Capital of Italy?")],
        session,
      );
      expect(sent[1]).toEqual(["human: Capital of Italy?"]);
      expect(rows(chat)).toEqual(["user: Capital of Italy?", "assistant: Rome."]);
      expect(chat.roots()).toEqual([asked.id, chat.path()[0]!.id]);
      expect(chat.messageCount).toBe(4);
      await loom.close();
    }
  });

  it("another question than the one at the head goes beside it (what the model saw); an answer added by hand goes under it", async () => {
    const loom = await Loom.open({ engine });
    const chats = loom.user("alice");
    const chat = await chats.create({ model: "gpt-4o" });
    const { chain, sent } = chainFor(chats, ["Rome."]);
    const history = new CtxloomChatMessageHistory(chat);
    await history.addUserMessage("Capital of France?");
    expect(await history.getMessages()).toEqual([]); // the question is the next run's input
    await chain.invoke({ question: "Capital of Italy?" }, { configurable: { sessionId: chat.id } });
    expect(sent[0]).toEqual(["human: Capital of Italy?"]);
    expect(rows(chat)).toEqual(["user: Capital of Italy?", "assistant: Rome."]);
    expect(chat.roots()).toHaveLength(2);
    await chat.checkout(chat.roots()[0]!);
    await history.addAIMessage("Paris.");
    expect(rows(chat)).toEqual(["user: Capital of France?", "assistant: Paris."]);
    await loom.close();
  });
});
