// A summarizer and an embedder from an OpenAI client in one call (issue 24, item 4): the real
// `openai` client talks to a local server on 127.0.0.1 that answers like the API (embeddings in
// base64, as the client asks by default). A request past the time limit is aborted (the server
// sees its connection close) and the library's fallbacks apply: the extractive summary, or
// EMBEDDER_FAILED with the texts left queued.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Loom, hashingEmbedder } from "../../src/index.js";
import { openAIEmbedder, openAISummarizer } from "../../src/openai.js";
import { expectRejectCode, expectThrowCode, forEachEngine } from "../helpers.js";
import { expectBoatRecalled, expectQueuedAfterTimeout, summarizedBuild } from "./hooks-helpers.js";

const NOTES = "Notes: the user asked about topics 0 onwards; each was settled.";
const hashing = hashingEmbedder();

interface Received {
  path: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
  /** Resolves once the connection is closed: true when the client went away before an answer. */
  closed: Promise<boolean>;
}

/** What the server does with the next requests. */
const mode = { hold: false, reply: { content: NOTES as string | null, refusal: null as string | null } };
const received: Received[] = [];
let server: Server;
let client: OpenAI;

/** Float32 vectors as the API's base64 (little-endian bytes). */
const base64Of = (v: Float32Array | number[]): string => {
  const f = Float32Array.from(v);
  return Buffer.from(f.buffer, f.byteOffset, f.byteLength).toString("base64");
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let data = "";
    req.on("data", (chunk: Buffer) => (data += chunk.toString()));
    req.on("end", () => {
      const closed = new Promise<boolean>((resolve) => res.on("close", () => resolve(!res.writableEnded)));
      const body = JSON.parse(data) as Record<string, unknown>;
      received.push({ path: req.url!, body, authorization: req.headers.authorization, closed });
      if (mode.hold) return; // never answered: the client gives up
      void (async () => {
        let answer: unknown;
        if (req.url === "/v1/chat/completions") {
          answer = {
            id: "c",
            object: "chat.completion",
            created: 0,
            model: body.model,
            choices: [
              { index: 0, finish_reason: "stop", logprobs: null, message: { role: "assistant", ...mode.reply } },
            ],
          };
        } else {
          const input = body.input as string[];
          const vectors = await hashing.embed(input);
          const embedding = (v: Float32Array | number[]) =>
            body.encoding_format === "base64" ? base64Of(v) : Array.from(v);
          answer = {
            object: "list",
            model: body.model,
            usage: { prompt_tokens: 1, total_tokens: 1 },
            data: vectors.map((v, index) => ({ object: "embedding", index, embedding: embedding(v) })).reverse(),
          };
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  client = new OpenAI({
    apiKey: "sk-test",
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    maxRetries: 0,
  });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const reset = () => {
  received.length = 0;
  mode.hold = false;
  mode.reply = { content: NOTES, refusal: null };
};

forEachEngine((engine) => {
  describe("openAISummarizer", () => {
    it("writes the summary with one Chat Completions request: the prompt as the system message, the transcript as the user's", async () => {
      reset();
      const { loom, ctx, fallbacks } = await summarizedBuild({
        engine,
        summaries: { summarizer: openAISummarizer(client, { model: "gpt-4o-mini", temperature: 0 }) },
      });
      expect([ctx.summary, fallbacks]).toEqual([NOTES, 0]);
      expect(received).toHaveLength(1);
      const { path, body, authorization } = received[0]!;
      expect([path, authorization, body.model, body.temperature]).toEqual([
        "/v1/chat/completions",
        "Bearer sk-test",
        "gpt-4o-mini",
        0,
      ]);
      const messages = body.messages as { role: string; content: string }[];
      expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
      expect(messages[0]!.content).toMatch(/^You are a context extraction assistant\./);
      expect(messages[1]!.content).toMatch(/^Messages to summarize:\n\nUser: Question 0 asks about topic 0\./);
      await loom.close();
    });

    it("a request past the policy's timeoutMs is aborted (the server sees it go) and the extractive summary stands in", async () => {
      reset();
      mode.hold = true;
      const { loom, ctx, fallbacks } = await summarizedBuild({
        engine,
        summaries: { timeoutMs: 400, summarizer: openAISummarizer(client, { model: "gpt-4o-mini" }) },
      });
      expect(ctx.summary).toContain("Question 0 asks about topic 0.");
      expect(fallbacks).toBe(1);
      expect(received).toHaveLength(1);
      expect(await received[0]!.closed).toBe(true);
      await loom.close();
    });

    it("a refusal (content null) falls back to the extractive summary", async () => {
      reset();
      mode.reply = { content: null, refusal: "I can't help with that." };
      const { loom, fallbacks } = await summarizedBuild({
        engine,
        summaries: { summarizer: openAISummarizer(client, { model: "gpt-4o-mini" }) },
      });
      expect(fallbacks).toBe(1);
      await loom.close();
    });
  });

  describe("openAIEmbedder", () => {
    it("embeds with embeddings.create (base64 decoded by the client, answers put back in order) for recall", async () => {
      reset();
      const loom = await Loom.open({
        engine,
        recall: {
          embedder: openAIEmbedder(client, { model: "text-embedding-3-small", dimensions: hashing.dimension }),
        },
      });
      await expectBoatRecalled(loom);
      expect(
        received.every(
          (r) => r.path === "/v1/embeddings" && r.body.model === "text-embedding-3-small" && !("dimensions" in r.body),
        ),
      ).toBe(true);
      expect(received[0]!.body.encoding_format).toBe("base64");
      await loom.close();
    });

    it("a request past its timeoutMs is aborted and fails with EMBEDDER_FAILED; the text stays queued", async () => {
      reset();
      mode.hold = true;
      const loom = await Loom.open({
        engine,
        recall: {
          embedder: openAIEmbedder(client, {
            model: "text-embedding-3-small",
            dimensions: hashing.dimension,
            timeoutMs: 400,
          }),
        },
      });
      await expectQueuedAfterTimeout(loom, 400, () => (mode.hold = false));
      expect(await received[0]!.closed).toBe(true);
      await loom.close();
    });
  });
});

describe("options and bad input", () => {
  it("requestDimensions sends dimensions; vectors of another length fail the call", async () => {
    reset();
    const loom = await Loom.open({
      recall: {
        embedder: openAIEmbedder(client, { model: "text-embedding-3-large", dimensions: 8, requestDimensions: true }),
      },
    });
    const chat = await loom.user("u").create();
    await chat.append({ role: "user", content: "hello" });
    await expectRejectCode(() => chat.recall("hello"), "EMBEDDER_FAILED"); // this server answers 256 numbers whatever is asked
    expect(received[0]!.body.dimensions).toBe(8);
    await loom.close();
  });

  it("refuses what is no client, unknown options and bad values with a code", () => {
    for (const bad of [42, null, {}, { chat: {} }])
      expectThrowCode(() => openAISummarizer(bad as never, { model: "gpt-4o-mini" }), "INVALID_ARGUMENT");
    expectThrowCode(() => openAISummarizer(client, undefined as never), "INVALID_ARGUMENT");
    expectThrowCode(() => openAISummarizer(client, { model: "" }), "INVALID_ARGUMENT");
    expectThrowCode(
      () => openAISummarizer(client, { model: "gpt-4o-mini", maxTokens: 100 } as never),
      "INVALID_ARGUMENT",
    );
    expectThrowCode(() => openAISummarizer(client, { model: "gpt-4o-mini", temperature: -1 }), "INVALID_ARGUMENT");
    expectThrowCode(
      () => openAISummarizer(client, { model: "gpt-4o-mini", maxCompletionTokens: 0 }),
      "INVALID_ARGUMENT",
    );
    expectThrowCode(
      () => openAISummarizer(client, { model: "gpt-4o-mini", reasoningEffort: "max" as never }),
      "INVALID_ARGUMENT",
    );
    for (const bad of [42, null, {}, { embeddings: {} }])
      expectThrowCode(() => openAIEmbedder(bad as never, { model: "m", dimensions: 4 }), "INVALID_ARGUMENT");
    expectThrowCode(() => openAIEmbedder(client, { model: "m" } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => openAIEmbedder(client, { dimensions: 4 } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => openAIEmbedder(client, { model: "m", dimensions: 1.5 }), "INVALID_ARGUMENT");
    expectThrowCode(
      () => openAIEmbedder(client, { model: "m", dimensions: 4, dimension: 4 } as never),
      "INVALID_ARGUMENT",
    );
    expectThrowCode(() => openAIEmbedder(client, { model: "m", dimensions: 4, timeoutMs: -5 }), "INVALID_ARGUMENT");
    expectThrowCode(
      () => openAIEmbedder(client, { model: "m", dimensions: 4, requestDimensions: 1 as never }),
      "INVALID_ARGUMENT",
    );
  });
});
