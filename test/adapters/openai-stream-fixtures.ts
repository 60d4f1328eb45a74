// Streams as OpenAI's API sends them (server-sent events), for the `openai` SDK's own client to
// read through a fetch that answers like the API: Chat Completions chunks, Responses events.
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";

const chunk = (
  delta: ChatCompletionChunk.Choice.Delta,
  finish: ChatCompletionChunk.Choice["finish_reason"] = null,
): ChatCompletionChunk => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 0,
  model: "gpt-4o",
  choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
});

export const completionChunks = {
  text: [
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "Sunny " }),
    chunk({ content: "in " }),
    chunk({ content: "Lisbon." }),
    chunk({}, "stop"),
  ],
  calls: [
    chunk({ role: "assistant", content: null }),
    chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "weather", arguments: "" } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"Lisbon"}' } }] }),
    chunk({
      tool_calls: [
        { index: 1, id: "call_2", type: "function", function: { name: "weather", arguments: '{"city":"Porto"}' } },
      ],
    }),
    chunk({}, "tool_calls"),
  ],
};

const response = (status: "in_progress" | "completed", output: unknown[]) => ({
  id: "resp_1",
  object: "response",
  created_at: 0,
  model: "gpt-4o",
  status,
  output,
  output_text: "",
  error: null,
  incomplete_details: null,
  instructions: null,
  metadata: {},
  parallel_tool_calls: true,
  temperature: 1,
  tool_choice: "auto",
  tools: [],
  top_p: 1,
});
const text = (t: string) => ({ type: "output_text", text: t, annotations: [] });
const message = (status: string, content: unknown[]) => ({
  type: "message",
  id: "msg_1",
  role: "assistant",
  status,
  content,
});
const call = (status: string, args: string) => ({
  type: "function_call",
  id: "fc_1",
  call_id: "call_1",
  name: "weather",
  arguments: args,
  status,
});

let n = 0;
const ev = (e: Record<string, unknown>): ResponseStreamEvent =>
  ({ ...e, sequence_number: n++ }) as unknown as ResponseStreamEvent;

const messageEvents = (words: string[], done: boolean, at = 0) => [
  ev({ type: "response.output_item.added", output_index: at, item: message("in_progress", []) }),
  ev({ type: "response.content_part.added", output_index: at, content_index: 0, item_id: "msg_1", part: text("") }),
  ...words.map((delta) =>
    ev({
      type: "response.output_text.delta",
      output_index: at,
      content_index: 0,
      item_id: "msg_1",
      delta,
      logprobs: [],
    }),
  ),
  ...(done
    ? [
        ev({
          type: "response.output_text.done",
          output_index: at,
          content_index: 0,
          item_id: "msg_1",
          text: words.join(""),
          logprobs: [],
        }),
        ev({
          type: "response.content_part.done",
          output_index: at,
          content_index: 0,
          item_id: "msg_1",
          part: text(words.join("")),
        }),
        ev({ type: "response.output_item.done", output_index: at, item: message("completed", [text(words.join(""))]) }),
      ]
    : []),
];
const callEvents = (at: number) => [
  ev({ type: "response.output_item.added", output_index: at, item: call("in_progress", "") }),
  ev({ type: "response.function_call_arguments.delta", output_index: at, item_id: "fc_1", delta: '{"city":' }),
  ev({ type: "response.function_call_arguments.delta", output_index: at, item_id: "fc_1", delta: '"Lisbon"}' }),
  ev({
    type: "response.function_call_arguments.done",
    output_index: at,
    item_id: "fc_1",
    name: "weather",
    arguments: '{"city":"Lisbon"}',
  }),
  ev({ type: "response.output_item.done", output_index: at, item: call("completed", '{"city":"Lisbon"}') }),
];

export const responseEvents = {
  whole: [
    ev({ type: "response.created", response: response("in_progress", []) }),
    ...messageEvents(["Let ", "me ", "look."], true),
    ...callEvents(1),
    ev({
      type: "response.completed",
      response: response("completed", [
        message("completed", [text("Let me look.")]),
        call("completed", '{"city":"Lisbon"}'),
      ]),
    }),
  ],
  /** A call done, then a message cut while it streams. */
  cut: [
    ev({ type: "response.created", response: response("in_progress", []) }),
    ...callEvents(0),
    ...messageEvents(["Lisbon ", "is ", "sun"], false, 1),
  ],
};

/**
 * An OpenAI client whose fetch answers each request with the next list of events as
 * server-sent events; `cutAfter`: the connection drops after that many.
 */
export function sseClient(bodies: unknown[][], options: { cutAfter?: number } = {}): OpenAI {
  const fetch = async (): Promise<Response> => {
    const events = bodies.shift() ?? [];
    const encoder = new TextEncoder();
    const chat = (events[0] as { object?: string } | undefined)?.object === "chat.completion.chunk";
    const wire = events.map((e) =>
      encoder.encode(`${chat ? "" : `event: ${(e as { type: string }).type}\n`}data: ${JSON.stringify(e)}\n\n`),
    );
    if (chat) wire.push(encoder.encode("data: [DONE]\n\n"));
    let i = 0;
    // One event a read, so that a reader gets those sent before the connection drops.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (options.cutAfter !== undefined && i >= options.cutAfter)
          controller.error(new TypeError("terminated: the connection was reset"));
        else if (i < wire.length) controller.enqueue(wire[i++]!);
        else controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
  return new OpenAI({ apiKey: "sk-test", fetch, maxRetries: 0 });
}
