import type { Chat } from "./chat.js";
import { openKey, type ChatCache } from "./chat-cache.js";

/**
 * The chats a Loom holds in memory. Past `max`, the least recently used chats that have
 * finished loading free their engine memory (`chat.unload()`), down to `max` less a
 * sixteenth of it. Every call on a chat counts as
 * a use, so a chat kept and used through a reference is not unloaded for not being reopened.
 * Its store still holds an unloaded chat, and it reloads on its next use.
 */
export class OpenChats implements ChatCache {
  readonly #max: number;
  /** In use order: a Map iterates in insertion order, so a use deletes and sets again. */
  readonly #entries = new Map<string, Promise<Chat>>();
  readonly #loaded = new WeakMap<Promise<Chat>, Chat>();

  constructor(max: number) {
    this.#max = max;
  }

  get(key: string): Promise<Chat> | undefined {
    return this.#entries.get(key);
  }

  loaded(key: string): Chat | undefined {
    const loading = this.#entries.get(key);
    return loading && this.#loaded.get(loading);
  }

  set(key: string, loading: Promise<Chat>): void {
    this.#entries.delete(key);
    this.#entries.set(key, loading);
    if (!this.#loaded.has(loading)) {
      loading.then(
        (chat) => {
          this.#loaded.set(loading, chat);
          this.#unloadOver();
        },
        () => undefined,
      );
    }
    this.#unloadOver();
  }

  delete(key: string, loading?: Promise<Chat>): void {
    if (loading === undefined || this.#entries.get(key) === loading) this.#entries.delete(key);
  }

  /** A chat unloaded earlier woke through a reference its user kept: it counts as open again. */
  woke(chat: Chat): void {
    const key = openKey(chat.userId, chat.id);
    const entry = this.#entries.get(key);
    if (entry && this.#loaded.get(entry) !== chat) return; // another instance holds the place
    const loading = entry ?? Promise.resolve(chat);
    this.#loaded.set(loading, chat);
    this.set(key, loading);
  }

  /**
   * Ends the chat under `key`, if held (its changes called so far land first), and forgets it; the store is not
   * written.
   */
  async retire(key: string): Promise<void> {
    const loading = this.#entries.get(key);
    if (!loading) return;
    const chat = this.#loaded.get(loading) ?? (await loading.catch(() => undefined));
    await chat?.retire();
    this.delete(key, loading);
  }

  /** Ends every chat of the user held here, as `retire`. */
  async retireUser(userId: string): Promise<void> {
    const prefix = openKey(userId, "");
    await Promise.all([...this.#entries.keys()].filter((key) => key.startsWith(prefix)).map((key) => this.retire(key)));
  }

  /** Empties the cache; returns what it held. */
  clear(): Promise<Chat>[] {
    const all = [...this.#entries.values()];
    this.#entries.clear();
    return all;
  }

  get size(): number {
    return this.#entries.size;
  }

  #unloadOver(): void {
    if (this.#entries.size <= this.#max) return;
    // The least recently used chats that have finished loading, down to max less a sixteenth:
    // one O(max log max) pass pays for max / 16 unloads, so a server cycling through more
    // chats than max does not scan the cache on every open.
    const target = this.#max - (this.#max >> 4);
    const loaded: [string, Chat][] = [];
    for (const [key, loading] of this.#entries) {
      const chat = this.#loaded.get(loading);
      if (chat) loaded.push([key, chat]);
    }
    loaded.sort((a, b) => a[1].lastUse - b[1].lastUse);
    for (const [key, chat] of loaded) {
      if (this.#entries.size <= target) return;
      this.#entries.delete(key);
      void chat.unload().catch(() => undefined);
    }
  }
}
