// A LangChain chat message history backed by a chat (issue 24, item 5), run with
// @langchain/core's own RunnableWithMessageHistory and FakeListChatModel: each run reads the
// chat's context and appends the question and the answer; a checkout or a regenerate on the
// chat moves the head, and the history follows it, branches kept.
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatPromptValueInterface } from "@langchain/core/prompt_values";
import { ChatPromptTemplate, MessagesPlaceholder } from "@langchain/core/prompts";
import { RunnableLambda, RunnableWithMessageHistory } from "@langchain/core/runnables";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { Loom, type UserChats } from "../../src/index.js";
import { CtxloomChatMessageHistory } from "../../src/langchain.js";
import { expectRejectCode, expectThrowCode, forEachEngine, snapshot } from "../helpers.js";
import { SMALL, talk } from "../chat/summaries-helpers.js";

/** A chain with history: the prompt it sent each run is kept in `sent`, as [type, text] pairs. */
function chainFor(chats: UserChats, responses: string[]) {
  const sent: [string, string][][] = [];
  const prompt = ChatPromptTemplate.fromMessages([new MessagesPlaceholder("history"), ["human", "{question}"]]);
  const record = RunnableLambda.from((value: ChatPromptValueInterface) => {
    sent.push(value.toChatMessages().map((m) => [m.type, m.text]));
    return value;
  });
  const chain = new RunnableWithMessageHistory({
    runnable: prompt.pipe(record).pipe(new FakeListChatModel({ responses })),
    getMessageHistory: async (sessionId: string) => new CtxloomChatMessageHistory(await chats.open(sessionId)),
    inputMessagesKey: "question",
    historyMessagesKey: "history",
  });
  return { chain, sent };
}

const contents = (messages: { role: string; content: unknown }[]) => messages.map((m) => [m.role, m.content]);

forEachEngine((engine) => {
  it("RunnableWithMessageHistory reads the chat's context and appends each question and answer", async () => {
    const loom = await Loom.open({ engine });
    const chats = loom.user("alice");
    const chat = await chats.create({ model: "gpt-4o", system: "Be brief." });
    const { chain, sent } = chainFor(chats, ["Hello Alice.", "You are Alice."]);
    const config = { configurable: { sessionId: chat.id } };
    expect((await chain.invoke({ question: "I am Alice." }, config)).content).toBe("Hello Alice.");
    expect((await chain.invoke({ question: "Who am I?" }, config)).content).toBe("You are Alice.");
    expect(contents(chat.path())).toEqual([
      ["user", "I am Alice."],
      ["assistant", "Hello Alice."],
      ["user", "Who am I?"],
      ["assistant", "You are Alice."],
    ]);
    expect(sent).toEqual([
      [
        ["system", "Be brief."],
        ["human", "I am Alice."],
      ],
      [
        ["system", "Be brief."],
        ["human", "I am Alice."],
        ["ai", "Hello Alice."],
        ["human", "Who am I?"],
      ],
    ]);
    await loom.close();
  });

  it("a checkout on the chat: the next run reads the branch up to the head and appends a sibling branch", async () => {
    const loom = await Loom.open({ engine });
    const chats = loom.user("alice");
    const chat = await chats.create({ model: "gpt-4o" });
    const { chain, sent } = chainFor(chats, ["Hello Alice.", "You are Alice.", "Hello Bob."]);
    const config = { configurable: { sessionId: chat.id } };
    await chain.invoke({ question: "I am Alice." }, config);
    await chain.invoke({ question: "Who am I?" }, config);
    const [, hello, whoAmI] = chat.path();
    await chat.checkout(hello!.id);
    await chain.invoke({ question: "Call me Bob." }, config);
    expect(sent[2]).toEqual([
      ["human", "I am Alice."],
      ["ai", "Hello Alice."],
      ["human", "Call me Bob."],
    ]);
    expect(contents(chat.path())).toEqual([
      ["user", "I am Alice."],
      ["assistant", "Hello Alice."],
      ["user", "Call me Bob."],
      ["assistant", "Hello Bob."],
    ]);
    expect(chat.children(hello!.id)).toEqual([whoAmI!.id, chat.path()[2]!.id]); // both branches kept
    await loom.close();
  });

  it("a regenerate on the chat: the history reads up to before the question (the caller sends it) and the new answer becomes a sibling", async () => {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("alice").create({ model: "gpt-4o" });
    const history = new CtxloomChatMessageHistory(chat);
    const model = new FakeListChatModel({ responses: ["Paris.", "Paris, France."] });
    const question = new HumanMessage("Capital of France?");
    await history.addUserMessage("Capital of France?");
    await history.addMessage(await model.invoke([...(await history.getMessages()), question]));
    const first = chat.path()[1]!;
    await chat.regenerate(first.id);
    const read = await history.getMessages();
    expect(read).toEqual([]); // the question at the head is the next call's input
    await history.addMessages([question, await model.invoke([...read, question])]);
    expect(contents(chat.path())).toEqual([
      ["user", "Capital of France?"],
      ["assistant", "Paris, France."],
    ]);
    expect(chat.siblings(chat.head!)).toEqual([first.id]);
    expect(chat.messageCount).toBe(3);
    await loom.close();
  });

  it("with the model as the runnable (no history key): the input appended once, whatever the context holds", async () => {
    const loom = await Loom.open({ engine });
    const chats = loom.user("alice");
    const chat = await chats.create({ model: "gpt-4o", system: "Be brief." });
    const chain = new RunnableWithMessageHistory({
      runnable: new FakeListChatModel({ responses: ["Hi.", "Fine."] }),
      getMessageHistory: async (sessionId: string) => new CtxloomChatMessageHistory(await chats.open(sessionId)),
    });
    const config = { configurable: { sessionId: chat.id } };
    await chain.invoke("Hello.", config);
    await chain.invoke([new HumanMessage("How are you?")], config);
    expect(contents(chat.path())).toEqual([
      ["user", "Hello."],
      ["assistant", "Hi."],
      ["user", "How are you?"],
      ["assistant", "Fine."],
    ]);
    await loom.close();
  });

  it("a summary attached during a run changes nothing of what the run appends: the history reads the same while the head stays", async () => {
    let release!: (text: string) => void;
    let called!: () => void;
    const inFlight = new Promise<void>((resolve) => (called = resolve));
    const answer = new Promise<string>((resolve) => (release = resolve));
    const loom = await Loom.open({ engine, summaries: { summarizer: () => (called(), answer) } });
    const chats = loom.user("alice");
    const chat = await chats.create({ model: SMALL });
    await talk(chat, 60);
    const building = chat.buildContext(); // its summary is in flight
    await inFlight;
    const model = new FakeListChatModel({ responses: ["Fine."] });
    const chain = new RunnableWithMessageHistory({
      // The run's model call: meanwhile the summary lands, and the context the chat builds is shorter.
      runnable: RunnableLambda.from(async (messages: BaseMessage[]) => {
        release("Notes: topics 0 onwards were settled.");
        expect((await building).compressed).toBe(true);
        return model.invoke(messages);
      }),
      getMessageHistory: async (sessionId: string) => new CtxloomChatMessageHistory(await chats.open(sessionId)),
    });
    await chain.invoke([new HumanMessage("How are you?")], { configurable: { sessionId: chat.id } });
    const path = chat.path();
    expect(path).toHaveLength(122);
    expect(contents(path.slice(-3))).toEqual([
      ["assistant", "Answer 59 settles topic 59. Then it explains a little."],
      ["user", "How are you?"],
      ["assistant", "Fine."],
    ]);
    await loom.close();
  });

  it("getMessages is the context within the model's budget (or, with context: false, the whole branch)", async () => {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("alice").create({
      model: { name: "lc-tiny", contextWindow: 600, sizeClass: "tiny", tokensPerChar: 0.25 },
      system: "Be brief.",
    });
    for (let i = 0; i < 30; i++) {
      await chat.append({ role: "user", content: `question ${i} ${"words ".repeat(8)}` });
      await chat.append({ role: "assistant", content: `answer ${i} ${"words ".repeat(8)}` });
    }
    const context = await new CtxloomChatMessageHistory(chat).getMessages();
    expect(context[0]).toBeInstanceOf(SystemMessage);
    expect(context.length).toBeLessThan(30);
    expect(context.at(-1)!.text).toBe(`answer 29 ${"words ".repeat(8)}`);
    const smaller = await new CtxloomChatMessageHistory(chat, { context: { maxMessages: 4 } }).getMessages();
    expect(smaller.map((m) => m.type)).toEqual(["system", "human", "ai", "human", "ai"]);
    const branch = await new CtxloomChatMessageHistory(chat, { context: false }).getMessages();
    expect(branch).toHaveLength(60);
    expect(branch[0]).toBeInstanceOf(HumanMessage);
    await loom.close();
  });
});

