// Content parts (images, files, reasoning) in each API's shape. What an API has no place for
// is left out, as documented on each function: reasoning goes only where it is sent back
// (Anthropic, the Responses API, the AI SDK), files in assistant messages only to the AI
// SDK, a provider's compaction only to that provider.
import { partsText, withText, type ContentPart, type FilePart, type ImagePart } from "../parts.js";

/** A message or an input: its content as text (with `parts` when rich) or as a list of parts. */
export interface WithContent {
  content: string | readonly ContentPart[];
  parts?: readonly ContentPart[];
}

/** The text of a message or input: a list's text parts joined with "\n". */
export function textOf(m: WithContent): string {
  return typeof m.content === "string" ? m.content : partsText(m.content);
}

/**
 * The parts to send for `m`, or undefined when it is text only. When the text was cut (history
 * limits shorten `content`), the cut text stands in place of the text parts.
 */
export function partsToSend(m: WithContent): readonly ContentPart[] | undefined {
  const parts = typeof m.content === "string" ? m.parts : m.content;
  if (!parts?.some((p) => p.type !== "text")) return undefined;
  if (typeof m.content !== "string" || partsText(parts) === m.content) return parts;
  return withText(parts, m.content);
}

/** The media type of an image or file part (an image's may come from its data: URL). */
export function mediaTypeOf(p: ImagePart | FilePart): string {
  if (p.type === "file") return p.mediaType;
  if (p.mediaType) return p.mediaType;
  const m = /^data:([^;,]+)/.exec(p.image);
  return m ? m[1]!.toLowerCase() : "image/png";
}

const sourceOf = (p: ImagePart | FilePart): string => (p.type === "image" ? p.image : p.data);

/** True when the part's bytes are behind an http(s) URL. */
export const isUrl = (p: ImagePart | FilePart): boolean => /^https?:/i.test(sourceOf(p));

/** The part as a URL: its http(s) URL or data: URL as given, base64 bytes as a data: URL. */
export function urlOf(p: ImagePart | FilePart): string {
  const s = sourceOf(p);
  return /^(https?|data):/i.test(s) ? s : `data:${mediaTypeOf(p)};base64,${s}`;
}

/** The part's base64 bytes (a data: URL's payload); undefined for an http(s) URL. */
export function base64Of(p: ImagePart | FilePart): string | undefined {
  const s = sourceOf(p);
  if (/^https?:/i.test(s)) return undefined;
  return s.startsWith("data:") ? s.slice(s.indexOf(",") + 1) : s;
}

/** A file part's name to send: its own, else "file-<i>" with the media type's subtype as extension. */
export function filenameOf(p: FilePart, i: number): string {
  return p.filename ?? `file-${i}.${p.mediaType.split("/")[1]!.replace(/[^a-z0-9]+/gi, "")}`;
}

/**
 * The line a file stands as where an API cannot take it (a file by URL in Chat Completions, a file type Anthropic does
 * not read).
 */
export function fileNote(p: FilePart, why: string): string {
  return `[file${p.filename ? ` ${p.filename}` : ""} (${p.mediaType})${isUrl(p) ? ` at ${p.data}` : ""}: ${why}]`;
}

// ------------------------------------------------------------------ OpenAI Chat Completions

/** A content part of an OpenAI Chat Completions user message. */
export type OpenAIContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: "low" | "high" | "auto" } }
  | { type: "file"; file: { file_data: string; filename: string } };

/**
 * A user message's parts for Chat Completions: text parts, images as `image_url` (URL or
 * data: URL, with their detail), inline files as `file` with their bytes as a data: URL.
 * A file by URL becomes a text line naming it (Chat Completions takes file bytes or ids only).
 */
export function openAIParts(parts: readonly ContentPart[]): OpenAIContentPart[] {
  const out: OpenAIContentPart[] = [];
  parts.forEach((p, i) => {
    if (p.type === "text") out.push({ type: "text", text: p.text });
    else if (p.type === "image")
      out.push({ type: "image_url", image_url: p.detail ? { url: urlOf(p), detail: p.detail } : { url: urlOf(p) } });
    else if (p.type === "file") {
      if (isUrl(p))
        out.push({ type: "text", text: fileNote(p, "given by URL, which Chat Completions does not fetch") });
      else out.push({ type: "file", file: { file_data: urlOf(p), filename: filenameOf(p, i) } });
    }
  });
  return out;
}

/**
 * A tool result with images as Chat Completions takes it (text only): its text, then a line
 * per image saying it was not sent (with its URL when it has one), so the model knows the
 * tool returned one. Send the image yourself in a user message if the model must see it.
 */
export function openAIToolText(m: WithContent): string {
  const lines: string[] = [];
  for (const p of partsToSend(m) ?? []) {
    if (p.type === "text") lines.push(p.text);
    else if (p.type === "image")
      lines.push(
        `[image ${isUrl(p) ? `at ${p.image}` : `(${mediaTypeOf(p)})`}: not sent, a Chat Completions tool result ` +
          `carries text only]`,
      );
  }
  return lines.length > 0 ? lines.join("\n") : textOf(m);
}

// ------------------------------------------------------------------ OpenAI Responses

/** A content part of a Responses API input message. */
export type ResponsesContentPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "low" | "high" | "auto" }
  | { type: "input_file"; file_data: string; filename: string }
  | { type: "input_file"; file_url: string; filename?: string };

