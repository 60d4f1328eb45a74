// The AI SDK's ModelMessages into inputs for chat.append (a generateText / streamText result's
// response.messages, or a request's messages): the other direction of ai-sdk.ts.
import type { ModelMessage } from "ai";
import { CtxloomError, describe } from "../errors.js";
import type { ContentPart, MessageInput, ToolCall } from "../message.js";
import {
  argumentsText,
  bytesToBase64,
  contentOf,
  convertEach,
  dataUrlType,
  fromOptions,
  objectAt,
  stringAt,
  textToBase64,
  unsupported,
  type FromOptions,
  type ReasoningMode,
} from "./common.js";
import { TOOL_ERROR_PREFIX } from "./anthropic.js";

/**
 * ModelMessages (one, or a list: a `generateText` / `streamText` result's
 * `responseMessages`, or a request's messages) to inputs for `chat.append`: text parts join,
 * tool-call parts become `toolCalls` (input as JSON text), each tool-result its own tool
 * message named by its tool (a json output as JSON text, an error output starting with
 * "Error: ", a denied execution as "Execution denied: <reason>", a content output its text
 * and images as parts). Image and file parts (user) and file and reasoning parts
 * (assistant) are kept as parts (reasoning with the Anthropic signature or redacted data of
 * `providerOptions.anthropic`; `options.reasoning` leaves it out or refuses it).
 * Provider-executed tools, approvals, files by provider reference and files other than
 * images in tool outputs are refused with UNSUPPORTED_CONTENT.
 * @throws INVALID_ARGUMENT, INVALID_ROLE, UNSUPPORTED_CONTENT, and append's own codes
 */
export function fromModelMessages(
  messages: ModelMessage | readonly ModelMessage[],
  options?: FromOptions,
): MessageInput[] {
  const { reasoning } = fromOptions(options, "fromModelMessages");
  return convertEach(messages, "fromModelMessages", (m, where) => convert(m, where, reasoning));
}

function convert(value: unknown, where: string, reasoning: ReasoningMode): MessageInput[] {
  const m = objectAt(value, where);
  const role = m.role;
  if (role !== "system" && role !== "user" && role !== "assistant" && role !== "tool") {
    throw new CtxloomError(
      "INVALID_ROLE",
      `${where}.role must be system, user, assistant or tool; got ${describe(role)}.`,
    );
  }
  if (typeof m.content === "string") {
    if (role === "tool")
      throw new CtxloomError("INVALID_CONTENT", `${where}: a tool message's content is a list of tool-result parts.`);
    return [{ role, content: m.content }];
  }
  if (!Array.isArray(m.content))
    throw new CtxloomError(
      "INVALID_CONTENT",
      `${where}.content must be a string or a list of parts; got ${describe(m.content)}.`,
    );
  const parts: ContentPart[] = [];
  const calls: ToolCall[] = [];
  const results: MessageInput[] = [];
  m.content.forEach((value: unknown, j) => {
    const at = `${where}.content[${j}]`;
    const p = objectAt(value, at);
    if (p.type === "text" && role !== "tool") parts.push({ type: "text", text: stringAt(p.text, `${at}.text`) });
    else if (p.type === "reasoning" && role === "assistant" && reasoning === "drop") return;
    else if (p.type === "reasoning" && role === "assistant" && reasoning === "keep") parts.push(reasoningPart(p, at));
    else if (p.type === "image" && role === "user") parts.push(imagePart(p, at));
    else if (p.type === "file" && (role === "user" || role === "assistant")) parts.push(fileInput(p, at));
    else if (p.type === "tool-call" && role === "assistant") {
      if (p.providerExecuted === true)
        unsupported(at, "a provider-executed tool call", "keep provider-executed tools out of chats kept by ctxloom.");
      const name = stringAt(p.toolName, `${at}.toolName`);
      calls.push({
        id: stringAt(p.toolCallId, `${at}.toolCallId`),
        type: "function",
        function: { name, arguments: argumentsText(p.input, `${at}.input`) },
      });
    } else if (p.type === "tool-result" && role === "tool") {
      results.push({
        role: "tool",
        toolCallId: stringAt(p.toolCallId, `${at}.toolCallId`),
        name: stringAt(p.toolName, `${at}.toolName`),
        content: outputContent(p.output, `${at}.output`),
      });
    } else {
      const todo =
        p.type === "reasoning"
          ? 'pass { reasoning: "keep" } or { reasoning: "drop" }.'
          : "send it in the request yourself, or describe it in text.";
      unsupported(at, `a part of type ${describe(p.type)} in a ${role} message`, todo);
    }
  });
  if (role === "tool") return results;
  const content = contentOf(parts, "");
  if (calls.length > 0) return [{ role, content, toolCalls: calls }];
  return [{ role, content }];
}

