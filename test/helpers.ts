// Shared helpers of the test suite. Every behaviour test runs once per engine.
import { describe, expect } from "vitest";
import {
  CtxloomError,
  Loom,
  memoryStore,
  type Chat,
  type LoomOptions,
  type Message,
  type Store,
  type UserChats,
} from "../src/index.js";
import { JsEngine, WasmEngine, embeddedModule, type Engine, type EngineKind } from "../src/engine/index.js";
import { INTERNAL } from "../src/store/internal.js";

export const ENGINES = ["wasm", "js"] as const satisfies readonly EngineKind[];

/** Registers `body` once per engine, inside `describe("wasm")` and `describe("js")`. */
export function forEachEngine(body: (engine: EngineKind) => void): void {
  for (const engine of ENGINES) describe(engine, () => body(engine));
}

export interface Fixture {
  loom: Loom;
  chats: UserChats;
  chat: Chat;
}

/** A Loom on `engine` with an empty chat of user "alice". */
export async function setup(engine: EngineKind, options: LoomOptions = {}): Promise<Fixture> {
  const loom = await Loom.open({ engine, ...options });
  expect(loom.engine).toBe(engine);
  const chats = loom.user("alice");
  const chat = await chats.create({ title: "test" });
  return { loom, chats, chat };
}

/** A linear conversation of `turns` user/assistant pairs; returns the messages. */
export async function converse(chat: Chat, turns: number, tag = ""): Promise<Message[]> {
  const out: Message[] = [];
  for (let i = 0; i < turns; i++) {
    out.push(await chat.append({ role: "user", content: `q${tag}${i}` }));
    out.push(await chat.append({ role: "assistant", content: `a${tag}${i}` }));
  }
  return out;
}

export const ids = (messages: readonly { id: number }[]): number[] => messages.map((m) => m.id);
export const texts = (messages: readonly Message[]): string[] => messages.map((m) => m.content);

/** Everything observable about a chat (and the user's list), to prove a rejected call changed nothing. */
export async function snapshot(chat: Chat, chats?: UserChats): Promise<unknown> {
  const all = Array.from({ length: chat.messageCount }, (_, i) => chat.get(i));
  return {
    head: chat.head,
    messageCount: chat.messageCount,
    updatedAt: chat.updatedAt,
    path: chat.path(),
    window: chat.window({ maxMessages: 5 }),
    leaves: chat.leaves(),
    roots: chat.roots(),
    children: all.map((m) => chat.children(m.id)),
    all,
    list: chats ? await chats.list() : undefined,
  };
}

function checkError(error: unknown, code: string): void {
  expect(error, `expected a CtxloomError ${code}`).toBeInstanceOf(CtxloomError);
  const e = error as CtxloomError;
  expect(e.code, e.message).toBe(code);
  expect(e.name).toBe("CtxloomError");
  expect(e.message.length).toBeGreaterThan(10); // says what to do
}

/** `fn` must throw synchronously a CtxloomError with this code. */
export function expectThrowCode(fn: () => unknown, code: string): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, `expected ${code}, nothing was thrown`).toBeDefined();
  checkError(error, code);
}

/** `fn` must return a promise (never throw synchronously) that rejects with a CtxloomError with this code. */
export async function expectRejectCode(fn: () => Promise<unknown>, code: string): Promise<void> {
  let promise: Promise<unknown>;
  try {
    promise = fn();
  } catch (e) {
    throw new Error(`expected a rejected promise (${code}), but the call threw synchronously: ${String(e)}`);
  }
  expect(promise).toBeInstanceOf(Promise);
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  expect(error, `expected ${code}, the promise resolved`).toBeDefined();
  checkError(error, code);
}

/**
 * A memoryStore() whose chosen methods fail while `failing` is set: they throw (or reject,
 * with `async: true`) before touching the inner store.
 */
