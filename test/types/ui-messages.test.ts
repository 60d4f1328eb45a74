// toUIMessages / fromUIMessages against the `ai` package's own UIMessage types, checked by the
// root tsc: a chat's UIMessages are UIMessage[] (useChat's initial messages, validateUIMessages'
// input) without a cast, their file and reasoning parts the SDK's FileUIPart and ReasoningUIPart,
// and fromUIMessages takes what useChat or validateUIMessages gives. Type imports only.
import { expectTypeOf, it } from "vitest";
import type { FileUIPart, ReasoningUIPart, UIMessage, UIMessagePart, UIDataTypes, UITools } from "ai";
import type { Chat, MessageInput } from "../../src/index.js";
import { fromUIMessages, toUIMessages, type ChatUIMessage, type ChatUIMetadata } from "../../src/ai-sdk.js";

/** Never called: what tsc checks is the types of these calls. */
function typeChecks(chat: Chat, stored: UIMessage[], typed: UIMessage<{ at: number }, { weather: { city: string } }>[]): void {
  const ui: UIMessage<ChatUIMetadata>[] = toUIMessages(chat);
  const plain: UIMessage[] = toUIMessages(chat);
  expectTypeOf(toUIMessages(chat, { leaf: 3 })).toEqualTypeOf<ChatUIMessage[]>();
  const part = ui[0]!.parts[0]!;
  expectTypeOf(part).toEqualTypeOf<UIMessagePart<UIDataTypes, UITools>>();
  if (part.type === "file") {
    const f: FileUIPart = part;
    const url: string = f.url;
    void url;
  } else if (part.type === "reasoning") {
    const r: ReasoningUIPart = part;
    void r.providerMetadata?.anthropic?.signature;
  }
  expectTypeOf(fromUIMessages(stored)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromUIMessages(typed, { reasoning: "drop" })).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromUIMessages(ui)).toEqualTypeOf<MessageInput[]>();
  // @ts-expect-error an unknown reasoning policy
  fromUIMessages(stored, { reasoning: "skip" });
  // @ts-expect-error ModelMessages are not UIMessages
  fromUIMessages([{ role: "user", content: "hi" }]);
  void plain;
}
void typeChecks;

it("is checked by tsc", () => {});
