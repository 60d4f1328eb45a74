// The AI SDK (`ai` 7): chat messages to ModelMessages and back, and a prepareStep that
// rebuilds each step's context from the chat. Type imports only: nothing of `ai` is loaded.
import type { AssistantModelMessage, FilePart, ImagePart, ModelMessage, ToolResultPart, UserModelMessage } from "ai";
import type { ContextWindow } from "../context/types.js";
import type { OpenAIMessage } from "../context/format.js";
import { base64Of, isUrl, mediaTypeOf, partsToSend, textOf } from "../context/parts-format.js";
import { CtxloomError, describe } from "../errors.js";
import type { ContentPart } from "../message.js";
import { withoutCompactions } from "../parts.js";
import { objectAt, parseArguments, type ConvertibleMessage } from "./common.js";

/**
 * What `generateText` / `streamText` take: the instructions (system prompt, memory, the chat's system messages) and the
 * messages.
 */
export interface ModelContext {
  /** Left out when the context has none (the SDK would send an empty system message). */
  instructions?: string;
  /** The conversation and the input, as the AI SDK's messages. */
  messages: ModelMessage[];
}

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
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `toModelContext(context) takes a context built in the "openai" format (the default); got format ` +
        `${describe(c.format)}.`,
    );
  }
  const conversation: ConvertibleMessage[] = [...c.conversation];
  if (c.input !== null) conversation.push({ role: "user", content: c.input });
  const system = [c.system, c.memory, ...conversation.filter((m) => m.role === "system").map(textOf)];
  const instructions = system.filter((t) => t.length > 0).join("\n\n");
  const messages = toModelMessages(conversation.filter((m) => m.role !== "system"));
  return instructions.length > 0 ? { instructions, messages } : { messages };
}

/**
 * Chat messages (system ones included, as system messages) to ModelMessages; consecutive
 * tool results share one tool message. Images and files become image and file parts (an
 * image's detail as `providerOptions.openai.imageDetail`); reasoning becomes reasoning parts
 * with its signature, and redacted reasoning an empty one with its data, both under
 * `providerOptions.anthropic` (`signature`, `redactedData`), where the Anthropic provider reads them.
 */
export function toModelMessages(messages: readonly ConvertibleMessage[]): ModelMessage[] {
  if (!Array.isArray(messages)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `toModelMessages takes a list of messages (chat.path(), or a context's conversation); got ${describe(messages)}.`,
    );
  }
  const names = new Map<string, string>();
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === "tool") {
      const parts = partsToSend(m);
      const part: ToolResultPart = {
        type: "tool-result",
        toolCallId: m.toolCallId!,
        toolName: m.name ?? names.get(m.toolCallId!) ?? "unknown",
        output: parts
          ? { type: "content", value: toolContent(parts, "object") as ToolContentPart[] }
          : { type: "text", value: textOf(m) },
      };
      const last = out[out.length - 1];
      if (last && last.role === "tool") last.content.push(part);
      else out.push({ role: "tool", content: [part] });
    } else if (m.role === "assistant" && (m.toolCalls || partsToSend(m))) {
      const parts = partsToSend(m);
      const text = textOf(m);
      const content: Exclude<AssistantModelMessage["content"], string> = parts
        ? withoutCompactions(parts).map(assistantPart)
        : text.length > 0
          ? [{ type: "text", text }]
          : [];
      for (const call of m.toolCalls ?? []) {
        names.set(call.id, call.function.name);
        content.push({
          type: "tool-call",
          toolCallId: call.id,
          toolName: call.function.name,
          input: parseArguments(call.function.arguments),
        });
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
      const data = isUrl(p)
        ? { type: "url", url: urls === "object" ? new URL(p.image) : p.image }
        : { type: "data", data: base64Of(p)! };
      const item: Record<string, unknown> = {
        type: "file",
        data,
        mediaType: isUrl(p) ? (p.mediaType ?? "image") : mediaTypeOf(p),
      };
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
const sourceOf = (p: Extract<ContentPart, { type: "image" | "file" }>): URL | string =>
  isUrl(p) ? new URL(p.type === "image" ? p.image : p.data) : base64Of(p)!;

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
      // a user message holds text, images and files only
      return { type: "text", text: p.type === "text" ? p.text : "" };
  }
}

function assistantPart(p: ContentPart): AssistantPart {
  switch (p.type) {
    case "reasoning":
      return p.signature === undefined
        ? { type: "reasoning", text: p.text }
        : { type: "reasoning", text: p.text, providerOptions: { anthropic: { signature: p.signature } } };
    case "redacted-reasoning":
      return { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: p.data } } };
    case "file":
      return filePart(p);
    default:
      return { type: "text", text: p.type === "text" ? p.text : "" }; // an assistant message holds no images
  }
}
