// The AI SDK's UIMessages (what useChat shows) from a chat's branch, and back to chat messages.
import type { ProviderMetadata, UIMessage } from "ai";
import { isUrl, urlOf } from "../context/parts-format.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { ContentPart, Message, MessageInput, ToolCall } from "../message.js";
import type { ChatView } from "../chat/chat-view.js";
import { withoutCompactions } from "../parts.js";
import { toolContent } from "./ai-sdk.js";
import { toolContentParts } from "./ai-sdk-from.js";
import { TOOL_ERROR_PREFIX } from "./anthropic.js";
import {
  argumentsText,
  contentOf,
  convertEach,
  dataUrlType,
  fromOptions,
  objectAt,
  parseArguments,
  stringAt,
  unsupported,
  type FromOptions,
} from "./common.js";

/** Where a chat message sits in the chat's tree: a UI can show "2 / 3" and switch branches (`switchBranch`). */
export interface ChatUIPlace {
  /**
   * The chat message's id (the UIMessage's `id` is its decimal string); an answer's first message when it took several
   * steps.
   */
  messageId: number;
  /** The id of the message before it on its branch; null for a root. */
  parentId: number | null;
  /** This message among its parent's children (its alternative versions), oldest first. */
  branch: { index: number; count: number; ids: number[] };
}

/**
 * A UIMessage's metadata: its place in the chat's tree, and for an answer the places of its question and later steps.
 */
export interface ChatUIMetadata extends ChatUIPlace {
  /**
   * On an answer as `chatTurn` streams it: the user message it answers, as the chat holds it (the
   * client's copy has the client's id and no metadata until a reload; draw its "2 / 2" from here).
   */
  question?: ChatUIPlace;
  /**
   * On an answer of several steps: the first message of each step after the first (a step regenerated has siblings).
   */
  steps?: ChatUIPlace[];
}

/** Where message `id` sits among its parent's children (the roots, for a root). */
export function placeOf(chat: ChatView, id: number): ChatUIPlace {
  const parentId = chat.get(id).parentId;
  const ids = parentId === null ? chat.roots() : chat.children(parentId);
  return { messageId: id, parentId, branch: { index: ids.indexOf(id), count: ids.length, ids } };
}

/** A UIMessage of a chat, with its place in the tree as metadata. */
export type ChatUIMessage = UIMessage<ChatUIMetadata>;
type UIPart = ChatUIMessage["parts"][number];
type ToolPart = Extract<UIPart, { type: "dynamic-tool" }>;

/**
 * The branch ending at the head (or at `options.leaf`) as UIMessages, as useChat draws them: one
 * UIMessage per turn of the assistant (a multi-step answer's messages joined, each step after
 * the first starting with a `step-start` part), stable string ids (the message ids; an answer's
 * is its first message's), system messages kept, an assistant's tool calls as dynamic-tool
 * parts carrying their results (the tool messages fold into them), and `metadata.branch`
 * telling the UI where each message sits among its siblings (and, for an answer of several
 * steps, `metadata.steps` where each later step does). Content parts come as the AI SDK's UI
 * parts: text; images and files as `file` parts (`url` an http(s) URL or a data: URL,
 * `mediaType`, `filename`; an image by URL without a stated type has mediaType "image");
 * reasoning as `reasoning` parts, the Anthropic signature (or a redacted block's data, with
 * empty text) under `providerMetadata.anthropic` as the AI SDK's Anthropic provider gives
 * and reads them. An image's detail is `providerMetadata.openai.imageDetail`; its width and
 * height, and the mark of a file of an image type in a user message, are under
 * `providerMetadata.ctxloom`, so that `fromUIMessages` gives the same parts back. A tool
 * result with images has as output `{ type: "content", value }`, the AI SDK's content output
 * (text items, images as file items with `data` `{ type: "data", data: base64 }` or
 * `{ type: "url", url }`).
 * @throws INVALID_ARGUMENT, UNKNOWN_MESSAGE
 */
export function toUIMessages(chat: ChatView, options?: { leaf?: number }): ChatUIMessage[] {
  if (chat === null || typeof chat !== "object" || typeof (chat as Partial<ChatView>).path !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `toUIMessages takes a chat (from chats.create() or chats.open()); got ${describe(chat)}.`,
    );
  }
  const o = checkOptions<{ leaf?: number }>(options, "toUIMessages(chat, options)", ["leaf"]);
  const path = o.leaf === undefined ? chat.path() : chat.path(o.leaf);
  const out: ChatUIMessage[] = [];
  const calls = new Map<string, ToolPart>();
  for (const m of path) {
    if (m.role === "tool") {
      const part = calls.get(m.toolCallId!);
      const output = m.parts ? { type: "content", value: toolContent(m.parts, "string") } : m.content;
      if (part) Object.assign(part, { state: "output-available", output });
      continue;
    }
    const parts: UIPart[] = m.parts
      ? withoutCompactions(m.parts).map((p) => uiPart(p, m.role))
      : m.content.length > 0
        ? [{ type: "text", text: m.content }]
        : [];
    for (const call of m.toolCalls ?? []) {
      const part: ToolPart = {
        type: "dynamic-tool",
        toolName: call.function.name,
        toolCallId: call.id,
        state: "input-available",
        input: parseArguments(call.function.arguments),
      };
      calls.set(call.id, part);
      parts.push(part);
    }
    const previous = out[out.length - 1];
    if (m.role === "assistant" && previous?.role === "assistant") {
      previous.parts.push({ type: "step-start" }, ...parts); // the next step of the same answer
      (previous.metadata!.steps ??= []).push(placeOf(chat, m.id));
      continue;
    }
    out.push({ id: String(m.id), role: m.role, metadata: placeOf(chat, m.id), parts });
  }
  return out;
}