/**
 * A user message's parts for the Responses API: input_text, input_image (detail "auto" unless given), input_file (bytes
 * or URL).
 */
export function responsesParts(parts: readonly ContentPart[]): ResponsesContentPart[] {
  const out: ResponsesContentPart[] = [];
  parts.forEach((p, i) => {
    if (p.type === "text") out.push({ type: "input_text", text: p.text });
    else if (p.type === "image") out.push({ type: "input_image", image_url: urlOf(p), detail: p.detail ?? "auto" });
    else if (p.type === "file") {
      if (isUrl(p))
        out.push(
          p.filename
            ? { type: "input_file", file_url: p.data, filename: p.filename }
            : { type: "input_file", file_url: p.data },
        );
      else out.push({ type: "input_file", file_data: urlOf(p), filename: filenameOf(p, i) });
    }
  });
  return out;
}

// ------------------------------------------------------------------ Anthropic

/** The image types Anthropic's Messages API takes in a base64 image block. */
export type AnthropicImageType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";
const ANTHROPIC_IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/** The blocks parts become in Anthropic's Messages API (cache_control is added by markCacheBreakpoint). */
export type AnthropicPartBlock =
  | { type: "text"; text: string }
  | {
      type: "image";
      source: { type: "base64"; media_type: AnthropicImageType; data: string } | { type: "url"; url: string };
    }
  | {
      type: "document";
      source:
        | { type: "base64"; media_type: "application/pdf"; data: string }
        | { type: "text"; media_type: "text/plain"; data: string }
        | { type: "url"; url: string };
      title?: string;
    }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string };

/**
 * Parts as Anthropic blocks, in order: text; images (base64 or URL; JPEG, PNG, GIF, WebP);
 * PDFs as `document` (base64 or URL), text files as plain-text documents; reasoning with a
 * signature as `thinking`, redacted reasoning as `redacted_thinking` (kept in the assistant
 * message before its tool_use blocks, as Anthropic requires with tool use); an Anthropic
 * compaction as the block it came as (a beta block, `BetaCompactionBlockParam`: its type is
 * not among AnthropicPartBlock's, which are the GA API's). Reasoning without a signature
 * (another provider's) and OpenAI's compactions are left out: Anthropic verifies what it gets
 * back. Files in an assistant message are left out; a file or image of a type Anthropic does
 * not read becomes a text line naming it.
 */
export function anthropicParts(parts: readonly ContentPart[], role: "user" | "assistant"): AnthropicPartBlock[] {
  const out: AnthropicPartBlock[] = [];
  for (const p of parts) {
    switch (p.type) {
      case "text":
        out.push({ type: "text", text: p.text });
        break;
      case "reasoning":
        if (p.signature !== undefined) out.push({ type: "thinking", thinking: p.text, signature: p.signature });
        break;
      case "compaction":
        // As it came, byte for byte: a beta block, which the GA types do not name.
        if (p.provider === "anthropic") out.push(JSON.parse(p.data) as AnthropicPartBlock);
        break;
      case "redacted-reasoning":
        out.push({ type: "redacted_thinking", data: p.data });
        break;
      case "image": {
        const mt = mediaTypeOf(p);
        const data = base64Of(p);
        if (data === undefined) out.push({ type: "image", source: { type: "url", url: p.image } });
        else if (ANTHROPIC_IMAGE_TYPES.includes(mt))
          out.push({ type: "image", source: { type: "base64", media_type: mt as AnthropicImageType, data } });
        else out.push({ type: "text", text: `[image (${mt}): Anthropic reads JPEG, PNG, GIF and WebP only]` });
        break;
      }
      case "file":
        if (role === "assistant") break;
        out.push(anthropicFile(p));
        break;
    }
  }
  return out;
}

function anthropicFile(p: FilePart): AnthropicPartBlock {
  const title = p.filename === undefined ? {} : { title: p.filename };
  const data = base64Of(p);
  if (p.mediaType === "application/pdf") {
    return data === undefined
      ? { type: "document", source: { type: "url", url: p.data }, ...title }
      : { type: "document", source: { type: "base64", media_type: "application/pdf", data }, ...title };
  }
  if (p.mediaType.startsWith("text/") && data !== undefined) {
    const text = decodeBase64Text(data);
    if (text !== undefined)
      return { type: "document", source: { type: "text", media_type: "text/plain", data: text }, ...title };
  }
  if (ANTHROPIC_IMAGE_TYPES.includes(p.mediaType)) {
    return data === undefined
      ? { type: "image", source: { type: "url", url: p.data } }
      : { type: "image", source: { type: "base64", media_type: p.mediaType as AnthropicImageType, data } };
  }
  return { type: "text", text: fileNote(p, "Anthropic reads PDFs, text files and images only") };
}

/** UTF-8 text of base64 bytes, or undefined when they are not valid UTF-8. */
function decodeBase64Text(data: string): string | undefined {
  try {
    const binary = atob(data);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A short line per part that is not text, for transcripts (summaries, recall): "[image]", "[file report.pdf]". */
export function partNotes(parts: readonly ContentPart[] | undefined): string[] {
  if (!parts) return [];
  const out: string[] = [];
  for (const p of parts) {
    if (p.type === "image") out.push("[image]");
    else if (p.type === "file") out.push(`[file${p.filename ? ` ${p.filename}` : ""} (${p.mediaType})]`);
  }
  return out;
}
