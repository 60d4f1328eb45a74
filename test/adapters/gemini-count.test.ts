// geminiCounter (issue 37, item 2): Gemini's models.countTokens over a fake fetch. The request
// is the REST API's (URL, key header, a generateContentRequest with the system instruction, the
// contents and the function declarations); near the limit the count is used and a request over
// it built again; an error answer leaves the calibrated estimate; bad options are refused.
import { expect, it } from "vitest";
import { Loom, budgetFor, geminiCounter, registerModel, type GeminiFetchLike } from "../../src/index.js";
import { openAILoop } from "../../src/openai.js";
import { expectRejectCode, expectThrowCode, forEachEngine, snapshot } from "../helpers.js";

const MODEL = "gemini-count-stand-in";
registerModel({ name: MODEL, contextWindow: 6_000, tokensPerChar: 0.25 });
const LIMIT = budgetFor(MODEL).effective - budgetFor(MODEL).reserve;

type Request = {
  generateContentRequest: {
    model: string;
    contents: { role: string; parts: unknown[] }[];
    systemInstruction?: { parts: unknown[] };
    tools?: unknown[];
  };
};
/** The stand-in's count: a token per 3 characters of the request's JSON. */
const trueCount = (r: Request) => Math.ceil(JSON.stringify(r.generateContentRequest).length / 3);

function fakeFetch(status = 200) {
  const calls: { url: string; headers: Record<string, string>; body: Request }[] = [];
  const fetch: GeminiFetchLike = async (url, init) => {
    const body = JSON.parse(init.body) as Request;
    calls.push({ url, headers: init.headers, body });
    if (status !== 200)
      return Response.json(
        { error: { code: status, message: "Request contains an invalid argument.", status: "INVALID_ARGUMENT" } },
        { status },
      );
    return Response.json({ totalTokens: trueCount(body), promptTokensDetails: [] });
  };
  return { fetch, calls };
}

const line = (i: number) =>
  `Message ${i}: ` + "the quick brown fox jumps over the lazy dog and runs far away ".repeat(6);

