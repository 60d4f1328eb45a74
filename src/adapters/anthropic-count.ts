// anthropicCounter: Anthropic's own count of a request (POST /v1/messages/count_tokens, the
// SDK's `client.messages.countTokens`), for `buildContext({ providerCounter })` and
// `anthropicLoop`. Nothing of `@anthropic-ai/sdk` is imported: the client is taken by its shape.
import { counterOptions, type ProviderCounterOptions } from "../context/provider-counter.js";
import type { AnthropicMessage } from "../context/format.js";
import type { ProviderCounter } from "../context/types.js";
import { CtxloomError, describe } from "../errors.js";
import { checkTools, type ToolsInput } from "../tokens/tools.js";

/** A tool as Anthropic's count endpoint takes it. */
export interface AnthropicCountTool {
  /** The tool's name. */
  name: string;
  /** What the tool does, for the model. */
  description?: string;
  /** The JSON schema of the tool's input. */
  input_schema: { type: "object"; [key: string]: unknown };
}

/** What `anthropicCounter` uses of the client: `messages.countTokens` (`new Anthropic()` of `@anthropic-ai/sdk`). */
export interface AnthropicCountClientLike {
  /** The client's Messages API, of which `countTokens` is called. */
  messages: {
    countTokens(
      body: { model: string; messages: AnthropicMessage[]; system?: string; tools?: AnthropicCountTool[] },
      options?: { signal?: AbortSignal | null; maxRetries?: number },
    ): PromiseLike<{ input_tokens: number }>;
  };
}

/**
 * A counter (`buildContext({ providerCounter })`, `anthropicLoop(chat, { providerCounter })`) that
 * asks Anthropic for the count of a request in the Anthropic format: `messages.countTokens` with
 * the request's model (`options.model`, else the model the context was built for), `system`,
 * `messages` and `tools` (the build's, Anthropic tools as given; others as
 * `{ name, description, input_schema }`), aborted through its signal after `timeoutMs`, with no
 * retry (a retry's backoff would outlast the wait). The count is free, and rate limited apart
 * from messages; a count refused or slow leaves the build on its calibrated estimate.
 * @throws INVALID_ARGUMENT (not a client; bad or unknown options)
 */
export function anthropicCounter(client: AnthropicCountClientLike, options?: ProviderCounterOptions): ProviderCounter {
  const what = "anthropicCounter(client, options)";
  const given = client as { messages?: { countTokens?: unknown } | null } | null;
  const messages = given !== null && typeof given === "object" ? given.messages : undefined;
  if (messages === null || typeof messages !== "object" || typeof messages.countTokens !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} takes an Anthropic client (new Anthropic() of @anthropic-ai/sdk, whose messages.countTokens it ` +
        `calls); got ${describe(client)}.`,
    );
  }
  const { margin, timeoutMs, model } = counterOptions(options, what);
  return {
    name: "anthropic",
    format: "anthropic",
    margin,
    timeoutMs,
    count: async ({ model: built, context, tools, signal }) => {
      const body = {
        model: model ?? built,
        messages: context.messages as AnthropicMessage[],
        ...(context.system.length > 0 ? { system: context.system } : {}),
        ...(tools === undefined ? {} : { tools: countTools(tools) }),
      };
      const counted = await client.messages.countTokens(body, { signal, maxRetries: 0 });
      return counted.input_tokens;
    },
  };
}

/** The build's tools as Anthropic takes them: Anthropic's as given, any other shape by name, description and schema. */
function countTools(tools: ToolsInput): AnthropicCountTool[] {
  const checked = checkTools(tools);
  if (checked.rule === "anthropic") return [...(tools as readonly AnthropicCountTool[])];
  return checked.tools.map((t) => ({
    name: t.name,
    ...(t.description.length > 0 ? { description: t.description } : {}),
    input_schema: (t.parameters ?? { type: "object" }) as AnthropicCountTool["input_schema"],
  }));
}
