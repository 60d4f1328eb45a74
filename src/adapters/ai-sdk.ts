// The AI SDK (`ai` 7): chat messages to ModelMessages and back, and a prepareStep that
// rebuilds each step's context from the chat. Type imports only: nothing of `ai` is loaded.
import type { AssistantModelMessage, FilePart, ImagePart, ModelMessage, ToolResultPart, UserModelMessage } from "ai";
import type { ContextWindow } from "../context/types.js";
import type { OpenAIMessage } from "../context/format.js";
import { base64Of, isUrl, mediaTypeOf, partsToSend, textOf, type WithContent } from "../context/parts-format.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { ContentPart, Message, MessageInput, ToolCall } from "../message.js";
import { argumentsText, bytesToBase64, checked, contentOf, dataUrlType, objectAt, parseArguments, stringAt, textToBase64, unsupported } from "./common.js";
import { TOOL_ERROR_PREFIX } from "./anthropic.js";

/** What `generateText` / `streamText` take: the instructions (system prompt, memory, the chat's system messages) and the messages. */
export interface ModelContext {
  instructions: string;
  messages: ModelMessage[];
}

/** A chat message, or an input for `chat.append` (content a string or a list of parts). */
type Convertible = Pick<Message, "role" | "name" | "toolCalls" | "toolCallId"> & WithContent;

/**
 * A context built by `chat.buildContext()` (the default OpenAI format) as the AI SDK takes
 * it: `{ instructions, messages }`, to spread into `generateText` / `streamText`. System
 * prompt, memory and the chat's system messages go to `instructions` (the AI SDK refuses
 * system messages among `messages` by default); tool calls become tool-call parts (input
 * parsed from the JSON arguments), tool results tool-result parts with the tool's name
 * (the result's own `name`, else the name of the call it answers) and a text output.
 * @throws INVALID_ARGUMENT for a context in another format
 */
export function toModelContext(context: ContextWindow<OpenAIMessage>): ModelContext {
  const c = objectAt(context, "toModelContext(context)") as unknown as ContextWindow;
  if (c.format !== "openai" || !Array.isArray(c.conversation)) {
    throw new CtxloomError("INVALID_ARGUMENT", `toModelContext(context) takes a context built in the "openai" format (the default); got format ${describe(c.format)}.`);
  }
  const conversation: Convertible[] = [...c.conversation];
  if (c.input !== null) conversation.push({ role: "user", content: c.input });
  const system = [c.system, c.memory, ...conversation.filter((m) => m.role === "system").map(textOf)];
  return { instructions: system.filter((t) => t.length > 0).join("\n\n"), messages: toModelMessages(conversation.filter((m) => m.role !== "system")) };
}

/**
 * Chat messages (system ones included, as system messages) to ModelMessages; consecutive
 * tool results share one tool message. Images and files become image and file parts (an
 * image's detail as `providerOptions.openai.imageDetail`); reasoning becomes reasoning parts
 * with its signature, and redacted reasoning an empty one with its data, both under
 * `providerOptions.anthropic` (`signature`, `redactedData`), where the Anthropic provider reads them.
 */
export function toModelMessages(messages: readonly Convertible[]): ModelMessage[] {
  if (!Array.isArray(messages)) {
    throw new CtxloomError("INVALID_ARGUMENT", `toModelMessages takes a list of messages (chat.path(), or a context's conversation); got ${describe(messages)}.`);
  }
  const names = new Map<string, string>();
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === "tool") {
      const parts = partsToSend(m);
      const part: ToolResultPart = {
        type: "tool-result", toolCallId: m.toolCallId!, toolName: m.name ?? names.get(m.toolCallId!) ?? "unknown",
        output: parts ? { type: "content", value: toolContent(parts, "object") as ToolContentPart[] } : { type: "text", value: textOf(m) },
      };
      const last = out[out.length - 1];
      if (last && last.role === "tool") last.content.push(part);
      else out.push({ role: "tool", content: [part] });
    } else if (m.role === "assistant" && (m.toolCalls || partsToSend(m))) {
      const parts = partsToSend(m);
      const text = textOf(m);
      const content: Exclude<AssistantModelMessage["content"], string> = parts ? parts.map(assistantPart) : text.length > 0 ? [{ type: "text", text }] : [];
      for (const call of m.toolCalls ?? []) {
        names.set(call.id, call.function.name);
        content.push({ type: "tool-call", toolCallId: call.id, toolName: call.function.name, input: parseArguments(call.function.arguments) });
      }
      out.push({ role: "assistant", content });
    } else if (m.role === "user" && partsToSend(m)) {
      out.push({ role: "user", content: partsToSend(m)!.map(userPart) });
    } else {
      out.push({ role: m.role, content: textOf(m) });
    }
  }
  return out;
}