forEachEngine((engine) => {
  it("sends the REST API's request: system instruction, contents with calls and results, function declarations", async () => {
    const { fetch, calls } = fakeFetch();
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ model: "gemini-2.5-flash", system: "You run a shop." });
    await chat.append({
      role: "user",
      content: [
        { type: "text", text: "Is this in stock?" },
        { type: "image", image: "data:image/png;base64,iVBORw0KGgo=" },
      ],
    });
    await chat.append({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", type: "function", function: { name: "stock", arguments: '{"sku":"A7"}' } }],
    });
    await chat.append({ role: "tool", toolCallId: "c1", content: "3" });
    const stock = {
      type: "function" as const,
      function: {
        name: "stock",
        description: "Units in stock",
        parameters: {
          $schema: "http://json-schema.org/draft-07/schema#",
          type: "object",
          properties: { sku: { type: "string" } },
          additionalProperties: false,
        },
      },
    };
    const ctx = await chat.buildContext({ tools: [stock], providerCounter: geminiCounter(fetch, { apiKey: "key-1" }) });
    expect(calls).toHaveLength(1); // a model nothing has calibrated: counted at once
    expect(calls[0]!.url).toBe("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens");
    expect(calls[0]!.headers).toEqual({ "content-type": "application/json", "x-goog-api-key": "key-1" });
    expect(calls[0]!.body).toEqual({
      generateContentRequest: {
        model: "models/gemini-2.5-flash",
        contents: [
          {
            role: "user",
            parts: [{ text: "Is this in stock?" }, { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }],
          },
          { role: "model", parts: [{ functionCall: { name: "stock", args: { sku: "A7" } } }] },
          { role: "user", parts: [{ functionResponse: { name: "stock", response: { content: "3" } } }] },
        ],
        systemInstruction: { parts: [{ text: "You run a shop." }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: "stock",
                description: "Units in stock",
                parameters: { type: "object", properties: { sku: { type: "string" } } },
              },
            ],
          },
        ],
      },
    });
    expect(ctx.providerCount).toEqual({
      asked: true,
      tokens: trueCount(calls[0]!.body),
      limit: ctx.budget.effective - ctx.budget.reserve,
      rebuilds: 0,
      fallback: null,
    });
    expect(loom.exportCalibration().entries).toMatchObject([{ model: "gemini-2.5-flash", reports: 1 }]);
    await loom.close();
  });

  it("with openAILoop near the limit: a request counted over it is built again, and the one sent is the one counted", async () => {
    const { fetch, calls } = fakeFetch();
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ model: MODEL, system: "You answer briefly." });
    for (let i = 0; i < 61; i++) await chat.append({ role: i % 2 === 0 ? "user" : "assistant", content: line(i) });
    const loop = openAILoop(chat, {
      readTool: false,
      stablePrefix: false,
      providerCounter: geminiCounter(fetch, {
        baseURL: "https://proxy.example/v1beta/",
        model: "models/gemini-2.5-pro",
      }),
    });
    const { messages } = await loop.context();
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.map((c) => c.url)).toEqual(
      calls.map(() => "https://proxy.example/v1beta/models/gemini-2.5-pro:countTokens"),
    );
    expect(trueCount(calls[0]!.body)).toBeGreaterThan(LIMIT);
    const last = calls.at(-1)!.body.generateContentRequest;
    expect(trueCount(calls.at(-1)!.body)).toBeLessThanOrEqual(LIMIT);
    expect(last.contents).toHaveLength(messages.length - 1); // the system message is the system instruction
    expect(chat.stats().providerCount).toMatchObject({ asked: true, rebuilds: calls.length - 1, fallback: null });
    await loom.close();
  });

  it("an error answer leaves the calibrated estimate and says so", async () => {
    const { fetch, calls } = fakeFetch(400);
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ model: MODEL });
    await chat.append({ role: "user", content: "hello" });
    const ctx = await chat.buildContext({ providerCounter: geminiCounter(fetch) });
    expect(calls).toHaveLength(1);
    expect(ctx.providerCount).toMatchObject({
      asked: true,
      tokens: null,
      fallback: {
        reason: "failed",
        message: "Gemini's countTokens answered 400: Request contains an invalid argument.",
      },
    });
    expect(ctx.messages).toEqual([{ role: "user", content: "hello" }]);
    await loom.close();
  });

  it("refuses a fetch that is no function, bad options, and an Anthropic-format build (INVALID_ARGUMENT), changing nothing", async () => {
    const { fetch, calls } = fakeFetch();
    for (const bad of [null, "https://generativelanguage.googleapis.com", {}])
      expectThrowCode(() => geminiCounter(bad as never), "INVALID_ARGUMENT");
    for (const bad of [
      { apiKey: 3 },
      { apiKey: "" },
      { baseURL: "ftp://x" },
      { apikey: "k" },
      { margin: 1 },
      { timeoutMs: -5 },
    ]) {
      expectThrowCode(() => geminiCounter(fetch, bad as never), "INVALID_ARGUMENT");
    }
    const loom = await Loom.open({ engine });
    const chats = loom.user("u");
    const chat = await chats.create({ model: MODEL });
    await chat.append({ role: "user", content: "hello" });
    const before = await snapshot(chat, chats);
    await expectRejectCode(
      () => chat.buildContext({ format: "anthropic", providerCounter: geminiCounter(fetch) }),
      "INVALID_ARGUMENT",
    );
    await expectRejectCode(
      () => chat.buildContext({ format: "responses", providerCounter: geminiCounter(fetch) }),
      "INVALID_ARGUMENT",
    );
    expect(calls).toEqual([]);
    expect(await snapshot(chat, chats)).toEqual(before);
    await loom.close();
  });
});
