// The evaluation set's shape (conversations, turns, sessions and questions per kind, by part)
// and a fingerprint of its text: shared by its tests and bench/recall-quality.ts.
import { KINDS, type Conversation } from "./generate.js";

/** The set's shape: conversations, turns, sessions and questions per kind, by part; a fingerprint of its text. */
export function describeSet(set: readonly Conversation[]): Record<string, string | number>[] {
  return (["tuning", "held-out"] as const).map((part) => {
    const cs = set.filter((c) => c.heldOut === (part === "held-out"));
    const turns = cs.map((c) => c.turns.length);
    const row: Record<string, string | number> = {
      part,
      conversations: cs.map((c) => c.id).join(", "),
      turns: `${Math.min(...turns)}-${Math.max(...turns)} (${turns.reduce((a, b) => a + b, 0)})`,
      sessions: `${Math.min(...cs.map((c) => c.sessions.length))}-${Math.max(...cs.map((c) => c.sessions.length))}`,
      questions: cs.reduce((n, c) => n + c.questions.length, 0),
    };
    for (const kind of KINDS) row[kind] = cs.reduce((n, c) => n + c.questions.filter((q) => q.kind === kind).length, 0);
    return row;
  });
}

/** FNV-1a of every turn and question: changes when the generator's output does. */
export function fingerprint(set: readonly Conversation[]): string {
  let h = 0x811c9dc5;
  for (const c of set) {
    for (const s of [
      ...c.turns.map((t) => t.text),
      ...c.questions.map((q) => `${q.question}|${q.evidence.join(",")}`),
    ]) {
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    }
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}
