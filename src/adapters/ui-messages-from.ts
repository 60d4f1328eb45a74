// The AI SDK's UIMessages (from useChat, or stored by a UI) back to inputs for `chat.append`: text,
// tool, file and reasoning parts each to the chat's own (ui-messages.ts makes them from a chat).
import type { UIMessage } from "ai";
import { CtxloomError, describe } from "../errors.js";
import type { ContentPart, MessageInput, ToolCall } from "../message.js";
import { toolContentParts } from "./ai-sdk-from.js";
import { TOOL_ERROR_PREFIX } from "./anthropic.js";
import {
  argumentsText,
  contentOf,
  convertEach,
  fromOptions,
  objectAt,
  stringAt,
  unsupported,
  type FromOptions,
} from "./common.js";

/** Whether a UI file part's media type names an image. */
export const isImageType = (t: string): boolean => t === "image" || /^image\/[^*]/i.test(t);

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
