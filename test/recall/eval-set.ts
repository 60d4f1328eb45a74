// An evaluation set for recall: facts a user states once, questions that ask for them later in
// other words, and long conversations to bury them in. No public long-conversation QA set is
// available offline here (../shared/data holds conversation trees without planted facts), so
// the facts and questions were written for this project; the filler is either synthetic
// (always available) or the real OpenAssistant exchanges of ../shared/data when present.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mulberry32 } from "../seeded.js";

/** A fact stated by the user, and a later question asking for it, mostly in other words. */
export interface PlantedFact {
  fact: string;
  question: string;
}

export const FACTS: readonly PlantedFact[] = [
  {
    fact: "My sister Lucinda just moved to Reykjavik for a job at the aquarium.",
    question: "Which city did my sister relocate to?",
  },
  {
    fact: "I'm allergic to peanuts, so please keep that in mind for recipes.",
    question: "Do I have any food allergies you should remember?",
  },
  {
    fact: "Our wifi password at the cabin is bluefalcon42.",
    question: "What was the wireless password for the cabin?",
  },
  { fact: "My dog is a three-year-old border collie called Biscuit.", question: "What breed is my dog?" },
  { fact: "I drive a 2014 Subaru Outback with a broken rear wiper.", question: "What car do I own?" },
  {
    fact: "The project deadline for the Halvorsen account is March 14th.",
    question: "When is the Halvorsen project due?",
  },
  { fact: "I take 50mg of sertraline every morning.", question: "What medication am I on?" },
  {
    fact: "My favourite band growing up was Radiohead, especially OK Computer.",
    question: "Which group did I love as a teenager?",
  },
  {
    fact: "We're planning our wedding for September at a vineyard in Sonoma.",
    question: "Where will the wedding take place?",
  },
  { fact: "I work night shifts as an ICU nurse at St. Mary's hospital.", question: "What is my job?" },
  {
    fact: "My son's school uses the Singapore math curriculum.",
    question: "Which math program does my son's school follow?",
  },
  {
    fact: "The leak in the kitchen comes from the dishwasher's drain hose.",
    question: "What was causing the water leak in my kitchen?",
  },
  { fact: "I'm training for the Berlin marathon in late September.", question: "Which race am I preparing for?" },
  {
    fact: "My grandmother's borscht recipe uses smoked pork ribs and beet kvass.",
    question: "What goes into grandma's beet soup?",
  },
  {
    fact: "Our startup's runway is about nine months at the current burn rate.",
    question: "How long until our company runs out of money?",
  },
  {
    fact: "I have a meeting with Dr. Okafor about my knee surgery next Tuesday.",
    question: "Who is the doctor handling my knee operation?",
  },
  {
    fact: "I'm learning Portuguese because my partner's family is from Porto.",
    question: "Why am I studying a new language?",
  },
  {
    fact: "The server crashes happen whenever the Redis cache fills beyond 80 percent.",
    question: "What triggers the server crashes?",
  },
  {
    fact: "I keep my spare house key under the blue ceramic frog by the back door.",
    question: "Where did I hide the spare key?",
  },
  { fact: "My daughter Amara turns seven on June 3rd.", question: "When is Amara's birthday?" },
  {
    fact: "I prefer tabs over spaces and a line length of 100 in Python.",
    question: "What code formatting do I like?",
  },
  { fact: "My landlord raised the rent from 1800 to 2100 dollars a month.", question: "How much did my rent go up?" },
  { fact: "The cat, Miso, only eats the salmon flavour of the dry food.", question: "Which flavour does Miso eat?" },
  { fact: "I'm vegetarian but I still eat fish occasionally.", question: "Do I eat meat?" },
  {
    fact: "My flight to Tokyo leaves from gate 42 at 6:15 in the morning.",
    question: "What time does my plane to Japan depart?",
  },
  {
    fact: "My brother-in-law Tomasz is an electrician and can fix the wiring.",
    question: "Who in the family could help with electrical work?",
  },
  {
    fact: "The bakery on Elm Street sells the best sourdough in town.",
    question: "Where can I buy good sourdough bread?",
  },
  { fact: "I was diagnosed with type 2 diabetes last year.", question: "What health condition do I have?" },
  { fact: "Our team uses Postgres 15 with the pgvector extension.", question: "Which database does our team run?" },
  {
    fact: "I'm saving up for a used sailboat, ideally a Catalina 27.",
    question: "What kind of boat do I want to buy?",
  },
  { fact: "My mother's maiden name is Kowalczyk.", question: "What was my mom's surname before marriage?" },
  {
    fact: "The garden gets full sun only on the south side near the fence.",
    question: "Which part of my garden is sunniest?",
  },
  { fact: "I play the cello in a community orchestra on Thursday evenings.", question: "What instrument do I play?" },
  { fact: "We adopted two rescue greyhounds named Pepper and Salt.", question: "What are the names of our dogs?" },
  { fact: "I'm afraid of heights, so no glass-floor observation decks please.", question: "Do I have any phobias?" },
  {
    fact: "The API rate limit for our plan is 500 requests per minute.",
    question: "How many calls per minute can we make to the API?",
  },
  { fact: "My favourite tea is a smoky lapsang souchong with no sugar.", question: "How do I take my tea?" },
  { fact: "I grew up in a small fishing village in Newfoundland.", question: "Where is my hometown?" },
  { fact: "My laptop is a ThinkPad X1 Carbon running Fedora.", question: "Which operating system is on my computer?" },
  { fact: "I bike to work every day, about 12 kilometres each way.", question: "How do I commute?" },
];