type UserPart = Exclude<UserModelMessage["content"], string>[number];
type ToolContentPart = Extract<ToolResultPart["output"], { type: "content" }>["value"][number];

/**
 * A tool result's parts (text and images) as the items of a tool-result `content` output:
 * text, and each image a file part with its media type ("image" when a URL gives none) and
 * its bytes (`{ type: "data", data: base64 }`) or URL (`{ type: "url", url }`, a URL object,
 * or its string with `urls` "string": what a UIMessage, kept as JSON, holds, with the
 * image's width and height under `providerOptions.ctxloom`).
 */
export function toolContent(parts: readonly ContentPart[], urls: "object" | "string"): unknown[] {
  const out: unknown[] = [];
  for (const p of parts) {
    if (p.type === "text") out.push({ type: "text", text: p.text });
    else if (p.type === "image") {
      const data = isUrl(p) ? { type: "url", url: urls === "object" ? new URL(p.image) : p.image } : { type: "data", data: base64Of(p)! };
      const item: Record<string, unknown> = { type: "file", data, mediaType: isUrl(p) ? (p.mediaType ?? "image") : mediaTypeOf(p) };
      const options: Record<string, Record<string, unknown>> = {};
      if (p.detail !== undefined) options.openai = { imageDetail: p.detail };
      if (urls === "string" && p.width !== undefined) options.ctxloom = { width: p.width, height: p.height };
      if (Object.keys(options).length > 0) item.providerOptions = options;
      out.push(item);
    }
  }
  return out;
}
type AssistantPart = Exclude<AssistantModelMessage["content"], string>[number];

/** The source of an image or file: a URL object for http(s), else its base64 bytes. */
const sourceOf = (p: Extract<ContentPart, { type: "image" | "file" }>): URL | string => (isUrl(p) ? new URL(p.type === "image" ? p.image : p.data) : base64Of(p)!);

function filePart(p: Extract<ContentPart, { type: "file" }>): FilePart {
  const out: FilePart = { type: "file", data: sourceOf(p), mediaType: p.mediaType };
  if (p.filename !== undefined) out.filename = p.filename;
  return out;
}

function userPart(p: ContentPart): UserPart {
  switch (p.type) {
    case "image": {
      const out: ImagePart = { type: "image", image: sourceOf(p), mediaType: mediaTypeOf(p) };
      if (isUrl(p) && p.mediaType === undefined) delete out.mediaType;
      if (p.detail !== undefined) out.providerOptions = { openai: { imageDetail: p.detail } };
      return out;
    }
    case "file":
      return filePart(p);
    default:
      return { type: "text", text: p.type === "text" ? p.text : "" }; // a user message holds text, images and files only
  }
}

function assistantPart(p: ContentPart): AssistantPart {
  switch (p.type) {
    case "reasoning":
      return p.signature === undefined ? { type: "reasoning", text: p.text } : { type: "reasoning", text: p.text, providerOptions: { anthropic: { signature: p.signature } } };
    case "redacted-reasoning":
      return { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: p.data } } };
    case "file":
      return filePart(p);
    default:
      return { type: "text", text: p.type === "text" ? p.text : "" }; // an assistant message holds no images
  }
}

/** What a conversion does with reasoning parts. */
export type ReasoningMode = "keep" | "drop" | "refuse";

/** The `reasoning` option of a conversion, checked; default "keep". @throws INVALID_ARGUMENT */
export function reasoningMode(value: unknown): ReasoningMode {
  if (value === undefined) return "keep";
  if (value !== "keep" && value !== "refuse" && value !== "drop") {
    throw new CtxloomError("INVALID_ARGUMENT", `reasoning must be "keep", "drop" or "refuse"; got ${describe(value)}.`);
  }
  return value;
}

