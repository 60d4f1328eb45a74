// Test helpers: a tree read independently from a raw file, and the same views of a ChatExport,
// so that tests compare message counts, leaves, every root-to-leaf path and the head's path.
import { expect } from "vitest";
import type { ChatExport } from "../../src/store/portable.js";

export interface RawTreeNode {
  key: string;
  parent: string | null;
  role: string;
  text: string;
  /** false for a node the import leaves out (its children move up). */
  keep: boolean;
}

export interface TreeView {
  messages: number;
  leaves: number;
  /** Every root-to-leaf path as "role: text" lines, sorted. */
  paths: string[][];
  /** The root-to-head path. */
  head: string[];
}

const line = (role: string, text: string) => `${role}: ${text}`;

/** The tree a raw file describes, with left-out nodes passed over. */
export function expectedView(nodes: RawTreeNode[], headKey: string | null): TreeView {
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const keptUp = (key: string | null): RawTreeNode | null => {
    let n = key === null ? undefined : byKey.get(key);
    while (n && !n.keep) n = n.parent === null ? undefined : byKey.get(n.parent);
    return n ?? null;
  };
  const kept = nodes.filter((n) => n.keep);
  const pathTo = (n: RawTreeNode | null): string[] => {
    const out: string[] = [];
    for (let m = n; m; m = keptUp(m.parent)) out.unshift(line(m.role, m.text));
    return out;
  };
  const hasChild = new Set(kept.map((n) => keptUp(n.parent)?.key).filter((k) => k !== undefined));
  const leaves = kept.filter((n) => !hasChild.has(n.key));
  return {
    messages: kept.length,
    leaves: leaves.length,
    paths: leaves.map(pathTo).sort(compare),
    head: pathTo(keptUp(headKey)),
  };
}

/** The same views of an imported chat; also checks that every parent comes before its children. */
export function actualView(exp: ChatExport): TreeView {
  exp.messages.forEach((m, i) => {
    expect(m.id).toBe(i);
    if (m.parentId !== null) expect(m.parentId).toBeLessThan(m.id);
  });
  const pathTo = (id: number | null): string[] => {
    const out: string[] = [];
    for (
      let m = id === null ? undefined : exp.messages[id];
      m;
      m = m.parentId === null ? undefined : exp.messages[m.parentId]
    ) {
      out.unshift(line(m.role, m.content));
    }
    return out;
  };
  const hasChild = new Set(exp.messages.map((m) => m.parentId));
  const leaves = exp.messages.filter((m) => !hasChild.has(m.id));
  return {
    messages: exp.messages.length,
    leaves: leaves.length,
    paths: leaves.map((m) => pathTo(m.id)).sort(compare),
    head: pathTo(exp.head),
  };
}

function compare(a: string[], b: string[]): number {
  const x = a.join("\u0000");
  const y = b.join("\u0000");
  return x < y ? -1 : x > y ? 1 : 0;
}