describe("bad input", () => {
  it("refuses what is no chat and unknown or bad options with a code", async () => {
    const chat = await (await Loom.open()).user("u").create();
    for (const bad of [null, 42, {}, { append: () => 0 }])
      expectThrowCode(() => new CtxloomChatMessageHistory(bad as never), "INVALID_ARGUMENT");
    expectThrowCode(() => new CtxloomChatMessageHistory(chat, { contexts: false } as never), "INVALID_ARGUMENT");
    expectThrowCode(
      () => new CtxloomChatMessageHistory(chat, { context: { format: "anthropic" } } as never),
      "INVALID_ARGUMENT",
    );
    expectThrowCode(() => new CtxloomChatMessageHistory(chat, { context: "all" } as never), "INVALID_ARGUMENT");
    await expectRejectCode(
      () => new CtxloomChatMessageHistory(chat, { context: { toolResults: { clear: "yes" } } } as never).getMessages(),
      "INVALID_ARGUMENT",
    );
    expectThrowCode(() => new CtxloomChatMessageHistory(chat, { reasoning: "hide" } as never), "INVALID_ARGUMENT");
    await expectRejectCode(
      () => new CtxloomChatMessageHistory(chat, { context: { maxMessages: 0 } }).getMessages(),
      "INVALID_ARGUMENT",
    );
  });

  it("refuses clear(), and messages it cannot convert, changing nothing (none of a batch is appended)", async () => {
    const chat = await (await Loom.open()).user("u").create();
    await chat.append({ role: "user", content: "hi" });
    const history = new CtxloomChatMessageHistory(chat);
    const before = await snapshot(chat);
    await expectRejectCode(() => history.clear(), "INVALID_ARGUMENT");
    const audio = new HumanMessage({ content: [{ type: "audio", mimeType: "audio/wav", data: "aGk=" }] });
    await expectRejectCode(() => history.addMessages([new AIMessage("fine"), audio]), "UNSUPPORTED_CONTENT");
    await expectRejectCode(() => history.addMessages([new AIMessage("")]), "INVALID_CONTENT");
    expect(await snapshot(chat)).toEqual(before);
  });
});