/** Options of `fromModelMessages`. */
export interface FromModelOptions {
  /**
   * Reasoning parts: "keep" (default: reasoning parts, with the Anthropic signature or
   * redacted data of `providerOptions.anthropic`), "drop" (left out: fine for providers that
   * do not need them back) or "refuse" (UNSUPPORTED_CONTENT).
   */
  reasoning?: ReasoningMode;
}

/**
 * ModelMessages (a `generateText` / `streamText` result's `response.messages`, or a
 * request's messages) to inputs for `chat.append`: text parts join, tool-call parts become
 * `toolCalls` (input as JSON text), each tool-result its own tool message named by its
 * tool (a json output as JSON text, an error output starting with "Error: ", a denied
 * execution as "Execution denied: <reason>", a content output its text and images as
 * parts). Image and file parts (user) and file and reasoning parts (assistant) are kept as
 * parts. Provider-executed tools, approvals, files by provider reference and files other
 * than images in tool outputs are refused with UNSUPPORTED_CONTENT.
 * @throws INVALID_ARGUMENT, INVALID_ROLE, UNSUPPORTED_CONTENT, and append's own codes
 */
export function fromModelMessages(messages: readonly ModelMessage[], options?: FromModelOptions): MessageInput[] {
  const o = checkOptions<FromModelOptions>(options, "fromModelMessages(messages, options)", ["reasoning"]);
  const reasoning = reasoningMode(o.reasoning);
  if (!Array.isArray(messages)) throw new CtxloomError("INVALID_ARGUMENT", `fromModelMessages(messages) takes a list of ModelMessages; got ${describe(messages)}.`);
  const out: MessageInput[] = [];
  messages.forEach((value: unknown, i) => out.push(...convert(value, `fromModelMessages(messages)[${i}]`, reasoning)));
  return checked(out);
}

function convert(value: unknown, where: string, reasoning: "keep" | "drop" | "refuse"): MessageInput[] {
  const m = objectAt(value, where);
  const role = m.role;
  if (role !== "system" && role !== "user" && role !== "assistant" && role !== "tool") {
    throw new CtxloomError("INVALID_ROLE", `${where}.role must be system, user, assistant or tool; got ${describe(role)}.`);
  }
  if (typeof m.content === "string") {
    if (role === "tool") throw new CtxloomError("INVALID_CONTENT", `${where}: a tool message's content is a list of tool-result parts.`);
    return [{ role, content: m.content }];
  }
  if (!Array.isArray(m.content)) throw new CtxloomError("INVALID_CONTENT", `${where}.content must be a string or a list of parts; got ${describe(m.content)}.`);
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
      if (p.providerExecuted === true) unsupported(at, "a provider-executed tool call", "keep provider-executed tools out of chats kept by ctxloom.");
      const name = stringAt(p.toolName, `${at}.toolName`);
      calls.push({ id: stringAt(p.toolCallId, `${at}.toolCallId`), type: "function", function: { name, arguments: argumentsText(p.input, `${at}.input`) } });
    } else if (p.type === "tool-result" && role === "tool") {
      results.push({ role: "tool", toolCallId: stringAt(p.toolCallId, `${at}.toolCallId`), name: stringAt(p.toolName, `${at}.toolName`), content: outputContent(p.output, `${at}.output`) });
    } else {
      const todo = p.type === "reasoning" ? 'pass { reasoning: "keep" } or { reasoning: "drop" }.' : "send it in the request yourself, or describe it in text.";
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
  if (typeof meta.redactedData === "string" && meta.redactedData.length > 0) return { type: "redacted-reasoning", data: meta.redactedData };
  const out: ContentPart = { type: "reasoning", text: stringAt(p.text, `${at}.text`) };
  if (typeof meta.signature === "string" && meta.signature.length > 0) out.signature = meta.signature;
  return out;
}

/** base64 of image bytes by their first bytes: PNG, JPEG, GIF, WebP. */
const IMAGE_SIGNATURES: [string, string][] = [["iVBORw0KGgo", "image/png"], ["/9j/", "image/jpeg"], ["R0lGOD", "image/gif"], ["UklGR", "image/webp"]];

/** Bytes, a URL object, or a string (a URL, a data: URL or base64) as ctxloom's string source. */
function sourceText(value: unknown, at: string): string {
  if (value instanceof URL) return value.href;
  if (value instanceof Uint8Array) return bytesToBase64(value);
  if (value instanceof ArrayBuffer) return bytesToBase64(new Uint8Array(value));
  if (typeof value === "string") return value;
  return unsupported(at, `a source ${describe(value)}`, "pass bytes, base64 or a URL (a provider reference cannot be kept).");
}