export function flakyStore(options: { async?: boolean } = {}): { store: Store; state: { failing: Set<string> } } {
  const inner = memoryStore();
  const state = { failing: new Set<string>() };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const wrap = <F extends (...args: any[]) => any>(name: string, f: F): F =>
    ((...args: Parameters<F>) => {
      if (state.failing.has(name)) {
        const error = new Error(`disk full (${name})`);
        if (options.async) return Promise.reject(error);
        throw error;
      }
      return f(...args);
    }) as F;
  const store: Store = {
    name: "flaky",
    hasChat: wrap("hasChat", inner.hasChat.bind(inner)),
    createChat: wrap("createChat", inner.createChat.bind(inner)),
    importChat: wrap("importChat", inner.importChat.bind(inner)),
    appendMessage: wrap("appendMessage", inner.appendMessage.bind(inner)),
    setHead: wrap("setHead", inner.setHead.bind(inner)),
    deleteChat: wrap("deleteChat", inner.deleteChat.bind(inner)),
    listChats: wrap("listChats", inner.listChats.bind(inner)),
    loadChat: wrap("loadChat", inner.loadChat.bind(inner)),
    putEmbeddings: wrap("putEmbeddings", inner.putEmbeddings.bind(inner)),
    loadEmbeddings: wrap("loadEmbeddings", inner.loadEmbeddings.bind(inner)),
    clearEmbeddings: wrap("clearEmbeddings", inner.clearEmbeddings.bind(inner)),
    flush: wrap("flush", inner.flush.bind(inner)),
    close: () => inner.close(),
  };
  return { store, state };
}

/** A bare engine of this kind (the WASM one instantiated from the embedded core). */
export async function makeEngine(kind: EngineKind, options: { maxMemoryMB?: number } = {}): Promise<Engine> {
  return kind === "js" ? new JsEngine() : WasmEngine.create(await embeddedModule(), options);
}

/** Everything the engine says about a tree. */
/** A walk's ids as an array: `walk` writes them to the engine's long-lived `ids` view. */
export function walkIds(e: Engine, t: number, head: number, max: number): number[] {
  const n = e.walk(t, head, max);
  return Array.from(e.ids.subarray(0, n));
}

export function dumpTree(e: Engine, t: number) {
  const n = e.size(t);
  const nodes = Array.from({ length: n }, (_, id) => ({
    parent: e.parent(t, id),
    depth: e.depth(t, id),
    tokens: e.tokens(t, id),
    role: e.role(t, id),
    priority: e.priority(t, id),
    flags: e.flags(t, id),
    children: e.children(t, id),
  }));
  return { size: n, roots: e.children(t, -1), leaves: e.leaves(t), nodes };
}

/**
 * Everything a chat answers, compared across Looms and engines after a restore: messages,
 * ids, branches, head, every leaf's path, windows and contexts (building a context moves
 * nothing, so this reads only).
 */
export async function observe(chat: Chat): Promise<unknown> {
  const n = chat.messageCount;
  const leaves = chat.leaves();
  return {
    head: chat.head,
    messages: Array.from({ length: n }, (_, i) => chat.get(i)),
    children: Array.from({ length: n }, (_, i) => chat.children(i)),
    roots: chat.roots(),
    leaves,
    paths: leaves.map((leaf) => chat.path(leaf).map((m) => m.id)),
    path: chat.path(),
    windows: [1, 3, 40].map((w) => chat.window({ maxMessages: w }).map((m) => m.id)),
    context:
      n === 0
        ? null
        : await chat
            .buildContext({ maxMessages: 50 })
            .then((c) => ({ usage: c.usage, ids: c.conversation.map((m) => m.id), messages: c.messages })),
  };
}

/**
 * Spread into a store made of memoryStore()'s methods (after `...inner`): the store then has none
 * of the memory store's fast paths (src/store/internal.ts), and the Loom takes the Store's own path,
 * as for a store of a user's.
 */
export const withoutFastPaths = { [INTERNAL]: undefined };
