// A useChat route as the README writes it (chatTurn + streamText + toUIMessageStreamResponse),
// answering the AI SDK's own chat client (AbstractChat, what useChat wraps) through
// DefaultChatTransport, in this process; a model that records the prompt of each call.
import {
  DefaultChatTransport,
  simulateReadableStream,
  stepCountIs,
  streamText,
  type ModelMessage,
  type ToolSet,
  type HttpChatTransportInitOptions,
} from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { VanillaChat } from "../../examples/chat-app/client/chat.js";
import { Loom, type Chat } from "../../src/index.js";
import { chatTurn, resumeTurn, type ChatTurn, type ChatTurnOptions, type ChatUIMessage } from "../../src/ai-sdk.js";

export const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model step: the chunks of one doStream call. */
export const step = (chunks: unknown[]) => ({
  stream: simulateReadableStream({ chunks: [{ type: "stream-start", warnings: [] }, ...chunks] as never[] }),
});
/** A step that says `text` and stops. */
export const says = (text: string) =>
  step([
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: text },
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
  ]);
/** A step that calls tool `name` with `input` and stops on the call. */
export const calls = (id: string, name: string, input: unknown) =>
  step([
    { type: "tool-call", toolCallId: id, toolName: name, input: JSON.stringify(input) },
    { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage },
  ]);

/** The text of a prompt's messages, role by role, as the model saw them (an empty system message left out). */
export const seen = (prompt: readonly ModelMessage[]): string[] =>
  prompt
    .filter((m) => !(m.role === "system" && m.content === ""))
    .map(
      (m) =>
        `${m.role}: ${typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : p.type)).join(" ")}`,
    );

/**
 * A model answering from `script` (then "Answer <n> to <the last user words>"), each prompt kept
 * in `prompts`.
 */
export function recordingModel(script: ReturnType<typeof step>[] = []) {
  const prompts: string[][] = [];
  let n = 0;
  const model = new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      prompts.push(seen(prompt as ModelMessage[]));
      n++;
      const next = script.shift();
      if (next) return next;
      const last = [...prompt].reverse().find((m) => m.role === "user");
      const said =
        last && Array.isArray(last.content) ? last.content.map((p) => (p.type === "text" ? p.text : "")).join(" ") : "";
      return says(`Answer ${n} to ${said}`);
    },
  });
  return { model, prompts };
}

/** The route (POST: chatTurn; GET <api>/<id>/stream: resumeTurn), its turns, a client factory (transport options per client) and the stored chat. */
export function turnApp(
  model: MockLanguageModelV4,
  options: ChatTurnOptions = { create: { model: "gpt-4o" } },
  tools?: ToolSet,
) {
  const loom = Loom.open();
  const turns: ChatTurn[] = [];
  const route = async (request: Request): Promise<Response> => {
    const resume = /\/api\/chat\/([^/]+)\/stream$/.exec(new URL(request.url).pathname);
    if (request.method === "GET" && resume)
      return resumeTurn((await loom).user("alice"), decodeURIComponent(resume[1]!));
    const turn = await chatTurn((await loom).user("alice"), await request.json(), options);
    turns.push(turn);
    return streamText({
      model,
      ...turn.context,
      ...(tools ? { tools, stopWhen: stepCountIs(5) } : {}),
    }).toUIMessageStreamResponse(turn.stream);
  };
  const post = (body: unknown) =>
    route(new Request("http://app/api/chat", { method: "POST", body: JSON.stringify(body) }));
  const client = (
    id: string,
    messages: ChatUIMessage[] = [],
    transport: Partial<HttpChatTransportInitOptions<ChatUIMessage>> = {},
    init = {},
  ) =>
    new VanillaChat<ChatUIMessage>({
      id,
      messages,
      ...init,
      transport: new DefaultChatTransport({
        api: "http://app/api/chat",
        fetch: (url, i) => route(new Request(url, i)),
        ...transport,
      }),
    });
  const stored = async (id: string): Promise<Chat> => (await loom).user("alice").open(id);
  return { loom, turns, route, post, client, stored };
}

/** The text of a UIMessage. */
export const textOf = (m: ChatUIMessage) => m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
