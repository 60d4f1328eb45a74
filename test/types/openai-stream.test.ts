// openAIStream takes what the `openai` SDK streams, openai 7 and openai 6 (installed as
// openai-v6), without a cast (checked by the root tsc): `stream: true` chunks,
// `chat.completions.stream()`, Responses events and `responses.stream()`.
import { it } from "vitest";
import type OpenAI from "openai";
import type OpenAI6 from "openai-v6";
import type { Chat } from "../../src/index.js";
import { fromChatCompletionChunks, fromResponseStreamEvents, openAIStream } from "../../src/openai.js";

/** Never called: what tsc checks is the types of these calls. */
async function typeChecks(chat: Chat, client: OpenAI, client6: OpenAI6): Promise<void> {
  const answer = openAIStream(chat, { persist: true });
  for await (const chunk of await client.chat.completions.create({ model: "gpt-4o", messages: [], stream: true }))
    await answer.push(chunk);
  for await (const chunk of client.chat.completions.stream({ model: "gpt-4o", messages: [] })) await answer.push(chunk);
  for await (const event of await client.responses.create({ model: "gpt-4o", input: "hi", stream: true }))
    await answer.push(event);
  for await (const event of client.responses.stream({ model: "gpt-4o", input: "hi" })) await answer.push(event);
  for await (const chunk of await client6.chat.completions.create({ model: "gpt-4o", messages: [], stream: true }))
    await answer.push(chunk);
  for await (const chunk of client6.chat.completions.stream({ model: "gpt-4o", messages: [] }))
    await answer.push(chunk);
  for await (const event of await client6.responses.create({ model: "gpt-4o", input: "hi", stream: true }))
    await answer.push(event);
  for await (const event of client6.responses.stream({ model: "gpt-4o", input: "hi" })) await answer.push(event);
  const chunks = [];
  for await (const chunk of await client6.chat.completions.create({ model: "gpt-4o", messages: [], stream: true }))
    chunks.push(chunk);
  fromChatCompletionChunks(chunks);
  const events = [];
  for await (const event of await client.responses.create({ model: "gpt-4o", input: "hi", stream: true }))
    events.push(event);
  fromResponseStreamEvents(events);
  // @ts-expect-error a string is no chunk
  await answer.push("data: {}");
  await answer.done();
}
void typeChecks;

it("is checked by tsc", () => {});