/** The Anthropic metadata of a part's providerOptions, or {}. */
function anthropicOptions(p: Record<string, unknown>): Record<string, unknown> {
  const o = p.providerOptions as Record<string, unknown> | undefined;
  const a = o !== null && typeof o === "object" ? o.anthropic : undefined;
  return a !== null && typeof a === "object" ? (a as Record<string, unknown>) : {};
}

function reasoningPart(p: Record<string, unknown>, at: string): ContentPart {
  const meta = anthropicOptions(p);
  if (typeof meta.redactedData === "string" && meta.redactedData.length > 0)
    return { type: "redacted-reasoning", data: meta.redactedData };
  const out: ContentPart = { type: "reasoning", text: stringAt(p.text, `${at}.text`) };
  if (typeof meta.signature === "string" && meta.signature.length > 0) out.signature = meta.signature;
  return out;
}

/** base64 of image bytes by their first bytes: PNG, JPEG, GIF, WebP. */
const IMAGE_SIGNATURES: [string, string][] = [
  ["iVBORw0KGgo", "image/png"],
  ["/9j/", "image/jpeg"],
  ["R0lGOD", "image/gif"],
  ["UklGR", "image/webp"],
];

/** Bytes, a URL object, or a string (a URL, a data: URL or base64) as ctxloom's string source. */
function sourceText(value: unknown, at: string): string {
  if (value instanceof URL) return value.href;
  if (value instanceof Uint8Array) return bytesToBase64(value);
  if (value instanceof ArrayBuffer) return bytesToBase64(new Uint8Array(value));
  if (typeof value === "string") return value;
  return unsupported(
    at,
    `a source ${describe(value)}`,
    "pass bytes, base64 or a URL (a provider reference cannot be kept).",
  );
}

function imagePart(p: Record<string, unknown>, at: string): ContentPart {
  const image = sourceText(p.image, `${at}.image`);
  const out: ContentPart = { type: "image", image };
  let mediaType = typeof p.mediaType === "string" && p.mediaType.includes("/") ? p.mediaType : undefined;
  if (mediaType === undefined && !/^(https?|data):/i.test(image))
    mediaType = IMAGE_SIGNATURES.find(([s]) => image.startsWith(s))?.[1];
  if (mediaType !== undefined && !(image.startsWith("data:") && dataUrlType(image) !== mediaType))
    out.mediaType = mediaType;
  const openai = (p.providerOptions as { openai?: { imageDetail?: unknown } } | undefined)?.openai;
  const detail = openai?.imageDetail;
  if (detail === "low" || detail === "high" || detail === "auto") out.detail = detail;
  const size = (p.providerOptions as { ctxloom?: { width?: unknown; height?: unknown } } | undefined)?.ctxloom;
  if (size?.width !== undefined) Object.assign(out, { width: size.width, height: size.height }); // checked by append
  return out;
}