function imagePart(p: Record<string, unknown>, at: string): ContentPart {
  const image = sourceText(p.image, `${at}.image`);
  const out: ContentPart = { type: "image", image };
  let mediaType = typeof p.mediaType === "string" && p.mediaType.includes("/") ? p.mediaType : undefined;
  if (mediaType === undefined && !/^(https?|data):/i.test(image)) mediaType = IMAGE_SIGNATURES.find(([s]) => image.startsWith(s))?.[1];
  if (mediaType !== undefined && !(image.startsWith("data:") && dataUrlType(image) !== mediaType)) out.mediaType = mediaType;
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
  if (d !== null && typeof d === "object" && !(d instanceof URL) && !(d instanceof Uint8Array) && !(d instanceof ArrayBuffer) && typeof d.type === "string") {
    if (d.type === "data") data = sourceText(d.data, `${at}.data.data`);
    else if (d.type === "url") data = sourceText(d.url, `${at}.data.url`);
    else if (d.type === "text") data = textToBase64(stringAt(d.text, `${at}.data.text`));
    else return unsupported(`${at}.data`, `a file by ${describe(d.type)}`, "pass the file's bytes or URL to keep it in the chat.");
  } else {
    data = sourceText(p.data, `${at}.data`);
  }
  const mediaType = stringAt(p.mediaType, `${at}.mediaType`);
  if (!mediaType.includes("/")) unsupported(`${at}.mediaType`, `a media type without a subtype (${describe(mediaType)})`, 'give the full type, e.g. "application/pdf".');
  const out: ContentPart = { type: "file", data, mediaType };
  if (typeof p.filename === "string" && p.filename.length > 0) out.filename = p.filename;
  return out;
}

function outputContent(output: unknown, where: string): string | ContentPart[] {
  const o = objectAt(output, where);
  switch (o.type) {
    case "text":
      return stringAt(o.value, `${where}.value`);
    case "error-text":
      return TOOL_ERROR_PREFIX + stringAt(o.value, `${where}.value`);
    case "json":
      return argumentsText(o.value, `${where}.value`);
    case "error-json":
      return TOOL_ERROR_PREFIX + argumentsText(o.value, `${where}.value`);
    case "execution-denied":
      return typeof o.reason === "string" && o.reason.length > 0 ? `Execution denied: ${o.reason}` : "Execution denied.";
    case "content":
      return toolContentParts(o.value, `${where}.value`);
    default:
      return unsupported(where, `a tool output of type ${describe(o.type)}`, "return the tool's result as text or JSON.");
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
  if (!Array.isArray(value)) throw new CtxloomError("INVALID_CONTENT", `${where} must be a list of parts; got ${describe(value)}.`);
  const parts: ContentPart[] = value.map((item: unknown, i): ContentPart => {
    const at = `${where}[${i}]`;
    const p = objectAt(item, at);
    if (p.type === "text") return { type: "text", text: stringAt(p.text, `${at}.text`) };
    const image = p.type === "image-data" || p.type === "image-url" || ((p.type === "file" || p.type === "file-data" || p.type === "file-url") && isImageType(p.mediaType));
    if (!image) return unsupported(at, `a tool output part of type ${describe(p.type)}${typeof p.mediaType === "string" ? ` (${p.mediaType})` : ""}`, "a tool result carries text and images only; return other files as text.");
    let source: unknown;
    const d = p.data as Record<string, unknown> | undefined;
    if (p.type === "file" && d !== null && typeof d === "object" && typeof d.type === "string") {
      if (d.type === "data") source = d.data;
      else if (d.type === "url") source = d.url;
      else return unsupported(`${at}.data`, `an image by ${describe(d.type)}`, "pass the image's bytes or URL to keep it in the chat.");
    } else if (p.type === "file") source = p.data; // bytes, base64 or a URL as they are
    else source = p.type === "image-url" || p.type === "file-url" ? p.url : p.data;
    return imagePart({ image: source, mediaType: p.mediaType === "image" ? undefined : p.mediaType, providerOptions: p.providerOptions }, at);
  });
  return contentOf(parts, "");
}
