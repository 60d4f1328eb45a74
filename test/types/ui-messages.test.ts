// toUIMessages / fromUIMessages against the `ai` package's own UIMessage types, checked by the
// root tsc: a chat's UIMessages are UIMessage[] (useChat's initial messages, validateUIMessages'
// input) without a cast, their file and reasoning parts the SDK's FileUIPart and ReasoningUIPart,
// and fromUIMessages takes what useChat or validateUIMessages gives. Type imports only.
import { expectTypeOf, it } from "vitest";
import type { FileUIPart, ReasoningUIPart, UIMessage, UIMessagePart, UIDataTypes, UITools } from "ai";
import type { Chat, MessageInput } from "../../src/index.js";
import { fromUIMessages, toUIMessages, type ChatUIMessage, type ChatUIMetadata } from "../../src/ai-sdk.js";

/** Never called: what tsc checks is the types of these calls. */
function typeChecks(
  chat: Chat,
  stored: UIMessage[],
  typed: UIMessage<{ at: number }, { weather: { city: string } }>[],
): void {
  const ui = toUIMessages(chat);
  expectTypeOf(ui).toExtend<UIMessage<ChatUIMetadata>[]>();
  expectTypeOf(ui).toExtend<UIMessage[]>();
  expectTypeOf(toUIMessages(chat, { leaf: 3 })).toEqualTypeOf<ChatUIMessage[]>();
  const part = ui[0]!.parts[0]!;
  expectTypeOf(part).toEqualTypeOf<UIMessagePart<UIDataTypes, UITools>>();
  if (part.type === "file") {
    expectTypeOf(part).toExtend<FileUIPart>();
    expectTypeOf(part.url).toEqualTypeOf<string>();
  } else if (part.type === "reasoning") {
    expectTypeOf(part).toExtend<ReasoningUIPart>();
    expectTypeOf(part).toHaveProperty("providerMetadata");
  }
  expectTypeOf(fromUIMessages(stored)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromUIMessages(typed, { reasoning: "drop" })).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromUIMessages(ui)).toEqualTypeOf<MessageInput[]>();
  // @ts-expect-error an unknown reasoning policy
  fromUIMessages(stored, { reasoning: "skip" });
  // @ts-expect-error ModelMessages are not UIMessages
  fromUIMessages([{ role: "user", content: "hi" }]);
}
void typeChecks;

it("is checked by tsc", () => {});