function fileInput(p: Record<string, unknown>, at: string): ContentPart {
  let data: string;
  const d = p.data as Record<string, unknown> | undefined;
  if (
    d !== null &&
    typeof d === "object" &&
    !(d instanceof URL) &&
    !(d instanceof Uint8Array) &&
    !(d instanceof ArrayBuffer) &&
    typeof d.type === "string"
  ) {
    if (d.type === "data") data = sourceText(d.data, `${at}.data.data`);
    else if (d.type === "url") data = sourceText(d.url, `${at}.data.url`);
    else if (d.type === "text") data = textToBase64(stringAt(d.text, `${at}.data.text`));
    else
      return unsupported(
        `${at}.data`,
        `a file by ${describe(d.type)}`,
        "pass the file's bytes or URL to keep it in the chat.",
      );
  } else {
    data = sourceText(p.data, `${at}.data`);
  }
  const mediaType = stringAt(p.mediaType, `${at}.mediaType`);
  if (!mediaType.includes("/"))
    unsupported(
      `${at}.mediaType`,
      `a media type without a subtype (${describe(mediaType)})`,
      'give the full type, e.g. "application/pdf".',
    );
  const out: ContentPart = { type: "file", data, mediaType };
  if (typeof p.filename === "string" && p.filename.length > 0) out.filename = p.filename;
  return out;
}

/**
 * A tool's error as its result's text, marked once (the AI SDK's text of a thrown Error already reads "Error: ...").
 */
const errorText = (text: string): string => (text.startsWith(TOOL_ERROR_PREFIX) ? text : TOOL_ERROR_PREFIX + text);

function outputContent(output: unknown, where: string): string | ContentPart[] {
  const o = objectAt(output, where);
  switch (o.type) {
    case "text":
      return stringAt(o.value, `${where}.value`);
    case "error-text":
      return errorText(stringAt(o.value, `${where}.value`));
    case "json":
      return argumentsText(o.value, `${where}.value`);
    case "error-json":
      return errorText(argumentsText(o.value, `${where}.value`));
    case "execution-denied":
      return typeof o.reason === "string" && o.reason.length > 0
        ? `Execution denied: ${o.reason}`
        : "Execution denied.";
    case "content":
      return toolContentParts(o.value, `${where}.value`);
    default:
      return unsupported(
        where,
        `a tool output of type ${describe(o.type)}`,
        "return the tool's result as text or JSON.",
      );
  }
}

const isImageType = (t: unknown): boolean => t === "image" || (typeof t === "string" && /^image\/[^*]/i.test(t));

/**
 * The items of a tool-result `content` output as a tool message's content: text items, and
 * images (file items of an image media type, by bytes or URL; the older image-data,
 * image-url, file-data and file-url items of images) as image parts. Other files, provider
 * references and custom items are refused with UNSUPPORTED_CONTENT.
 */
export function toolContentParts(value: unknown, where: string): string | ContentPart[] {
  if (!Array.isArray(value))
    throw new CtxloomError("INVALID_CONTENT", `${where} must be a list of parts; got ${describe(value)}.`);
  const parts: ContentPart[] = value.map((item: unknown, i): ContentPart => {
    const at = `${where}[${i}]`;
    const p = objectAt(item, at);
    if (p.type === "text") return { type: "text", text: stringAt(p.text, `${at}.text`) };
    const image =
      p.type === "image-data" ||
      p.type === "image-url" ||
      ((p.type === "file" || p.type === "file-data" || p.type === "file-url") && isImageType(p.mediaType));
    if (!image)
      return unsupported(
        at,
        `a tool output part of type ${describe(p.type)}${typeof p.mediaType === "string" ? ` (${p.mediaType})` : ""}`,
        "a tool result carries text and images only; return other files as text.",
      );
    let source: unknown;
    const d = p.data as Record<string, unknown> | undefined;
    if (p.type === "file" && d !== null && typeof d === "object" && typeof d.type === "string") {
      if (d.type === "data") source = d.data;
      else if (d.type === "url") source = d.url;
      else
        return unsupported(
          `${at}.data`,
          `an image by ${describe(d.type)}`,
          "pass the image's bytes or URL to keep it in the chat.",
        );
    } else if (p.type === "file")
      source = p.data; // bytes, base64 or a URL as they are
    else source = p.type === "image-url" || p.type === "file-url" ? p.url : p.data;
    return imagePart(
      {
        image: source,
        mediaType: p.mediaType === "image" ? undefined : p.mediaType,
        providerOptions: p.providerOptions,
      },
      at,
    );
  });
  return contentOf(parts, "");
}
