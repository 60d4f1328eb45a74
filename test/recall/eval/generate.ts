// The recall evaluation set: long two-person conversations over many dated sessions, and
// questions about what was said, each with the turns that answer it (its evidence). Shaped
// like the long-conversation benchmarks recall is judged on (two named friends, ~600 turns in
// ~25 sessions, greetings and small talk between facts stated once and asked much later in
// other words), written by the project and generated from a seed: the same seed gives the
// same set on every run and machine.
//
// Kinds: single-hop (one fact, one or two turns), multi-hop (two or more turns: a relative
// introduced in one session and their news in another, everything of a kind a speaker said,
// the interest both share), temporal ("when did ..." answered by the session's date and the
// turn's "yesterday" or "last weekend"), open-domain (an inference from a stated fact or
// preference: "Would X enjoy ...?").
//
// Conversations 0-8 are for tuning; 9-11 are held out (see HELD_OUT): report on them, never tune on them.

import { Rand } from "./rand.js";
import {
  CALLBACKS,
  CLOSINGS,
  GREETING_REPLIES,
  LEADS,
  OPENERS,
  PROMPTS,
  REACTIONS,
  SHARED_LINES,
  SMALL_TALK,
  TAILS,
} from "./smalltalk.js";
import type { Kind, Slots, Topic } from "./topic-kit.js";
import { EVENT_TOPICS } from "./topics-events.js";
import { TRAIT_TOPICS } from "./topics-traits.js";
import { PEOPLE, SHARED, type Person } from "./vocab.js";

export interface Turn {
  /** Its index in the conversation (the message id when the conversation is a chat). */
  id: number;
  session: number;
  /** 0: the first speaker (a chat's user), 1: the second (its assistant). */
  speaker: 0 | 1;
  text: string;
  /** When it was said (ISO 8601). */
  at: string;
}

export interface Session {
  /** "1:56 pm on 8 May, 2023" */
  label: string;
  date: string;
  first: number;
  last: number;
}

export interface Question {
  id: string;
  conversation: number;
  kind: Kind;
  question: string;
  answer: string;
  /** Ids of the turns that answer it. */
  evidence: number[];
}

export interface Conversation {
  id: number;
  seed: number;
  heldOut: boolean;
  speakers: [string, string];
  sessions: Session[];
  turns: Turn[];
  questions: Question[];
}

export const CONVERSATIONS = 12;
/** Conversations kept for reporting only: never tune on them. */
export const HELD_OUT: readonly number[] = [9, 10, 11];
export const BASE_SEED = 20_231_123;
export const KINDS: readonly Kind[] = ["single-hop", "multi-hop", "temporal", "open-domain"];

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const DAY = 86_400_000;
const TOPICS: readonly Topic[] = [...EVENT_TOPICS, ...TRAIT_TOPICS];
/** Share of the open-domain questions kept (every topic has one; long-conversation sets hold few). */
const OPEN_DOMAIN_KEPT = 0.4;
/** Share of statements the friend leads into by asking about their subject. */
const LEAD_SHARE = 0.6;
/** Share of turns that run on with a sentence of no consequence (TAILS). */
const TAIL_SHARE = 0.6;
const fmt = (d: Date) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;

/** Relative times a statement uses, with how a temporal answer reads them against the session's date. */
const WHEN: readonly [string, (date: string) => string][] = [
  ["yesterday", (d) => `the day before ${d}`],
  ["last weekend", (d) => `the weekend before ${d}`],
  ["last Saturday", (d) => `the Saturday before ${d}`],
  ["this morning", (d) => d],
  ["two days ago", (d) => `two days before ${d}`],
  ["last week", (d) => `the week before ${d}`],
  ["on Friday", (d) => `the Friday before ${d}`],
];

/** A fact as placed: its topic, owner, slots and the turns of its statement and detail. */
interface Placed {
  topic: Topic;
  owner: 0 | 1;
  slots: Slots;
  session: number;
  /** For a two-part topic, the session of the second statement. */
  laterSession: number;
  /** The session where the friend asks how it goes (-1: none). */
  callbackSession: number;
  state: number;
  detail: number;
}

const fill = (template: string, slots: Slots): string =>
  template.replace(/\{(\w+)\}/g, (_m, key: string) => {
    if (slots[key] === undefined) throw new Error(`recall-eval: no slot ${key} in "${template}"`);
    return slots[key]!;
  });
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function personSlots(me: Person, you: Person): Slots {
  const [them, their] = me.they === "he" ? ["him", "his"] : ["her", "her"];
  return { me: me.name, you: you.short, they: me.they, them, their };
}