function uiPart(p: Exclude<ContentPart, { type: "compaction" }>, role: Message["role"]): UIPart {
  switch (p.type) {
    case "text":
      return { type: "text", text: p.text };
    case "reasoning":
      return p.signature === undefined
        ? { type: "reasoning", text: p.text }
        : { type: "reasoning", text: p.text, providerMetadata: { anthropic: { signature: p.signature } } };
    case "redacted-reasoning":
      return { type: "reasoning", text: "", providerMetadata: { anthropic: { redactedData: p.data } } };
    case "image": {
      const meta: ProviderMetadata = {};
      if (p.detail !== undefined) meta.openai = { imageDetail: p.detail };
      if (p.width !== undefined) meta.ctxloom = { width: p.width, height: p.height! };
      const mediaType = p.mediaType ?? (isUrl(p) ? "image" : dataUrlType(p.image)!);
      return {
        type: "file",
        mediaType,
        url: urlOf(p),
        ...(Object.keys(meta).length > 0 ? { providerMetadata: meta } : {}),
      };
    }
    case "file": {
      const out: UIPart = { type: "file", mediaType: p.mediaType, url: urlOf(p) };
      if (p.filename !== undefined) out.filename = p.filename;
      if (role === "user" && isImageType(p.mediaType)) out.providerMetadata = { ctxloom: { part: "file" } };
      return out;
    }
  }
}

const isImageType = (t: string): boolean => t === "image" || /^image\/[^*]/i.test(t);

/**
 * UIMessages (from useChat, or stored by a UI) to inputs for `chat.append`, in order: text
 * parts join; tool parts (typed `tool-<name>` or dynamic) become tool calls, and their
 * outputs tool messages (an error output starting with "Error: ", a denied one "Execution
 * denied."; a `{ type: "content", value }` output its text and images); an assistant
 * message that goes on after its tool results (content after tool calls, or a `step-start`
 * after them: the steps of one answer) becomes several messages. File parts become image parts (a user's file of an
 * image type) or file parts, reasoning parts reasoning or redacted-reasoning parts: `toUIMessages`' parts come back as
 * they were (an image or file given as base64 comes back as a data: URL of the same bytes). Sources, data parts,
 * reasoning files, custom parts, files by provider reference, reasoning that holds only another provider's metadata and
 * tool calls still streaming or awaiting approval are refused with UNSUPPORTED_CONTENT.
 * @throws INVALID_ARGUMENT, INVALID_ROLE, UNSUPPORTED_CONTENT, and append's own codes
 */
export function fromUIMessages(messages: UIMessage | readonly UIMessage[], options?: FromOptions): MessageInput[] {
  const { reasoning } = fromOptions(options, "fromUIMessages");
  return convertEach(messages, "fromUIMessages", (value, where) => {
    const out: MessageInput[] = [];
    const m = objectAt(value, where);
    if (m.role !== "system" && m.role !== "user" && m.role !== "assistant") {
      throw new CtxloomError(
        "INVALID_ROLE",
        `${where}.role must be system, user or assistant; got ${describe(m.role)}.`,
      );
    }
    const role = m.role;
    if (!Array.isArray(m.parts))
      throw new CtxloomError("INVALID_CONTENT", `${where}.parts must be a list; got ${describe(m.parts)}.`);
    let parts: ContentPart[] = [];
    let calls: ToolCall[] = [];
    let results: MessageInput[] = [];
    let started = false;
    const flush = () => {
      if (!started) return;
      const content = contentOf(parts, "");
      out.push(calls.length > 0 ? { role, content, toolCalls: calls } : { role, content }, ...results);
      [parts, calls, results, started] = [[], [], [], false];
    };
    m.parts.forEach((value: unknown, j) => {
      const at = `${where}.parts[${j}]`;
      const p = objectAt(value, at);
      const type = typeof p.type === "string" ? p.type : "";
      if (type === "step-start") {
        if (calls.length > 0) flush(); // the next step: its calls are the next message's
        return;
      }
      if (type === "reasoning" && role === "assistant" && reasoning === "drop") return;
      if (
        type === "text" ||
        (type === "file" && role !== "system") ||
        (type === "reasoning" && role === "assistant" && reasoning === "keep")
      ) {
        if (calls.length > 0) flush(); // content after tool calls: the next step's message
        parts.push(
          type === "text"
            ? { type: "text", text: stringAt(p.text, `${at}.text`) }
            : type === "file"
              ? filePart(p, role, at)
              : reasoningPart(p, at),
        );
        started = true;
      } else if (role === "assistant" && (type === "dynamic-tool" || type.startsWith("tool-"))) {
        const { call, result } = toolPart(p, type, at);
        calls.push(call);
        if (result) results.push(result);
        started = true;
      } else {
        const todo =
          type === "reasoning"
            ? 'pass { reasoning: "keep" } or { reasoning: "drop" }.'
            : "send it in the request yourself, or describe it in text.";
        unsupported(at, `a part of type ${describe(p.type)} in a ${role} message`, todo);
      }
    });
    if (!started) parts.push({ type: "text", text: "" }); // an empty message is append's to refuse
    started = true;
    flush();
    return out;
  });
}

