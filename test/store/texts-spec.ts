// A chat holding one text in every field that holds text, for the round-trip tests of every
// store (test/store/texts-roundtrip.test.ts, and the Durable Object's worker, which builds it
// from the same spec inside workerd: no Node or fast-check import here).
import type { Chat, ContentPart, UserChats } from "../../src/index.js";

/** One text per field: the chat's title and system prompt, and every text field of its messages. */
export interface TextsSpec {
  title: string;
  system: string;
  user: string;
  name: string;
  filename: string;
  callId: string;
  args: string;
  reasoning: string;
  signature: string;
  result: string;
  answer: string;
}

/**
 * A user turn (a name; a text and a file part with a filename), an answer with reasoning that
 * calls a tool, the tool's result, and a plain answer: every text of `spec` lands in a field.
 */
export async function buildTextsChat(chats: UserChats, s: TextsSpec): Promise<Chat> {
  const chat = await chats.create({ title: s.title, system: s.system });
  const e = expectedTexts(s);
  await chat.append({ role: "user", name: s.name, content: e.user });
  await chat.append({ role: "assistant", content: e.assistant, toolCalls: e.toolCalls });
  await chat.append({ role: "tool", toolCallId: s.callId, content: s.result });
  await chat.append({ role: "assistant", content: s.answer });
  return chat;
}

/** The texts a chat built from `s` holds, field by field: what `textsOf` must read. */
export function expectedTexts(s: TextsSpec) {
  const user: ContentPart[] = [
    { type: "text", text: s.user },
    { type: "file", data: "JVBERi0xLjQK", mediaType: "application/pdf", filename: s.filename },
  ];
  const assistant: ContentPart[] = [
    { type: "reasoning", text: s.reasoning, signature: s.signature },
    { type: "text", text: s.answer },
  ];
  // A tool's name is ^[a-zA-Z0-9_-]{1,64}$ and its arguments JSON text (as providers take them): the text rides in a JSON string.
  const toolCalls = [
    {
      id: s.callId,
      type: "function" as const,
      function: { name: "look_up", arguments: JSON.stringify({ text: s.args }) },
    },
  ];
  return {
    title: s.title,
    system: s.system,
    name: s.name,
    user,
    assistant,
    toolCalls,
    toolCallId: s.callId,
    result: s.result,
    answer: s.answer,
  };
}

/** The texts of a chat built by buildTextsChat, field by field. */
export function textsOf(chat: Chat): ReturnType<typeof expectedTexts> {
  const [u, a, t, last] = [0, 1, 2, 3].map((id) => chat.get(id));
  return {
    title: chat.title,
    system: chat.system!,
    name: u!.name!,
    user: u!.parts!,
    assistant: a!.parts!,
    toolCalls: a!.toolCalls!,
    toolCallId: t!.toolCallId!,
    result: t!.content,
    answer: last!.content,
  };
}
