// The converters take the SDKs' own objects without a cast (checked by the root tsc): a
// response's message or a request's message list, for each SDK. Type imports only.
import { expectTypeOf, it } from "vitest";
import type { ChatCompletion, ChatCompletionMessage, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem, ResponseOutputItem } from "openai/resources/responses/responses";
import type { Message as AnthropicResponse, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { MessageInput } from "../../src/index.js";
import { fromOpenAI, fromResponses } from "../../src/openai.js";
import { fromAnthropic } from "../../src/anthropic.js";

/** Never called: what tsc checks is the types of these calls. */
function typeChecks(
  completion: ChatCompletion, reply: ChatCompletionMessage, history: ChatCompletionMessageParam[],
  output: ResponseOutputItem[], input: ResponseInputItem[], message: AnthropicResponse, params: MessageParam[],
): void {
  expectTypeOf(fromOpenAI(reply)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromOpenAI(completion)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromOpenAI(history)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromResponses(output)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromResponses(input)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromAnthropic(message)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromAnthropic(params)).toEqualTypeOf<MessageInput[]>();
  // @ts-expect-error a number is no message
  fromOpenAI(42);
  // @ts-expect-error a string is no message
  fromAnthropic("hi");
}
void typeChecks;

it("is checked by tsc", () => {});
