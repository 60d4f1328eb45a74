// The store contract (ctxloom/store/contract): the cases every store of ctxloom passes, for any
// test runner. Each case makes a fresh store with the caller's factory, runs, closes the store,
// and rejects with what differed. No test framework here: workers and pages bundle this file.
import { CtxloomError, describe } from "../errors.js";
import { badCalls } from "./contract-calls.js";
import { contractChat, contractState, outcome } from "./contract-fixtures.js";
import { CHAT_CASES } from "./contract-chats.js";
import { WRITE_CASES } from "./contract-writes.js";
import { expectedMemoryCases, memoryStoreCases } from "./contract-memory.js";
import { RETENTION_CASES } from "./contract-retention.js";
import { STORE_METHODS, type Awaitable, type Store } from "./types.js";

/**
 * The methods a Store may leave out (each needed by one feature: see Store); a contract case that calls one says so.
 */
export type OptionalStoreMethod =
  | "redactMessages"
  | "eraseUser"
  | "pruneChats"
  | "markEmbeddingsCleared"
  | "loadEmbeddingsCleared"
  | "loadMemory"
  | "loadMemoryHistory"
  | "writeMemory"
  | "deleteMemory";

const OPTIONAL: readonly OptionalStoreMethod[] = [
  "redactMessages",
  "eraseUser",
  "pruneChats",
  "markEmbeddingsCleared",
  "loadEmbeddingsCleared",
  "loadMemory",
  "loadMemoryHistory",
  "writeMemory",
  "deleteMemory",
];
const MARKS: readonly OptionalStoreMethod[] = ["markEmbeddingsCleared", "loadEmbeddingsCleared"];
const MEMORY: readonly OptionalStoreMethod[] = ["loadMemory", "loadMemoryHistory", "writeMemory", "deleteMemory"];

/** One case of the store contract. */
export interface StoreContractCase {
  /** What it checks, e.g. "appendMessage: lands only as the chat's next id, ...". */
  readonly name: string;
  /** The optional Store methods it calls (none for a case of the required ones). */
  readonly uses: readonly OptionalStoreMethod[];
  /**
   * Runs the case on a store of its own (made by the factory, closed after): resolves when the
   * store passes, rejects with an Error listing what it answered otherwise. Takes no `this`.
   */
  run(): Promise<void>;
}

/** Options of `storeContract`. */
export interface StoreContractOptions {
  /** Optional Store methods the store does not have: the cases calling any of them are left out. */
  without?: readonly OptionalStoreMethod[];
}

/**
 * The store contract: the cases every store of ctxloom passes, for a store of your own. Each
 * case calls `makeStore()` for a store holding nothing, runs on it and closes it, so give a
 * factory of empty stores (a fresh key prefix, database or map each time). Run the cases with
 * any test runner, e.g. `for (const c of storeContract(make)) test(c.name, c.run)` with vitest,
 * jest or node:test. A store without some of the optional methods names them in `without`.
 */
export function storeContract(
  makeStore: () => Awaitable<Store>,
  options: StoreContractOptions = {},
): StoreContractCase[] {
  if (typeof makeStore !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `storeContract takes a function that makes an empty store; got ${describe(makeStore)}.`,
    );
  }
  const without = checkOptions(options);
  const memory = !MEMORY.some((m) => without.includes(m));
  const specs: Spec[] = [
    ...Object.entries(groupedBadCalls()).map(
      ([group, uses]): Spec => ({
        name: `${group}: refuses bad calls with their codes, changing nothing`,
        uses,
        run: (store) => refusals(store, group, memory),
        expected: () => expectedRefusals(group),
      }),
    ),
    ...[...CHAT_CASES, ...WRITE_CASES].map(
      (c): Spec => ({ name: c.name, uses: [], run: c.run, expected: () => c.expected }),
    ),
    ...RETENTION_CASES.map((c): Spec => ({ name: c.name, uses: c.uses, run: c.run, expected: () => c.expected })),
    {
      name:
        "memory: revisions compared-and-set, newest records, history, a chat's own memory, deletes, texts kept " +
        "exactly",
      uses: MEMORY,
      run: memoryStoreCases,
      expected: expectedMemoryCases,
    },
  ];
  return specs
    .filter((spec) => !spec.uses.some((m) => without.includes(m)))
    .map((spec) => ({ name: spec.name, uses: spec.uses, run: () => runCase(makeStore, spec) }));
}

