// The image estimates against the providers' published examples (OpenAI's "Calculating costs"
// table, Anthropic's vision page), and the file estimate's size rule.
import { describe, expect, it } from "vitest";
import { anthropicImageTokens, imageRuleFor, openAIImageTokens } from "../../src/tokens-entry.js";
import { base64Bytes, partTokens } from "../../src/tokens/parts.js";

describe("image token estimates", () => {
  it("OpenAI's tile rule: low 85; high scales to 2048, then the short side to 768; 170 a tile plus 85", () => {
    expect(openAIImageTokens(4096, 8192, "low")).toBe(85);
    expect(openAIImageTokens(1024, 1024, "high")).toBe(765); // 768 x 768: 4 tiles
    expect(openAIImageTokens(2048, 4096, "high")).toBe(1105); // 1024 x 2048, then 768 x 1536: 6 tiles
    expect(openAIImageTokens(512, 512)).toBe(255); // "auto" counts as high; small images are not scaled up
    expect(openAIImageTokens(100, 100)).toBe(255);
    expect(openAIImageTokens(undefined, undefined)).toBe(1445); // unknown: the most a high-detail image costs
  });

  it("Anthropic's rule: width x height / 750 after the long side is cut to 1568, at most 1,600", () => {
    expect(anthropicImageTokens(1000, 1000)).toBe(1334);
    expect(anthropicImageTokens(200, 200)).toBe(54);
    expect(anthropicImageTokens(1092, 1092)).toBe(1590);
    expect(anthropicImageTokens(3136, 1568)).toBe(1600); // 1568 x 784 would be 1,640: capped
    expect(anthropicImageTokens(undefined, undefined)).toBe(1600);
    expect(anthropicImageTokens(1, 1)).toBe(1);
  });

  it("the rule follows the model: Claude models (any prefix) by Anthropic's, others by OpenAI's", () => {
    expect(imageRuleFor("claude-sonnet-4-5")).toBe("anthropic");
    expect(imageRuleFor("anthropic.claude-3-haiku-20240307-v1:0")).toBe("anthropic");
    expect(imageRuleFor("gpt-4o")).toBe("openai");
    expect(imageRuleFor("gemini-2.5-pro")).toBe("openai");
  });

  it("files: a token per 4 bytes inline, a fixed 3,000 by URL; reasoning counts as text, OpenAI's items as theirs", () => {
    const count = (t: string) => t.length;
    expect(base64Bytes("aGVsbG8=")).toBe(5);
    expect(base64Bytes("data:text/plain;base64,aGVsbG8sIHdvcmxk")).toBe(12);
    expect(partTokens({ type: "file", data: "aGVsbG8sIHdvcmxk", mediaType: "text/plain" }, "openai", count)).toBe(3);
    expect(
      partTokens({ type: "file", data: "https://x.org/a.pdf", mediaType: "application/pdf" }, "anthropic", count),
    ).toBe(3000);
    expect(partTokens({ type: "reasoning", text: "abcd", signature: "s" }, "anthropic", count)).toBe(4);
    // OpenAI's reasoning item and a provider's compaction count as what is sent back: their JSON text.
    const item = JSON.stringify({
      type: "reasoning",
      id: "rs_1",
      summary: [{ type: "summary_text", text: "abcd" }],
      encrypted_content: "gAAAA",
    });
    expect(partTokens({ type: "reasoning", text: "abcd", item }, "openai", count)).toBe(item.length);
    const data = JSON.stringify({ type: "compaction", encrypted_content: "gAAAA-state" });
    expect(partTokens({ type: "compaction", provider: "openai", data }, "openai", count)).toBe(data.length);
    expect(partTokens({ type: "text", text: "counted as content" }, "openai", count)).toBe(0);
  });
});