const ACKS = [
  "Got it, I'll keep that in mind.",
  "Thanks for telling me, noted.",
  "Understood.",
  "Noted, that's helpful to know.",
];

/** A deterministic generator (mulberry32). */
export const rng: (seed: number) => () => number = mulberry32;

const TOPICS = [
  ["sourdough", "oven", "flour", "hydration", "crust"],
  ["kubernetes", "pod", "deployment", "cluster", "ingress"],
  ["tomatoes", "compost", "seedlings", "watering", "mulch"],
  ["guitar", "chords", "strumming", "capo", "fretboard"],
  ["mortgage", "interest", "refinance", "lender", "escrow"],
  ["typescript", "generics", "compiler", "interface", "module"],
  ["hiking", "trail", "boots", "elevation", "backpack"],
  ["photography", "aperture", "shutter", "lens", "exposure"],
  ["chess", "opening", "endgame", "rook", "tactics"],
  ["budget", "savings", "expenses", "spreadsheet", "groceries"],
  ["spanish", "verbs", "subjunctive", "vocabulary", "pronunciation"],
  ["espresso", "grinder", "crema", "beans", "tamping"],
  ["resume", "interview", "recruiter", "salary", "portfolio"],
  ["sleep", "insomnia", "melatonin", "routine", "caffeine"],
  ["painting", "acrylic", "canvas", "brushes", "palette"],
  ["bicycle", "chain", "gears", "tyres", "brakes"],
];
const USER = [
  "Can you explain how {0} and {1} relate when it comes to {2}?",
  "What's the best way to improve my {0} {1}?",
  "I keep having trouble with the {1}; any tips on {3}?",
  "Should I worry about {4} if my {0} setup is new?",
  "Give me a short checklist for {2} and {3}.",
  "Why does my {1} behave differently after changing the {4}?",
];
const SAYS = [
  "Start by checking the {1} before you touch the {2}.",
  "Most people get {0} wrong because they ignore {3}.",
  "A small change to the {4} usually helps more than a new {1}.",
  "Keep notes on {2} for a week and compare.",
  "If the {3} still looks off, revisit the {0} basics.",
  "There is no single rule, but {1} and {4} matter most.",
];
const fill = (template: string, words: readonly string[]) =>
  template.replace(/\{(\d)\}/g, (_, i: string) => words[Number(i)]!);

/** Synthetic filler exchanges: varied everyday topics, none about the planted facts' subjects. */
export function syntheticExchanges(count: number, seed = 1): [string, string][] {
  const r = rng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)]!;
  return Array.from({ length: count }, () => {
    const words = pick(TOPICS);
    return [
      fill(pick(USER), words),
      `${fill(pick(SAYS), words)} ${fill(pick(SAYS), words)} ${fill(pick(SAYS), words)}`,
    ];
  });
}

const DATA = join(dirname(fileURLToPath(import.meta.url)), "../../../shared/data/oasst/en_100_tree.jsonl");

interface OasstMessage {
  text: string;
  role: string;
  replies?: OasstMessage[];
}

/** The real (prompt, first answer) pairs of the OpenAssistant trees in ../shared/data, or null when absent. */
export function oasstExchanges(): [string, string][] | null {
  if (!existsSync(DATA)) return null;
  const out: [string, string][] = [];
  const visit = (m: OasstMessage) => {
    for (const reply of m.replies ?? []) {
      if (m.role === "prompter" && reply.role === "assistant") out.push([m.text, reply.text]);
      visit(reply);
    }
  };
  for (const line of readFileSync(DATA, "utf8").split("\n")) if (line.trim()) visit(JSON.parse(line).prompt);
  return out;
}

/** A conversation of `count` filler exchanges (cycled) with each fact planted at a seeded position; returns texts and where each fact went. */
export function plant(filler: readonly [string, string][], count: number, facts: readonly PlantedFact[], seed: number) {
  const r = rng(seed);
  const exchanges: [string, string][] = Array.from({ length: count }, (_, i) => filler[i % filler.length]!);
  const at = new Map<number, number>(); // exchange index -> fact index
  facts.forEach((f, i) => {
    let e: number;
    do e = Math.floor(r() * (count - 10));
    while (at.has(e)); // never among the last 10: recency must not find them
    at.set(e, i);
    exchanges[e] = [f.fact, ACKS[i % ACKS.length]!];
  });
  const where = new Array<number>(facts.length);
  for (const [e, i] of at) where[i] = e;
  return { exchanges, where };
}
