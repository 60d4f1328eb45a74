// What an OpenAI stream has said so far, chunk by chunk: Chat Completions `stream: true` chunks
// (the deltas of the first choice: text, refusal, tool calls by index) and Responses stream
// events (output items by index, their text, refusal and arguments deltas; the final response).
// Each gives the answer as a message of its API, whole once the stream says it ended.
import { CtxloomError, describe } from "../errors.js";
import { objectAt } from "./common.js";
import type { OpenAIMessageLike } from "./openai.js";
import type { ResponsesItemLike } from "./responses.js";

/**
 * A Chat Completions stream chunk (`ChatCompletionChunk`, what `stream: true` and `chat.completions.stream()` yield),
 * structurally.
 */
export interface ChatCompletionChunkLike {
  /** "chat.completion.chunk". */
  object?: string;
  /** The chunk's choices: each a delta of content, refusal or tool calls, and the finish reason on the last. */
  choices: readonly {
    index: number;
    delta?: {
      content?: string | null;
      refusal?: string | null;
      role?: string;
      tool_calls?: readonly {
        index: number;
        id?: string;
        type?: string;
        function?: { name?: string; arguments?: string };
      }[];
      function_call?: unknown;
    };
    finish_reason?: string | null;
  }[];
}

/**
 * A Responses stream event (`ResponseStreamEvent`, what `stream: true` and `responses.stream()` yield), structurally.
 */
export interface ResponseStreamEventLike {
  /** The event's type ("response.output_text.delta", "response.output_item.done", ...). */
  type: string;
  /** The index of the output item the event is about. */
  output_index?: number;
  /** The index of the content part the event is about. */
  content_index?: number;
  /** The output item, on an item event. */
  item?: unknown;
  /** The content part, on a part event. */
  part?: unknown;
  /** The text added, on a delta event. */
  delta?: unknown;
  /** The response, on "response.completed" and the other response events. */
  response?: unknown;
}

/** A stream's state: its answer so far as its API's messages, and whether the stream said it ended. */
export interface StreamState {
  push(value: unknown, where: string): void;
  /** Ended: a finish_reason, response.completed or response.incomplete (the model's own end). */
  finished: boolean;
  /** The answer as its API gives it; `cut`: what a stream that stopped short said (calls still streaming left out). */
  answer(cut: boolean): { completion?: OpenAIMessageLike; items?: ResponsesItemLike[] };
}

interface CallSoFar {
  id: string;
  name: string;
  args: string;
}

/** The first choice of Chat Completions chunks. */
export class CompletionState implements StreamState {
  finished = false;
  #content = "";
  #refusal = "";
  #calls: CallSoFar[] = [];
  #legacy: unknown;

  push(value: unknown, where: string): void {
    const chunk = objectAt(value, where);
    if (!Array.isArray(chunk.choices)) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where} must be a ChatCompletionChunk ({ choices: [{ delta }] }); got ${describe(value)}.`,
      );
    }
    chunk.choices.forEach((c: unknown, i) => {
      const choice = objectAt(c, `${where}.choices[${i}]`);
      if (choice.index !== 0) return; // the first choice, as fromOpenAIMessages takes a completion's
      const delta =
        choice.delta === undefined || choice.delta === null
          ? {}
          : objectAt(choice.delta, `${where}.choices[${i}].delta`);
      if (typeof delta.content === "string") this.#content += delta.content;
      if (typeof delta.refusal === "string") this.#refusal += delta.refusal;
      if (delta.function_call != null) this.#legacy = delta.function_call;
      if (delta.tool_calls != null) this.#toolCalls(delta.tool_calls, `${where}.choices[${i}].delta.tool_calls`);
      if (typeof choice.finish_reason === "string") this.finished = true;
    });
  }

  #toolCalls(value: unknown, where: string): void {
    if (!Array.isArray(value))
      throw new CtxloomError("INVALID_TOOL_CALL", `${where} must be a list; got ${describe(value)}.`);
    value.forEach((v: unknown, i) => {
      const d = objectAt(v, `${where}[${i}]`);
      if (!Number.isInteger(d.index) || (d.index as number) < 0) {
        throw new CtxloomError(
          "INVALID_TOOL_CALL",
          `${where}[${i}].index must be the call's index; got ${describe(d.index)}.`,
        );
      }
      const call = (this.#calls[d.index as number] ??= { id: "", name: "", args: "" });
      if (typeof d.id === "string") call.id = d.id;
      const fn = d.function === undefined ? {} : objectAt(d.function, `${where}[${i}].function`);
      if (typeof fn.name === "string") call.name += fn.name;
      if (typeof fn.arguments === "string") call.args += fn.arguments;
    });
  }

  answer(cut: boolean): { completion: OpenAIMessageLike } {
    const calls = cut ? [] : this.#calls.filter((c) => c !== undefined); // arguments still streaming are not a call
    const content = this.#content.length > 0 || this.#refusal.length === 0 ? this.#content : null;
    const completion: OpenAIMessageLike = {
      role: "assistant",
      content,
      refusal: this.#refusal.length > 0 ? this.#refusal : null,
    };
    if (calls.length > 0) {
      completion.tool_calls = calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.args },
      }));
    }
    if (this.#legacy !== undefined) completion.function_call = this.#legacy; // refused by the conversion
    return { completion };
  }
}

