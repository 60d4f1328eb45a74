// The AI SDK's UIMessages (what useChat shows) from a chat's branch, each message with its place in
// the chat's tree; back to chat messages: ui-messages-from.ts (fromUIMessages, re-exported here).
import type { ProviderMetadata, UIMessage } from "ai";
import { isUrl, urlOf } from "../context/parts-format.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { ContentPart, Message } from "../message.js";
import type { ChatView } from "../chat/chat-view.js";
import { withoutCompactions } from "../parts.js";
import { toolContent } from "./ai-sdk.js";
import { dataUrlType, parseArguments } from "./common.js";
import { isImageType } from "./ui-messages-from.js";

export { fromUIMessages } from "./ui-messages-from.js";

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
