// LoCoMo (snap-research/locomo, data/locomo10.zip: ten long two-person conversations over dated
// sessions, with questions whose evidence turns are marked) read at run time from the first
// folder holding its conversations (*.json) of:
//   $CTXLOOM_LOCOMO, then /work/locomo/data/multimodal_dialog/locomo10_v2
// The data is not the project's and is never copied into it; without the folder the suite
// says so and measures nothing (a fresh clone, CI).
//
// Each conversation becomes the evaluation set's shape (test/recall/eval/generate.ts): turns in
// order, the first speaker's as a chat's user, the other's as its assistant, each at its
// session's date and time; an image a turn shares is kept as its caption, on a line of its own.
// Question categories, as the LoCoMo paper numbers them: 1 multi-hop, 2 temporal,
// 3 open-domain, 4 single-hop; 5 (adversarial: no answer in the conversation) is left out,
// as are questions none of whose evidence ids names a turn (4 of 1,540 with no evidence).

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Conversation, Question, Session, Turn } from "../../test/recall/eval/generate.js";
import type { Kind } from "../../test/recall/eval/topic-kit.js";

export const LOCOMO_DEFAULT = "/work/locomo/data/multimodal_dialog/locomo10_v2";
const KIND: Record<number, Kind> = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop" };
/** The kinds in the order the issue reports them. */
export const LOCOMO_KINDS: readonly Kind[] = ["temporal", "open-domain", "multi-hop", "single-hop"];
/** The outside measurement's figures (issue 36), R@10 in percent, per kind (LOCOMO_KINDS) and all: ctxloom before the levers, and BM25. */
export const OUTSIDE = { ctxloom: [69.5, 25.6, 31.8, 75.0, 63.0], bm25: [65.3, 25.0, 23.8, 62.8, 53.9] } as const;
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface RawQuestion {
  question: string;
  answer?: unknown;
  evidence: string[];
  category: number;
}

/** A LoCoMo conversation in the set's shape, with its file's name and what was left out. */
export interface LocomoConversation extends Conversation {
  file: string;
  /** Questions of categories 1-4 left out for want of an evidence turn. */
  dropped: number;
}

/** The folder holding LoCoMo's conversations, or undefined (and why not) when there is none. */
export function locomoFolder(): { folder?: string; reason: string } {
  const candidates = [process.env.CTXLOOM_LOCOMO, LOCOMO_DEFAULT].filter((f): f is string => !!f);
  const folder = candidates.find((f) => existsSync(f) && readdirSync(f).some((n) => n.endsWith(".json")));
  return folder
    ? { folder, reason: `read from ${folder}` }
    : { reason: `no LoCoMo conversations (*.json) in ${candidates.join(" nor ")}` };
}

/** "1:56 pm on 8 May, 2023" as ms since the epoch (UTC). */
export function sessionTime(label: string): number {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(label.trim());
  const month = m ? MONTHS.indexOf(m[5]!.toLowerCase()) : -1;
  if (!m || month < 0) throw new Error(`LoCoMo: unreadable session time "${label}"`);
  const hour = (+m[1]! % 12) + (m[3]!.toLowerCase() === "pm" ? 12 : 0);
  return Date.UTC(+m[6]!, month, +m[4]!, hour, +m[2]!);
}

/** The turn ids an evidence list names ("D1:3", "D8:6; D9:17", "D:11:26", "D30:05"). */
function evidenceIds(evidence: readonly string[], ids: ReadonlyMap<string, number>): number[] {
  const out = new Set<number>();
  for (const e of evidence) {
    for (const m of String(e).matchAll(/D:?(\d+):(\d+)/g)) {
      const id = ids.get(`${+m[1]!}:${+m[2]!}`);
      if (id !== undefined) out.add(id);
    }
  }
  return [...out].sort((a, b) => a - b);
}

/** One conversation file in the set's shape. */
export function readConversation(path: string, id: number): LocomoConversation {
  const raw = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const c = (raw.conversation ?? raw) as Record<string, unknown>;
  const speakers: [string, string] = [String(c.speaker_a), String(c.speaker_b)];
  const numbers = Object.keys(c)
    .flatMap((k) => (/^session_\d+$/.test(k) ? [+k.slice(8)] : []))
    .sort((a, b) => a - b);
  const turns: Turn[] = [];
  const sessions: Session[] = [];
  const ids = new Map<string, number>();
  for (const n of numbers) {
    const label = String(c[`session_${n}_date_time`]);
    const at = new Date(sessionTime(label)).toISOString();
    const first = turns.length;
    for (const t of c[`session_${n}`] as RawTurn[]) {
      const speaker = t.speaker === speakers[0] ? 0 : 1;
      const m = /D:?(\d+):(\d+)/.exec(t.dia_id);
      if (m) ids.set(`${+m[1]!}:${+m[2]!}`, turns.length);
      const text = t.blip_caption ? `${t.text}\n${t.blip_caption}` : t.text;
      turns.push({ id: turns.length, session: sessions.length, speaker, text, at });
    }
    if (turns.length > first) sessions.push({ label, date: at.slice(0, 10), first, last: turns.length - 1 });
  }
  const qa = (raw.qa ?? c.qa) as RawQuestion[];
  const questions: Question[] = [];
  let dropped = 0;
  qa.forEach((q, i) => {
    const kind = KIND[q.category];
    if (kind === undefined) return;
    const evidence = evidenceIds(q.evidence ?? [], ids);
    if (evidence.length === 0) {
      dropped++;
      return;
    }
    questions.push({
      id: `${id}-${i}`,
      conversation: id,
      kind,
      question: q.question,
      answer: String(q.answer),
      evidence,
    });
  });
  const file = path.slice(path.lastIndexOf("/") + 1);
  return { id, seed: 0, heldOut: false, speakers, sessions, turns, questions, file, dropped };
}

/** Every conversation of the folder, in the order of their files' names (numbers first). */
export function readLocomo(folder: string): LocomoConversation[] {
  const files = readdirSync(folder)
    .filter((n) => n.endsWith(".json"))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b));
  return files.map((f, i) => readConversation(join(folder, f), i));
}
