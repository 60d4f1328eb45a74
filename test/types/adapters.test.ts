// The converters take the SDKs' own objects without a cast (checked by the root tsc): a
// response's message or a request's message list, for each SDK. Type imports only.
import { expectTypeOf, it } from "vitest";
import type {
  ChatCompletion,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { ResponseInputItem, ResponseOutputItem } from "openai/resources/responses/responses";
import type { Message as AnthropicResponse, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { MessageInput } from "../../src/index.js";
import { fromOpenAIMessages, fromResponseItems } from "../../src/openai.js";
import { fromAnthropicMessages } from "../../src/anthropic.js";

/** Never called: what tsc checks is the types of these calls. */
function typeChecks(
  completion: ChatCompletion,
  reply: ChatCompletionMessage,
  history: ChatCompletionMessageParam[],
  output: ResponseOutputItem[],
  input: ResponseInputItem[],
  message: AnthropicResponse,
  params: MessageParam[],
): void {
  expectTypeOf(fromOpenAIMessages(reply)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromOpenAIMessages(completion)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromOpenAIMessages(history)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromResponseItems(output)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromResponseItems(input)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromAnthropicMessages(message)).toEqualTypeOf<MessageInput[]>();
  expectTypeOf(fromAnthropicMessages(params)).toEqualTypeOf<MessageInput[]>();
  // @ts-expect-error a number is no message
  fromOpenAIMessages(42);
  // @ts-expect-error a string is no message
  fromAnthropicMessages("hi");
}
void typeChecks;

it("is checked by tsc", () => {});