/** The output items of Responses stream events. */
export class ResponseState implements StreamState {
  finished = false;
  #items: Record<string, unknown>[] = [];
  #done: boolean[] = [];

  push(value: unknown, where: string): void {
    const event = objectAt(value, where);
    if (typeof event.type !== "string") {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where} must be a Responses stream event ({ type, ... }); got ${describe(value)}.`,
      );
    }
    const at = event.output_index as number;
    switch (event.type) {
      case "response.output_item.added":
      case "response.output_item.done":
        this.#items[this.#index(at, where)] = structuredClone(objectAt(event.item, `${where}.item`));
        this.#done[at] = event.type === "response.output_item.done";
        return;
      case "response.content_part.added": {
        const part = structuredClone(objectAt(event.part, `${where}.part`));
        this.#content(at, event.content_index, where)[event.content_index as number] = part;
        return;
      }
      case "response.output_text.delta":
        this.#grow(this.#part(at, event.content_index, "output_text", where), "text", event.delta, where);
        return;
      case "response.refusal.delta":
        this.#grow(this.#part(at, event.content_index, "refusal", where), "refusal", event.delta, where);
        return;
      case "response.function_call_arguments.delta":
        this.#grow(this.#item(at, where), "arguments", event.delta, where);
        return;
      case "response.completed":
      case "response.incomplete": {
        const output = objectAt(event.response, `${where}.response`).output;
        if (Array.isArray(output)) {
          this.#items = structuredClone(output) as Record<string, unknown>[];
          this.#done = output.map(() => true);
        }
        this.finished = true;
        return;
      }
      default:
        return; // progress of built-in tools, reasoning summaries (their item carries them when done), annotations...
    }
  }

  answer(cut: boolean): { items: ResponsesItemLike[] } {
    // Cut: the items done, and a message still streaming with the text it has; calls still streaming are left out.
    const items = this.#items.filter(
      (item, i) => item !== undefined && (!cut || this.#done[i] || item.type === "message"),
    );
    return { items: items as ResponsesItemLike[] };
  }

  #index(at: unknown, where: string): number {
    if (!Number.isInteger(at) || (at as number) < 0) {
      throw new CtxloomError("INVALID_ARGUMENT", `${where}.output_index must be an item's index; got ${describe(at)}.`);
    }
    return at as number;
  }

  #item(at: unknown, where: string): Record<string, unknown> {
    const item = this.#items[this.#index(at, where)];
    if (item === undefined) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where} is about output item ${describe(at)}, which no response.output_item.added event began.`,
      );
    }
    return item;
  }

  #content(at: unknown, index: unknown, where: string): Record<string, unknown>[] {
    const item = this.#item(at, where);
    if (!Number.isInteger(index) || (index as number) < 0) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where}.content_index must be a part's index; got ${describe(index)}.`,
      );
    }
    if (!Array.isArray(item.content)) item.content = [];
    return item.content as Record<string, unknown>[];
  }

  #part(at: unknown, index: unknown, type: string, where: string): Record<string, unknown> {
    const content = this.#content(at, index, where);
    return (content[index as number] ??=
      type === "refusal" ? { type, refusal: "" } : { type, text: "", annotations: [] });
  }

  #grow(target: Record<string, unknown>, key: string, delta: unknown, where: string): void {
    if (typeof delta !== "string")
      throw new CtxloomError("INVALID_ARGUMENT", `${where}.delta must be a string; got ${describe(delta)}.`);
    target[key] = (typeof target[key] === "string" ? target[key] : "") + delta;
  }
}
