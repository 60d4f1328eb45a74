import { CtxloomError } from "../errors.js";
import type { Engine } from "../engine/types.js";
import { CRITICAL, FLAG_SUMMARY, FLAG_TOOL_CALLS, FLAG_UNIT_END, ROLE_TOOL } from "../engine/types.js";
import { PRIORITIES, ROLES, type CompactionProvider, type ContentPart, type Message } from "../message.js";
import { isReasoning } from "../parts.js";
import type { ToolUnit } from "../context/tool-units.js";
import type { OpenAIMessage } from "../context/format.js";
import { MessageColumns } from "../store/columns.js";
import { SummaryLedger } from "../summary/ledger.js";
import { SHARED_FROM, SentCache, runIds, sendableOf } from "./sent-cache.js";
import { ToolViewCache, type ToolViewSource } from "../context/view-source.js";
import type { Sender } from "../context/source.js";

/**
 * A chat's messages in memory: the shape and numbers in the engine (one tree), the texts and
 * optional fields in columns by id. The columns are the store's own when it keeps them in
 * this process (the memory store), so a message is held once; else the chat's.
 */
export class ChatNodes implements ToolViewSource, Sender {
  readonly engine: Engine;
  readonly tree: number;
  #texts: MessageColumns;
  #shared: boolean;
  // Made at first use: most chats hold no summary and no tool call, and a server keeps
  // thousands open, each object of theirs marked by every full collection.
  #summaries: SummaryLedger | null = null;
  /** Assistant messages by the ids of their tool calls (a call id is rarely used twice). */
  #callOwners: Map<string, number | number[]> | null = null;
  #criticalCalls = 0;
  /** What the last long context sent (made at the first long context in the OpenAI format; dropped at a short one). */
  #sent: SentCache | null = null;
  #reusedCalls = false;
  /** The most tokens a tool result costs (0: none linked). */
  #largestResult = 0;
  /** Messages holding reasoning, and those holding compactions by provider (made at the first one). */
  #reasoning: Set<number> | null = null;
  #compactions: Map<number, CompactionProvider[]> | null = null;
  #views: ToolViewCache | null = null;
  #viewsAt = 0;
  #viewsOf: MessageColumns | null = null;
  /** A summary was linked: a selection may then keep one in place of its run (no run of the path). */
  #summarized = false;

  /**
   * `resident`: the store's own columns (shared); `loaded`: columns a store filled for this
   * chat (its own from now on; restore links what they hold). Throws OUT_OF_MEMORY when the
   * engine cannot make a tree.
   */
  constructor(engine: Engine, resident?: MessageColumns, loaded?: MessageColumns) {
    this.engine = engine;
    this.tree = engine.createTree();
    this.#texts = resident ?? loaded ?? new MessageColumns();
    this.#shared = resident !== undefined;
  }

