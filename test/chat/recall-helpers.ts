// Embedders for the recall tests: the built-in one behind a call log, and misbehaving ones.
import { hashingEmbedder, type Embedder } from "../../src/index.js";

/** An embedder that logs every call's texts, around the built-in hashing embedder (or another name). */
export function loggedEmbedder(name?: string): Embedder & { calls: string[][] } {
  const inner = hashingEmbedder();
  const calls: string[][] = [];
  return {
    name: name ?? inner.name,
    dimension: inner.dimension,
    calls,
    embed(texts, signal) {
      calls.push([...texts]);
      return inner.embed(texts, signal);
    },
  };
}

/** An embedder whose first `failures` calls throw (then behaves like the built-in one). */
export function flakyEmbedder(failures: number): Embedder & { calls: number } {
  const inner = hashingEmbedder();
  const e = {
    name: inner.name,
    dimension: inner.dimension,
    calls: 0,
    embed(texts: string[], signal?: AbortSignal) {
      e.calls++;
      if (e.calls <= failures) return Promise.reject(new Error("service unavailable"));
      return inner.embed(texts, signal);
    },
  };
  return e;
}

/** An embedder whose answers are wrong in the given way. */
export function badEmbedder(kind: "dimension" | "nan" | "infinity" | "count"): Embedder {
  return {
    name: `bad-${kind}`,
    dimension: 8,
    async embed(texts) {
      const row = (): number[] => {
        const v = [1, 0, 0, 0, 0, 0, 0, 0];
        if (kind === "nan") v[3] = NaN;
        if (kind === "infinity") v[5] = Infinity;
        return kind === "dimension" ? v.slice(0, 7) : v;
      };
      const n = kind === "count" ? texts.length + 1 : texts.length;
      return Array.from({ length: n }, row);
    },
  };
}

/** An embedder that never answers. */
export function stuckEmbedder(): Embedder & { calls: number } {
  const e = {
    name: "stuck",
    dimension: 16,
    calls: 0,
    embed(): Promise<number[][]> {
      e.calls++;
      return new Promise(() => {});
    },
  };
  return e;
}

/** Filler turns with no word of the planted facts. */
export function filler(i: number): { user: string; assistant: string } {
  const topics = [
    "rivers",
    "volcanoes",
    "trains",
    "bread",
    "chess",
    "glaciers",
    "violins",
    "tides",
    "orchids",
    "comets",
  ];
  const t = topics[i % topics.length]!;
  return {
    user: `Tell me something about ${t}, detail ${i}.`,
    assistant: `Here is detail ${i} about ${t}: it is a broad subject with history and practice.`,
  };
}

/**
 * An embedder whose calls never settle (not even when aborted) while `stuck` is set, then
 * answers like the built-in one. Every call's signal is kept.
 */
export function gatedEmbedder(
  timeoutMs?: number,
  recallTimeoutMs?: number,
): Embedder & { stuck: boolean; signals: AbortSignal[] } {
  const inner = hashingEmbedder();
  const e = {
    name: inner.name,
    dimension: inner.dimension,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(recallTimeoutMs === undefined ? {} : { recallTimeoutMs }),
    stuck: true,
    signals: [] as AbortSignal[],
    embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[] | number[][]> {
      e.signals.push(signal!);
      return e.stuck ? new Promise(() => {}) : inner.embed(texts);
    },
  };
  return e;
}

/** Words that share an axis of conceptEmbedder's vectors: "boat" and "vessel" meet where their words do not. */
const CONCEPTS = [
  ["boat", "vessel", "ship", "seabird"],
  ["kitten", "cat", "feline", "pebble"],
  ["river", "rivers", "water"],
];

/** A text's vector by concepts: an axis per concept it names, and a small last one so that no vector is blank. */
function conceptVector(text: string): number[] {
  const words = new Set(text.toLowerCase().match(/\p{L}+/gu) ?? []);
  const v = CONCEPTS.map((group) => (group.some((w) => words.has(w)) ? 1 : 0));
  return [...v, 0.1];
}

/**
 * An embedder by concepts (see CONCEPTS) whose calls wait, while held and `holds(texts)`
 * says so, until `release()` answers them (the service is back). Every call's texts are kept.
 */
export function heldEmbedder(
  options: { timeoutMs?: number; recallTimeoutMs?: number; holds?: (texts: string[]) => boolean } = {},
): Embedder & { calls: string[][]; held: boolean; waiting: number; release(): void } {
  let waiting: (() => void)[] = [];
  const { holds = () => true, ...timeouts } = options;
  const e = {
    name: "concepts",
    dimension: CONCEPTS.length + 1,
    ...timeouts,
    calls: [] as string[][],
    held: true,
    get waiting() {
      return waiting.length;
    },
    release() {
      e.held = false;
      const answer = waiting;
      waiting = [];
      for (const go of answer) go();
    },
    embed(texts: string[]): Promise<number[][]> {
      e.calls.push([...texts]);
      const vectors = texts.map(conceptVector);
      if (!e.held || !holds(texts)) return Promise.resolve(vectors);
      return new Promise((resolve) => waiting.push(() => resolve(vectors)));
    },
  };
  return e;
}
