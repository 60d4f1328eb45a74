// Provider items as the SDKs type them (issue 31, items 3 and 6), checked by the root tsc (this
// file is in its include): a Responses `output` with reasoning and compaction items, and an
// Anthropic beta Message with a compaction block, go into the from* converters without a cast;
// the Responses context is the SDK's ResponseInputItem[], the Anthropic one also the beta
// client's BetaMessageParam[] (a compaction block is a beta block: the GA MessageParam has none).
import { describe, expect, expectTypeOf, it } from "vitest";
import type { BetaMessage, BetaMessageParam } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { Response, ResponseInputItem } from "openai/resources/responses/responses";
import type { AnthropicMessage, ContextWindow, ResponsesItem } from "../../src/index.js";
import { fromAnthropicMessages } from "../../src/anthropic.js";
import { fromResponseItems } from "../../src/openai.js";

/** Never called: what tsc checks is the types of these calls. */
function typeChecks(response: Response, message: BetaMessage, anthropic: ContextWindow<AnthropicMessage>): void {
  fromResponseItems(response.output);
  fromAnthropicMessages(message);
  fromAnthropicMessages([message, { role: "user", content: "Go on." } satisfies BetaMessageParam]);
  expectTypeOf<ResponsesItem[]>().toExtend<ResponseInputItem[]>();
  expectTypeOf(anthropic.messages).toExtend<MessageParam[]>();
  expectTypeOf(anthropic.messages).toExtend<BetaMessageParam[]>();
}
void typeChecks;

describe("provider items' types", () => {
  it("are checked by tsc (this file compiles)", () => {
    expect(typeof typeChecks).toBe("function");
  });
});