/** A case as the suite holds it: what it sees on a fresh store, and what it must see. */
interface Spec {
  name: string;
  uses: readonly OptionalStoreMethod[];
  run(store: Store): Promise<Record<string, unknown>>;
  expected(): Record<string, unknown>;
}

function checkOptions(options: unknown): readonly OptionalStoreMethod[] {
  if (options === null || typeof options !== "object") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `storeContract's options must be an object ({ without? }); got ${describe(options)}.`,
    );
  }
  for (const key of Object.keys(options)) {
    if (key !== "without")
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `storeContract: unknown option ${describe(key)}; the one option is without.`,
      );
  }
  const without = (options as StoreContractOptions).without ?? [];
  if (!Array.isArray(without) || without.some((m) => !OPTIONAL.includes(m))) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `storeContract: without lists optional Store methods (${OPTIONAL.join(", ")}); got ${describe(without)}.`,
    );
  }
  return without;
}

async function runCase(makeStore: () => Awaitable<Store>, spec: Spec): Promise<void> {
  const store = await makeStore();
  const missing = [...STORE_METHODS, ...spec.uses].filter(
    (m) => typeof (store as unknown as Record<string, unknown>)[m] !== "function",
  );
  if (missing.length) {
    throw new Error(
      `The store has no ${missing.join(", ")}: implement it, or name it in storeContract's option without.`,
    );
  }
  let seen: Record<string, unknown>;
  try {
    seen = await spec.run(store);
  } finally {
    await store.close();
  }
  const expected = spec.expected();
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(seen)])];
  const differ = keys.filter((k) => canonical(seen[k]) !== canonical(expected[k]));
  if (differ.length) {
    const lines = differ.map(
      (k) => `  ${k}: expected ${canonical(expected[k]) ?? "nothing"}, got ${canonical(seen[k]) ?? "nothing"}`,
    );
    throw new Error(`${spec.name}: the store answered otherwise:\n${lines.join("\n")}`);
  }
}

/**
 * A value as JSON with keys in order, properties set to undefined left out and typed arrays as arrays: equal when the
 * same.
 */
function canonical(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>);
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** The label's group ("memory write: a path..." -> "memory write") -> the optional methods its calls use. */
function groupedBadCalls(): Record<string, readonly OptionalStoreMethod[]> {
  const uses: Record<string, readonly OptionalStoreMethod[]> = {
    redact: ["redactMessages"],
    erase: ["eraseUser"],
    prune: ["pruneChats"],
    "memory load": ["loadMemory"],
    "memory history": ["loadMemoryHistory"],
    "memory write": ["writeMemory"],
    "memory delete": ["deleteMemory"],
    "clear mark": MARKS,
  };
  const groups: Record<string, readonly OptionalStoreMethod[]> = {};
  for (const [what] of badCalls(null as unknown as Store)) {
    const group = groupOf(what);
    groups[group] = uses[group] ?? [];
  }
  return groups;
}

const groupOf = (label: string): string => label.slice(0, label.indexOf(":"));

/** Each bad call of the group: its code (or "none"), and whether the store holds what it held before. */
async function refusals(store: Store, group: string, memory: boolean): Promise<Record<string, unknown>> {
  await contractChat(store, memory);
  const before = canonical(await contractState(store, memory));
  const out: Record<string, unknown> = {};
  for (const [what, call] of badCalls(store)) if (groupOf(what) === group) out[what] = await outcome(call);
  out["nothing changed"] = canonical(await contractState(store, memory)) === before;
  return out;
}

function expectedRefusals(group: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [what, , code] of badCalls(null as unknown as Store)) if (groupOf(what) === group) out[what] = code;
  out["nothing changed"] = true;
  return out;
}