/** Conversation `index` of the set (deterministic). */
export function generateConversation(index: number): Conversation {
  const seed = BASE_SEED + index * 7919;
  const r = new Rand(seed);
  const [a, b] = pair(r);
  const people: [Person, Person] = [a, b];
  const used = new Set<string>();
  const fresh = (v: string) => !used.has(v);

  // Sessions: 22 to 28, 2 to 21 days apart, from a date in 2022-2023.
  const count = 22 + r.int(7);
  let day = Date.UTC(2022, 2, 1) + r.int(480) * DAY;
  const dates: Date[] = [];
  for (let s = 0; s < count; s++) {
    dates.push(new Date(day + (9 + r.int(13)) * 3_600_000 + r.int(60) * 60_000));
    day += (2 + r.int(20)) * DAY;
  }

  // Facts: each speaker brings up most topics once, some again (with new values).
  const placed: Placed[] = [];
  for (const owner of [0, 1] as const) {
    for (const topic of r.shuffle([...TOPICS])) {
      for (let n = 0; n < topic.most && r.chance(n === 0 ? 0.8 : 0.45); n++) {
        const slots = topic.draw(r, fresh);
        for (const v of Object.values(slots)) used.add(v);
        const session = topic.later ? r.int(count - 3) : r.int(count);
        const laterSession = topic.later ? session + 2 + r.int(count - session - 2) : -1;
        const after = Math.max(session, laterSession) + 1;
        const callbackSession =
          CALLBACKS[topic.name] && after < count && r.chance(0.6) ? after + r.int(count - after) : -1;
        placed.push({ topic, owner, slots, session, laterSession, callbackSession, state: -1, detail: -1 });
      }
    }
  }
  const shared = { what: r.pick(SHARED), sessions: [r.int(count), r.int(count)], turns: [-1, -1] };

  const turns: Turn[] = [];
  const sessions: Session[] = [];
  for (let s = 0; s < count; s++) {
    const date = dates[s]!;
    const base: Slots = { weekday: WEEKDAYS[date.getUTCDay()]! };
    const first = turns.length;
    // A line of `speaker`; `runs` lines (statements, small talk) may run on with a tail.
    const say = (speaker: 0 | 1, template: string, extra: Slots = {}, runs = false): number => {
      const friend = people[1 - speaker]!;
      // Friends call each other by name or short name: names fill greetings as in real chats.
      const slots = {
        ...base,
        ...personSlots(people[speaker]!, friend),
        ...extra,
        you: r.chance(0.5) ? friend.name : friend.short,
      };
      const id = turns.length;
      const tail = runs && r.chance(TAIL_SHARE) ? ` ${r.pick(TAILS)}` : "";
      turns.push({
        id,
        session: s,
        speaker,
        text: capital(fill(template, slots)) + tail,
        at: new Date(date.getTime() + (id - first) * 47_000).toISOString(),
      });
      return id;
    };
    const next = (): 0 | 1 =>
      turns.length === 0 || turns[turns.length - 1]!.session !== s
        ? r.chance(0.6)
          ? 0
          : 1
        : ((1 - turns[turns.length - 1]!.speaker) as 0 | 1);
    const talk = r.shuffle([...SMALL_TALK]); // no pair twice in a session
    const smallTalk = () => {
      const [x, y] = talk.pop() ?? r.pick(SMALL_TALK);
      const who = next();
      say(who, x, {}, true);
      say((1 - who) as 0 | 1, y, {}, true);
    };
    const opener = next();
    say(opener, r.pick(OPENERS));
    say((1 - opener) as 0 | 1, r.pick(GREETING_REPLIES));

    // This session's blocks: statements, second parts, the shared interest, in random order.
    const blocks: (() => void)[] = [];
    for (const f of placed) {
      const slots = (): Slots => ({ ...f.slots, ...personSlots(people[f.owner]!, people[1 - f.owner]!) });
      // The friend hands the turn over: with the topic's lead-in or a generic prompt.
      const handTo = () => {
        if (next() !== f.owner)
          say(
            (1 - f.owner) as 0 | 1,
            LEADS[f.topic.name] && r.chance(LEAD_SHARE) ? r.pick(LEADS[f.topic.name]!) : r.pick(PROMPTS),
          );
      };
      if (f.session === s) {
        blocks.push(() => {
          handTo();
          const when = r.pick(WHEN);
          f.slots.when = when[0];
          f.slots.when_answer = when[1](fmt(date));
          f.state = say(f.owner, r.pick(f.topic.state), slots(), true);
          say((1 - f.owner) as 0 | 1, r.pick(f.topic.react), slots());
          if (f.topic.detail && !f.topic.later) {
            f.detail = say(f.owner, r.pick(f.topic.detail), slots(), true);
            if (r.chance(0.5)) say((1 - f.owner) as 0 | 1, r.pick(REACTIONS));
          }
        });
      }
      if (f.callbackSession === s) {
        blocks.push(() => {
          const [ask, answer] = r.pick(CALLBACKS[f.topic.name]!);
          if (next() !== f.owner) say((1 - f.owner) as 0 | 1, ask, slots()); // else the owner tells unasked
          say(f.owner, answer, slots(), true);
        });
      }
      if (f.laterSession === s) {
        blocks.push(() => {
          handTo();
          f.detail = say(f.owner, r.pick(f.topic.detail!), slots(), true);
          say((1 - f.owner) as 0 | 1, r.pick(REACTIONS));
        });
      }
    }
    shared.sessions.forEach((at, speaker) => {
      if (at !== s) return;
      blocks.push(() => {
        if (next() !== speaker) say((1 - speaker) as 0 | 1, r.pick(PROMPTS));
        shared.turns[speaker] = say(speaker as 0 | 1, r.pick(SHARED_LINES), { shared: shared.what }, true);
        say((1 - speaker) as 0 | 1, r.pick(REACTIONS));
      });
    });
    const target = first + 20 + r.int(9);
    for (const block of r.shuffle(blocks)) {
      if (r.chance(0.7)) smallTalk();
      block();
    }
    while (turns.length < target - 2) smallTalk();
    const [bye, reply] = r.pick(CLOSINGS);
    const closer = next();
    say(closer, bye);
    say((1 - closer) as 0 | 1, reply);
    sessions.push({ label: label(date), date: date.toISOString(), first, last: turns.length - 1 });
  }

  return {
    id: index,
    seed,
    heldOut: HELD_OUT.includes(index),
    speakers: [a.name, b.name],
    sessions,
    turns,
    questions: questionsOf(index, r, placed, people, shared),
  };
}

