import { CtxloomError, checkInteger, describe } from "../errors.js";

/**
 * Keys for a recall scope that spans several chats (a user's memory): each (chat, message id)
 * pair gets an integer key, handed out in the order pairs are first seen, so keys follow
 * creation order like message ids do. Kept in TypeScript; the index only sees the keys.
 */
export class KeyMap {
  readonly #keys = new Map<string, Map<number, number>>();
  readonly #pairs: ({ chat: string; id: number } | undefined)[] = [];

  /** The key of (chat, id), handed out now if it has none. Throws INVALID_ARGUMENT for a bad chat or id. */
  key(chat: string, id: number): number {
    if (typeof chat !== "string" || chat === "")
      throw new CtxloomError("INVALID_ARGUMENT", `A chat id must be a non-empty string; got ${describe(chat)}.`);
    checkInteger(id, "A message id", 0);
    let ids = this.#keys.get(chat);
    if (!ids) this.#keys.set(chat, (ids = new Map()));
    let key = ids.get(id);
    if (key === undefined) {
      if (this.#pairs.length >= 2 ** 31 - 1)
        throw new CtxloomError(
          "OUT_OF_MEMORY",
          "A recall scope holds at most 2^31 - 1 messages; clear it or split it.",
        );
      key = this.#pairs.length;
      ids.set(id, key);
      this.#pairs.push({ chat, id });
    }
    return key;
  }

  /** The key of (chat, id), or undefined when it has none. */
  find(chat: string, id: number): number | undefined {
    return this.#keys.get(chat)?.get(id);
  }

  /** The (chat, id) pair of a key, or undefined. */
  pair(key: number): { chat: string; id: number } | undefined {
    return this.#pairs[key];
  }

  /** Forgets a chat's keys (they are not handed out again) and returns them, to remove from the indexes. */
  forgetChat(chat: string): number[] {
    const ids = this.#keys.get(chat);
    if (!ids) return [];
    this.#keys.delete(chat);
    const keys = [...ids.values()];
    for (const key of keys) this.#pairs[key] = undefined;
    return keys;
  }
}