/** A UI file part as an image part (a user's file of an image type, unless marked a file) or a file part. */
function filePart(p: Record<string, unknown>, role: string, at: string): ContentPart {
  if (p.providerReference !== undefined)
    unsupported(
      at,
      "a file by provider reference",
      "pass the file's bytes (a data: URL) or URL to keep it in the chat.",
    );
  const url = stringAt(p.url, `${at}.url`);
  const mediaType = stringAt(p.mediaType, `${at}.mediaType`).toLowerCase();
  const meta = (p.providerMetadata ?? {}) as {
    openai?: { imageDetail?: unknown };
    ctxloom?: { width?: unknown; height?: unknown; part?: unknown };
  };
  if (role === "user" && isImageType(mediaType) && meta.ctxloom?.part !== "file") {
    const out: ContentPart = { type: "image", image: url };
    if (mediaType !== "image" && !url.startsWith("data:")) out.mediaType = mediaType;
    const detail = meta.openai?.imageDetail;
    if (detail === "low" || detail === "high" || detail === "auto") out.detail = detail;
    if (meta.ctxloom?.width !== undefined)
      Object.assign(out, { width: meta.ctxloom.width, height: meta.ctxloom.height });
    return out;
  }
  if (!mediaType.includes("/"))
    unsupported(
      `${at}.mediaType`,
      `a media type without a subtype (${describe(p.mediaType)})`,
      'give the full type, e.g. "application/pdf".',
    );
  const out: ContentPart = { type: "file", data: url, mediaType };
  if (typeof p.filename === "string" && p.filename.length > 0) out.filename = p.filename;
  return out;
}

function reasoningPart(p: Record<string, unknown>, at: string): ContentPart {
  const meta = p.providerMetadata as { anthropic?: { signature?: unknown; redactedData?: unknown } } | undefined;
  const redacted = meta?.anthropic?.redactedData;
  if (typeof redacted === "string" && redacted.length > 0) return { type: "redacted-reasoning", data: redacted };
  const out: ContentPart = { type: "reasoning", text: stringAt(p.text, `${at}.text`) };
  const signature = meta?.anthropic?.signature;
  if (typeof signature === "string" && signature.length > 0) out.signature = signature;
  if (out.text.length === 0 && out.signature === undefined) {
    unsupported(
      at,
      "reasoning with no text and no Anthropic signature (another provider's encrypted reasoning)",
      'pass { reasoning: "drop" } to leave it out.',
    );
  }
  return out;
}

/** A UI tool part as a tool call and, once it has an outcome, its tool message. */
function toolPart(p: Record<string, unknown>, type: string, at: string): { call: ToolCall; result?: MessageInput } {
  const name = type === "dynamic-tool" ? stringAt(p.toolName, `${at}.toolName`) : type.slice(5);
  const id = stringAt(p.toolCallId, `${at}.toolCallId`);
  if (
    p.state !== "input-available" &&
    p.state !== "output-available" &&
    p.state !== "output-error" &&
    p.state !== "output-denied"
  ) {
    unsupported(
      at,
      `a tool call in state ${describe(p.state)}`,
      "append the message once the call's input is complete and approved.",
    );
  }
  if (p.providerExecuted === true)
    unsupported(at, "a provider-executed tool call", "keep provider-executed tools out of chats kept by ctxloom.");
  const call: ToolCall = { id, type: "function", function: { name, arguments: argumentsText(p.input, `${at}.input`) } };
  if (p.state === "input-available") return { call };
  const o = p.output as Record<string, unknown> | undefined;
  const content =
    p.state === "output-error"
      ? TOOL_ERROR_PREFIX + stringAt(p.errorText, `${at}.errorText`)
      : p.state === "output-denied"
        ? "Execution denied."
        : typeof p.output === "string"
          ? p.output
          : o !== null &&
              typeof o === "object" &&
              o.type === "content" &&
              Array.isArray(o.value) &&
              Object.keys(o).length === 2
            ? toolContentParts(o.value, `${at}.output.value`)
            : argumentsText(p.output, `${at}.output`);
  return { call, result: { role: "tool", toolCallId: id, name, content } };
}