function pair(r: Rand): [Person, Person] {
  const a = r.pick(PEOPLE);
  let b = r.pick(PEOPLE);
  while (b.name === a.name || b.short === a.short) b = r.pick(PEOPLE);
  return [a, b];
}

function label(d: Date): string {
  const h = d.getUTCHours();
  const m = String(d.getUTCMinutes()).padStart(2, "0");
  return `${h % 12 === 0 ? 12 : h % 12}:${m} ${h < 12 ? "am" : "pm"} on ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}, ${d.getUTCFullYear()}`;
}

function questionsOf(
  index: number,
  r: Rand,
  placed: Placed[],
  people: [Person, Person],
  shared: { what: string; turns: number[] },
): Question[] {
  const out: Question[] = [];
  const add = (kind: Kind, question: string, answer: string, evidence: number[]) => {
    out.push({
      id: `c${index}-q${out.length}`,
      conversation: index,
      kind,
      question,
      answer,
      evidence: [...new Set(evidence)].sort((x, y) => x - y),
    });
  };
  const mine = (f: Placed) => placed.filter((g) => g.topic === f.topic && g.owner === f.owner);
  for (const f of placed) {
    const slots = { ...f.slots, ...personSlots(people[f.owner]!, people[1 - f.owner]!) };
    const turnOf = { state: f.state, detail: f.detail };
    for (const ask of f.topic.ask) {
      if (ask.once && mine(f).length > 1) continue;
      if (ask.on.some((on) => turnOf[on] < 0)) continue;
      if (ask.kind === "open-domain" && !r.chance(OPEN_DOMAIN_KEPT)) continue;
      add(
        ask.kind,
        capital(fill(r.pick(ask.q), slots)),
        fill(ask.a, slots),
        ask.on.map((on) => turnOf[on]),
      );
    }
  }
  for (const owner of [0, 1] as const) {
    for (const topic of new Set(placed.filter((f) => f.owner === owner && f.topic.many).map((f) => f.topic))) {
      const all = placed.filter((f) => f.owner === owner && f.topic === topic);
      if (all.length < 2) continue;
      const slots = personSlots(people[owner]!, people[1 - owner]!);
      const key = /\{all:(\w+)\}/.exec(topic.many!.a)![1]!;
      add(
        "multi-hop",
        fill(r.pick(topic.many!.q), slots),
        all.map((f) => f.slots[key]).join(", "),
        all.map((f) => f.state),
      );
    }
  }
  add("multi-hop", `What hobby do ${people[0].name} and ${people[1].name} have in common?`, shared.what, shared.turns);
  return out;
}

/** The whole set: every conversation, or those of one part. */
export function evaluationSet(part: "all" | "tuning" | "held-out" = "all"): Conversation[] {
  const ids = Array.from({ length: CONVERSATIONS }, (_, i) => i).filter(
    (i) => part === "all" || (part === "held-out") === HELD_OUT.includes(i),
  );
  return ids.map(generateConversation);
}
