import { CtxloomError, checkInteger, describe } from "../errors.js";
import type { RankScope } from "./rank.js";

/** A message of the recall scope, as the policy needs it (no text). */
export interface RecallMessage {
  /** Its key in the scope's indexes (the message id in a chat; a KeyMap key across chats). */
  key: number;
  /** Key of its parent, -1 for a root. The parent comes earlier in the list. */
  parent: number;
  role: "system" | "user" | "assistant" | "tool";
  /** "summary": never recalled (a summary stands for originals; it is not one). Default "message". */
  kind?: "message" | "summary";
  /** Key of the assistant message whose tool calls this message belongs to (for that message and its tool results). */
  unit?: number;
}

/** What the policy walks: the scope's messages grouped into exchanges (one chat, a branch, or several chats). */
export interface PolicyScope extends RankScope {
  /**
   * The key of the user message opening the exchange `key` lies in; -1 for none (a summary, before any user message,
   * out of scope).
   */
  exchangeOf(key: number): number;
  /** An exchange's messages in scope, in creation order (summaries left out). */
  members(start: number): readonly number[];
  role(key: number): RecallMessage["role"] | undefined;
  /** Starts of the `n` newest exchanges, newest first. */
  newest(n: number): number[];
}

const ROLES = new Set(["system", "user", "assistant", "tool"]);

function invalid(message: string): CtxloomError {
  return new CtxloomError("INVALID_ARGUMENT", message);
}

/**
 * A chat's messages grouped into exchanges (a user message and every message below it up to
 * the next user message: assistant replies, tool calls and their results), kept as the chat
 * grows: `add` takes each new message once, O(1), so a recall walks only what it touches.
 */
export class ExchangeScope implements PolicyScope {
  readonly #at = new Map<number, number>(); // key -> index
  readonly #list: RecallMessage[] = [];
  readonly #start: number[] = []; // by index: the exchange's start key, -1 for none
  readonly #members = new Map<number, number[]>();
  readonly #children = new Map<number, number[]>();
  readonly #starts: number[] = []; // oldest first

  /** A scope of `messages` (parents first). @throws INVALID_ARGUMENT for a bad message */
  static of(messages: readonly RecallMessage[]): ExchangeScope {
    if (!Array.isArray(messages)) throw invalid(`recall messages must be an array; got ${describe(messages)}.`);
    const scope = new ExchangeScope();
    messages.forEach((m, i) => scope.add(m, i));
    return scope;
  }

  get size(): number {
    return this.#list.length;
  }

  /** Adds the next message (its parent added before). @throws INVALID_ARGUMENT (nothing added) */
  add(m: RecallMessage, i = this.#list.length): void {
    if (m === null || typeof m !== "object")
      throw invalid(`recall message ${i} must be an object; got ${describe(m)}.`);
    checkInteger(m.key, `recall message ${i} key`, 0, 2 ** 31 - 1);
    if (this.#at.has(m.key)) throw invalid(`recall message key ${m.key} appears twice.`);
    if (!ROLES.has(m.role))
      throw invalid(`recall message ${m.key} has role ${describe(m.role)}; expected system, user, assistant or tool.`);
    if (m.kind !== undefined && m.kind !== "message" && m.kind !== "summary")
      throw invalid(`recall message ${m.key} has kind ${describe(m.kind)}; expected "message" or "summary".`);
    const parent = m.parent === -1 ? -1 : this.#at.get(m.parent);
    if (parent === undefined)
      throw invalid(
        `recall message ${m.key} names parent ${describe(m.parent)}, which is not an earlier message (list parents ` +
          `first; -1 for a root).`,
      );
    let start = m.role === "user" && m.kind !== "summary" ? m.key : parent < 0 ? -1 : this.#start[parent]!;
    if (m.unit !== undefined && !(m.unit === m.key && m.role === "assistant")) {
      const head = this.#at.get(m.unit);
      if (head === undefined || this.#list[head]!.role !== "assistant")
        throw invalid(
          `recall message ${m.key} names unit ${describe(m.unit)}, which is not an earlier assistant message.`,
        );
      start = this.#start[head]!; // a tool unit lies in the exchange of its assistant message
    }
    this.#at.set(m.key, this.#list.length);
    this.#list.push(m);
    this.#start.push(m.kind === "summary" ? -1 : start);
    if (m.parent !== -1) {
      const siblings = this.#children.get(m.parent);
      if (siblings) siblings.push(m.key);
      else this.#children.set(m.parent, [m.key]);
    }
    if (start < 0 || m.kind === "summary") return;
    const list = this.#members.get(start);
    if (list) list.push(m.key);
    else {
      this.#members.set(start, [m.key]);
      this.#starts.push(start);
    }
  }

  has(key: number): boolean {
    return this.#at.has(key);
  }

  role(key: number): RecallMessage["role"] | undefined {
    const i = this.#at.get(key);
    return i === undefined ? undefined : this.#list[i]!.role;
  }

  eligible(key: number): boolean {
    const i = this.#at.get(key);
    if (i === undefined) return false;
    const m = this.#list[i]!;
    return (m.role === "user" || m.role === "assistant") && m.kind !== "summary";
  }

  neighbours(key: number): readonly number[] {
    const i = this.#at.get(key);
    if (i === undefined) return [];
    const parent = this.#list[i]!.parent;
    const children = this.#children.get(key) ?? [];
    return parent === -1 ? children : [parent, ...children];
  }

  exchangeOf(key: number): number {
    const i = this.#at.get(key);
    return i === undefined ? -1 : this.#start[i]!;
  }

  members(start: number): readonly number[] {
    return this.#members.get(start) ?? [];
  }

  newest(n: number): number[] {
    return this.#starts.slice(Math.max(0, this.#starts.length - n)).reverse();
  }

  order(key: number): number {
    return this.#at.get(key) ?? -1;
  }
}
