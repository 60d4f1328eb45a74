// Token estimates of the parts of a message that are not text: images by each provider's
// published rule, files by their size. These are estimates: a provider's own count may differ.
import type { ContentPart } from "../parts.js";

/**
 * Whose published rule counts an image: "openai" (the 512-px tile rule) or "anthropic"
 * (width x height / 750). A chat takes the rule of its model (imageRuleFor).
 */
export type ImageRule = "openai" | "anthropic";

/** A regular expression literal makes a new RegExp each time it runs: this one is made once (every append asks). */
const CLAUDE = /claude/i;

/** The rule for a model: Anthropic's for Claude models (any provider prefix), OpenAI's for every other model. */
export function imageRuleFor(modelName: string): ImageRule {
  return CLAUDE.test(modelName) ? "anthropic" : "openai";
}

/** OpenAI: a low-detail image, whatever its size. */
export const OPENAI_LOW_DETAIL = 85;
/** OpenAI: each 512-px tile of a high-detail image, and the base every image adds. */
export const OPENAI_TILE = 170;
export const OPENAI_BASE = 85;
/** OpenAI, size unknown: the most a high-detail image can cost (2048 x 768 after scaling: 8 tiles). */
export const OPENAI_UNKNOWN_IMAGE = 8 * OPENAI_TILE + OPENAI_BASE;
/**
 * Anthropic: the longest side it keeps (larger images are scaled down), and the most an image costs (about 1.2
 * megapixels).
 */
export const ANTHROPIC_MAX_SIDE = 1568;
export const ANTHROPIC_MAX_IMAGE = 1600;
/** A file given by URL: its size is unknown here, so it counts one document page at the providers' upper figure. */
export const FILE_URL_TOKENS = 3000;

/**
 * OpenAI's rule (GPT-4o, GPT-4.1, o-series; platform.openai.com "Calculating costs" for
 * images): detail "low" costs 85; "high" and "auto" (counted as high) scale the image to fit
 * 2048 x 2048, then its shortest side down to 768, and cost 170 per 512-px tile plus 85.
 * Size unknown: 1445, the most a high-detail image costs.
 */
export function openAIImageTokens(
  width: number | undefined,
  height: number | undefined,
  detail: "low" | "high" | "auto" = "auto",
): number {
  if (detail === "low") return OPENAI_LOW_DETAIL;
  if (width === undefined || height === undefined) return OPENAI_UNKNOWN_IMAGE;
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shortest = Math.min(w, h);
  if (shortest > 768) {
    w *= 768 / shortest;
    h *= 768 / shortest;
  }
  return OPENAI_TILE * Math.ceil(Math.floor(w) / 512) * Math.ceil(Math.floor(h) / 512) + OPENAI_BASE;
}

/**
 * Anthropic's rule (docs.anthropic.com "Vision", image costs): the image is scaled so its
 * longest side is at most 1568 px, and costs width x height / 750, at most about 1,600
 * (larger images are scaled to about 1.2 megapixels). Size unknown: 1,600, the most.
 */
export function anthropicImageTokens(width: number | undefined, height: number | undefined): number {
  if (width === undefined || height === undefined) return ANTHROPIC_MAX_IMAGE;
  const scale = Math.min(1, ANTHROPIC_MAX_SIDE / Math.max(width, height));
  const w = Math.floor(width * scale);
  const h = Math.floor(height * scale);
  return Math.min(ANTHROPIC_MAX_IMAGE, Math.max(1, Math.ceil((w * h) / 750)));
}

/** Bytes of base64 text (or of a data: URL's payload). */
export function base64Bytes(text: string): number {
  const comma = text.startsWith("data:") ? text.indexOf(",") + 1 : 0;
  const n = text.length - comma;
  let pad = 0;
  if (n > 0 && text.charCodeAt(text.length - 1) === 61) pad++;
  if (n > 1 && text.charCodeAt(text.length - 2) === 61) pad++;
  return Math.floor((n * 3) / 4) - pad;
}

/**
 * Estimated tokens of a part that is not text (text parts are counted as the message's
 * content): an image by `rule`; a file inline, one token per 4 bytes (what text costs; a PDF
 * page, sent as text and image, costs 1,500-4,500 and weighs usually more); a file by URL,
 * FILE_URL_TOKENS; reasoning by `countText` of its text, or of OpenAI's item when it has one
 * (what the Responses format sends back), redacted reasoning of its data; a provider's
 * compaction of its item or block as JSON text (what is sent back to that provider).
 */
export function partTokens(part: ContentPart, rule: ImageRule, countText: (text: string) => number): number {
  switch (part.type) {
    case "text":
      return 0;
    case "image":
      return rule === "anthropic"
        ? anthropicImageTokens(part.width, part.height)
        : openAIImageTokens(part.width, part.height, part.detail);
    case "file":
      return /^https?:/i.test(part.data) ? FILE_URL_TOKENS : Math.ceil(base64Bytes(part.data) / 4);
    case "reasoning":
      return countText(part.item ?? part.text);
    case "redacted-reasoning":
    case "compaction":
      return countText(part.data);
  }
}
