// docs/sdks.md has a runnable example (a ```ts block followed by the ```text it prints) of each
// agent loop and of LangChain's chat message history; test/docs/examples.test.ts type-checks and
// runs every one of them, and fails when one does not print what the page shows.
import { expect, test } from "vitest";
import { blocksOf } from "../docs/blocks.js";

const examples = blocksOf("docs/sdks.md").filter((b) => b.output !== undefined);

test("the page has an example of each agent loop, and of LangChain's history", () => {
  const calls = ["chatLoop(", "openAILoop(", "anthropicLoop(", "ctxloomMiddleware(", "new CtxloomChatMessageHistory("];
  // openAILoop twice: Chat Completions and the Responses API.
  expect(calls.map((call) => examples.filter((e) => e.code.includes(call)).length)).toEqual([1, 2, 1, 1, 1]);
});
