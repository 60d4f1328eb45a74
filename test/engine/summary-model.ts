// A brute-force model of summary nodes (docs/summaries.md), written from the definitions and
// not from the engines' mechanics: runs are sets of nodes, the summarized path replaces each
// maximal applicable run (on the path, above the head's newest user turn) by its summary,
// the selection is reference.ts's over that path.
import {
  FLAG_SUMMARY,
  FLAG_TOOL_CALLS,
  FLAG_UNIT_END,
  SUMMARY_NOT_ANCESTOR,
  SUMMARY_OF_SUMMARY_NODE,
  SUMMARY_OVERLAP,
  SUMMARY_SPLITS_UNIT,
} from "../../src/engine/layout.js";
import { ASSISTANT, TOOL, USER, selectOnPath, type Node, type Ref } from "./reference.js";

export class SummaryModel {
  /** Every node by id: messages, and summaries (parent: the parent of the run's first). */
  readonly nodes: Node[] = [];
  /** The run of each summary node. */
  readonly runs = new Map<number, { first: number; last: number }>();

  append(parent: number, tokens: number, role: number, priority: number, flags: number): number {
    this.nodes.push({ parent, tokens, role, priority, flags });
    return this.nodes.length - 1;
  }

  isSummary(id: number): boolean {
    return this.runs.has(id);
  }

  depth(id: number): number {
    let d = 0;
    for (let x = this.nodes[id]!.parent; x >= 0; x = this.nodes[x]!.parent) d++;
    return d;
  }

  /** Ids root -> id through parents (for a summary: the originals above its run, then itself). */
  path(id: number): number[] {
    const out: number[] = [];
    for (let x = id; x >= 0; x = this.nodes[x]!.parent) out.push(x);
    return out.reverse();
  }

  /** The nodes of a summary's run. */
  runSet(s: number): Set<number> {
    const { first, last } = this.runs.get(s)!;
    const set = new Set<number>();
    for (let x = last; ; x = this.nodes[x]!.parent) {
      set.add(x);
      if (x === first) return set;
    }
  }

  /**
   * The summarized path root -> head: each maximal applicable run replaced by its summary. A
   * run applies when its last is on the path and, unless `fromBelow`, lies above the head's
   * newest user message (the turn from that message down is never summarized); on a branch
   * with no user message every run on the path applies.
   */
  summarizedPath(head: number, fromBelow = false): number[] {
    if (this.isSummary(head)) {
      const p = this.nodes[head]!.parent;
      return [...(p >= 0 ? this.summarizedPath(p, true) : []), head];
    }
    const path = this.path(head);
    const onPath = new Set(path);
    const users = path.filter((x) => this.nodes[x]!.role === USER);
    const turn = fromBelow || users.length === 0 ? Infinity : this.depth(users[users.length - 1]!);
    const applicable = [...this.runs.keys()].filter(
      (s) => onPath.has(this.runs.get(s)!.last) && this.depth(this.runs.get(s)!.last) < turn,
    );
    const sets = new Map(applicable.map((s) => [s, this.runSet(s)]));
    // Maximal: not inside another applicable run (of equal runs, the newest).
    const maximal = applicable.filter((s) =>
      applicable.every((o) => {
        if (o === s) return true;
        const a = sets.get(s)!;
        const b = sets.get(o)!;
        const inside = [...a].every((x) => b.has(x));
        return !inside || (a.size === b.size && s > o);
      }),
    );
    const out: number[] = [];
    for (const x of path) {
      const s = maximal.find((m) => sets.get(m)!.has(x));
      if (s === undefined) out.push(x);
      else if (this.runs.get(s)!.first === x) out.push(s);
    }
    return out;
  }

  /** What attachSummary returns: the new id, or the refusal code (and nothing changes). */
  attach(first: number, last: number, tokens: number, priority: number): number {
    if (this.isSummary(first) || this.isSummary(last)) return SUMMARY_OF_SUMMARY_NODE;
    const df = this.depth(first);
    if (df > this.depth(last)) return SUMMARY_NOT_ANCESTOR;
    const segment = new Set(this.path(last).filter((x) => this.depth(x) >= df));
    for (const s of this.runs.keys()) {
      const run = [...this.runSet(s)];
      if (run.some((x) => segment.has(x)) && !run.every((x) => segment.has(x))) return SUMMARY_OVERLAP;
    }
    if (!segment.has(first)) return SUMMARY_NOT_ANCESTOR;
    const f = this.nodes[first]!;
    const l = this.nodes[last]!;
    if (f.role === TOOL) return SUMMARY_SPLITS_UNIT;
    if ((l.role === ASSISTANT && l.flags & FLAG_TOOL_CALLS) || (l.role === TOOL && !(l.flags & FLAG_UNIT_END)))
      return SUMMARY_SPLITS_UNIT;
    this.nodes.push({ parent: f.parent, tokens, role: 0, priority, flags: FLAG_SUMMARY });
    const id = this.nodes.length - 1;
    this.runs.set(id, { first, last });
    return id;
  }

  /** The selection over the head's summarized path; a summary counts the messages of its run as evicted (none forced from a summary node). */
  select(head: number, budget: number, maxMessages: number): Ref {
    return selectOnPath(this.nodes, this.summarizedPath(head), budget, maxMessages, {
      carried: (id) => (this.isSummary(id) ? this.runSet(id).size : 1),
      forceUser: !this.isSummary(head),
    });
  }

  /** The tree view: children in creation order (summaries are nobody's children), leaves. */
  children(id: number): number[] {
    return this.nodes.flatMap((n, i) => (n.parent === id && !this.isSummary(i) ? [i] : []));
  }

  leaves(): number[] {
    return this.nodes.flatMap((_, i) => (!this.isSummary(i) && this.children(i).length === 0 ? [i] : []));
  }
}