  /** The summaries of this tree: attached to the engine, with what each replaced. */
  get summaries(): SummaryLedger {
    return (this.#summaries ??= new SummaryLedger(this));
  }

  /**
   * Reads texts from the store's columns from now on, when they hold exactly what this chat holds (after an import).
   */
  adopt(resident: MessageColumns | undefined): void {
    if (!resident || this.#shared || resident.size !== this.#texts.size) return;
    this.#texts = resident;
    this.#shared = true;
  }

  get size(): number {
    return this.engine.size(this.tree);
  }

  /** Room for one more node, so that linking cannot fail after a store write. Throws OUT_OF_MEMORY. */
  reserveNext(): void {
    this.engine.reserve(this.tree, this.size + 1);
    if (!this.#shared) this.#texts.reserve(this.size + 1);
  }

  /** Adds message `m` (its id is the next one). */
  link(m: Message, unitEnd: boolean): void {
    if (this.#texts.size <= m.id) {
      if (this.#shared)
        throw new CtxloomError(
          "STORE_CORRUPT",
          `The store does not hold message ${m.id} it acknowledged; reopen the chat.`,
        );
      this.#texts.push(m);
    }
    this.linkHeld(m.id, unitEnd);
  }

  /** The columns this chat reads its messages from. */
  get columns(): MessageColumns {
    return this.#texts;
  }

  /** Adds message `id` (the next one), which the columns hold already, reading its fields there. */
  linkHeld(id: number, unitEnd: boolean): void {
    const cols = this.#texts;
    const x = cols.extrasOf(id);
    if (cols.kindOf(id) === "summary") {
      // A summary is no child (FLAG_SUMMARY is attachSummary's alone).
      const { first, last } = x!.covers!;
      this.summaries.attach(id, first, last, cols.tokensOf(id), cols.priorityCodeOf(id));
      this.#summarized = true;
      return;
    }
    let flags = 0;
    if (x?.toolCalls) flags |= FLAG_TOOL_CALLS;
    if (unitEnd) flags |= FLAG_UNIT_END;
    const tokens = cols.tokensOf(id);
    const role = cols.roleCodeOf(id);
    this.engine.append(this.tree, cols.parentOf(id), tokens, role, cols.priorityCodeOf(id), flags);
    if (role === ROLE_TOOL && tokens > this.#largestResult) this.#largestResult = tokens;
    if (x?.parts) this.#noteParts(id, x.parts);
    if (x?.toolCalls) {
      for (const c of x.toolCalls) this.#addOwner(c.id, id);
      if (cols.priorityCodeOf(id) === CRITICAL) this.#criticalCalls++;
    }
  }

  #noteParts(id: number, parts: readonly ContentPart[]): void {
    const providers: CompactionProvider[] = [];
    for (const p of parts) {
      if (isReasoning(p)) (this.#reasoning ??= new Set()).add(id);
      else if (p.type === "compaction" && !providers.includes(p.provider)) providers.push(p.provider);
    }
    if (providers.length > 0) (this.#compactions ??= new Map()).set(id, providers);
  }

  /** Whether any message of the chat holds reasoning. */
  get reasoning(): boolean {
    return this.#reasoning !== null;
  }

  /** Whether message `id` holds reasoning. */
  reasoningIn(id: number): boolean {
    return this.#reasoning?.has(id) === true;
  }

  /** Whether any message of the chat holds a provider's compaction. */
  get compactions(): boolean {
    return this.#compactions !== null;
  }

  /** Whether message `id` holds a compaction (made by `provider`, when given). */
  compactionIn(id: number, provider?: CompactionProvider): boolean {
    const providers = this.#compactions?.get(id);
    return providers !== undefined && (provider === undefined || providers.includes(provider));
  }

  /** The most tokens a tool result of the chat costs (0: it holds none). */
  get largestResult(): number {
    return this.#largestResult;
  }

  /** Whether any message of the chat made tool calls. */
  get toolCalls(): boolean {
    return this.#callOwners !== null;
  }

  /**
   * What the chat's context views keep between builds: made again once the columns rewrote a
   * message (a redaction), so that no view sends a text or part the chat no longer holds.
   */
  get cache(): ToolViewCache {
    if (this.#views === null || this.#viewsAt !== this.#texts.rewrites || this.#viewsOf !== this.#texts) {
      this.#views = new ToolViewCache();
      this.#viewsAt = this.#texts.rewrites;
      this.#viewsOf = this.#texts;
    }
    return this.#views;
  }

  /** The name of the tool whose call tool result `id` answers (its unit's assistant message made the call). */
  toolName(id: number): string {
    const e = this.engine;
    let x = e.parent(this.tree, id);
    while (x >= 0 && e.role(this.tree, x) === ROLE_TOOL) x = e.parent(this.tree, x);
    const callId = this.#texts.extras.get(id)?.toolCallId;
    const call = x < 0 ? undefined : this.#texts.extras.get(x)?.toolCalls?.find((c) => c.id === callId);
    return call?.function.name ?? "";
  }

  /**
   * CRITICAL assistant messages with tool calls in the tree (priorities never change): with none, builds skip their
   * check.
   */
  get criticalCalls(): number {
    return this.#criticalCalls;
  }

  #addOwner(callId: string, id: number): void {
    const byCall = (this.#callOwners ??= new Map());
    const owners = byCall.get(callId);
    if (owners === undefined) byCall.set(callId, id);
    else {
      this.#reusedCalls = true;
      if (typeof owners === "number") byCall.set(callId, [owners, id]);
      else owners.push(id);
    }
  }

  /** Whether two messages of the chat made calls of the same id (a later call reusing an answered one's). */
  get reusedCalls(): boolean {
    return this.#reusedCalls;
  }

  /** The first message of the chat that made a call of this id (-1: none). */
  firstCallOwner(callId: string): number {
    const owners = this.#callOwners?.get(callId);
    return owners === undefined ? -1 : typeof owners === "number" ? owners : owners[0]!;
  }

  /** True when `a` is `id` or one of its ancestors. */
  isAncestor(a: number, id: number): boolean {
    const e = this.engine;
    const depth = e.depth(this.tree, a);
    while (id >= 0 && e.depth(this.tree, id) > depth) id = e.parent(this.tree, id);
    return id === a;
  }

  parent(id: number): number {
    return this.engine.parent(this.tree, id);
  }

  roleOf(id: number): Message["role"] {
    return ROLES[this.engine.role(this.tree, id)]!;
  }

  /**
   * False when no tool unit can be open at `id` (neither a tool result nor a message with tool calls): no unit to
   * check.
   */
  mayOpenUnit(id: number): boolean {
    return this.engine.role(this.tree, id) === ROLE_TOOL || (this.engine.flags(this.tree, id) & FLAG_TOOL_CALLS) !== 0;
  }

  /** The tool unit `id` belongs to: the assistant message with calls above a run of results ending at `id`, or null. */
  unitAt(id: number): ToolUnit | null {
    // No message with tool calls linked (their calls make #callOwners): no unit, and no engine call.
    if (this.#callOwners === null) return null;
    const e = this.engine;
    let x = id;
    while (x >= 0 && e.role(this.tree, x) === ROLE_TOOL) x = e.parent(this.tree, x);
    // (every append asks: no Set made for the usual answer)
    if (x < 0 || !(e.flags(this.tree, x) & FLAG_TOOL_CALLS)) return null;
    const answered = new Set<string>();
    for (let r = id; r !== x; r = e.parent(this.tree, r)) answered.add(this.#texts.extras.get(r)!.toolCallId!);
    return { calls: this.#texts.extras.get(x)!.toolCalls!, answered, priority: PRIORITIES[e.priority(this.tree, x)]! };
  }

  /**
   * Message `id` as a new object: changing it changes nothing held. Read from the columns
   * alone (they hold what the engine holds: parent, role, priority, tokens, kind, a summary's
   * run), so no field costs a call into the engine.
   */
  message(id: number): Message {
    return this.#texts.message(id);
  }

  /**
   * Writes messages `ids` as the OpenAI format sends them into `into` from `at`; returns how many are summaries,
   * written as null (see SentCache).
   */
  sendable(ids: Int32Array, into: (OpenAIMessage | null)[], at: number): number {
    if (ids.length >= SHARED_FROM)
      return (this.#sent ??= new SentCache()).send(ids, this.#texts, (id) => sendableOf(this.#texts, id), into, at);
    // A short context: made anew, with no cache (a server's thousands of short chats keep none).
    this.#sent = null;
    let summaries = 0;
    for (let k = 0; k < ids.length; k++) if ((into[at + k] = sendableOf(this.#texts, ids[k]!)) === null) summaries++;
    return summaries;
  }

  /**
   * Whether `ids` (a selection, oldest first) are a run of the chat's path: every message from the
   * first to the last, no summary among them. O(1): ids on one path are distinct, so as many as
   * the depths they span are all of them.
   */
  isRun(ids: Int32Array): boolean {
    const n = ids.length;
    if (n === 0 || this.#summarized) return false;
    return this.engine.depth(this.tree, ids[n - 1]!) - this.engine.depth(this.tree, ids[0]!) + 1 === n;
  }

  /**
   * The messages of a long run (see isRun) as the OpenAI format sends them, sharing the last long context's: an array
   * the caller copies (see SentCache.sendRun); null for a short one.
   */
  sendRun(ids: Int32Array): readonly OpenAIMessage[] | null {
    if (ids.length < SHARED_FROM || !this.isRun(ids)) return null;
    return (this.#sent ??= new SentCache()).sendRun(ids, this.#texts, (id) => sendableOf(this.#texts, id));
  }

  /**
   * A selection's ids (maybe a view the engine reuses) as a context keeps them: a run of the
   * path (see isRun) by its last message and length, read back from the columns when asked
   * (no copy); otherwise a copy.
   */
  heldIds(ids: Int32Array): Int32Array | (() => Int32Array) {
    if (!this.isRun(ids)) return ids.slice();
    const columns = this.#texts;
    const last = ids[ids.length - 1]!;
    const n = ids.length;
    return () => runIds(columns, last, n);
  }

  /** The last `max` messages of the branch ending at `head`, oldest first. O(W). */
  walk(head: number, max: number): Message[] {
    const n = this.engine.walk(this.tree, head, max);
    const ids = this.engine.ids.slice(0, n); // a copy: the engine reuses its view at the next call
    const out = new Array<Message>(n);
    for (let i = 0; i < n; i++) out[i] = this.message(ids[i]!);
    return out;
  }

  /** True when `id` is a summary node. */
  isSummary(id: number): boolean {
    return (this.engine.flags(this.tree, id) & FLAG_SUMMARY) !== 0;
  }

  /** Frees the engine's tree. */
  drop(): void {
    this.engine.dropTree(this.tree);
  }
}
