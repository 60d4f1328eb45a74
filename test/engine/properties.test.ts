// Engine-level differential property: random operations on many trees, run on a WasmEngine and a
// JsEngine side by side and on a reference model (parent arrays). Enough appends to grow blocks
// several times (capacity 16, doubling), and dropTree + createTree to reuse handles and blocks.
import { expect, it } from "vitest";
import fc from "fast-check";
import type { Engine } from "../../src/engine/index.js";
import { dumpTree, makeEngine, walkIds } from "../helpers.js";
import { countingEngine } from "./counting.js";

type Op =
  | { t: "create" }
  | { t: "drop"; k: number }
  | { t: "append"; k: number; parent: number; tokens: number; role: number; priority: number; flags: number }
  | { t: "bulk"; k: number; n: number; branchy: number; seed: number }
  | { t: "reserve"; k: number; n: number }
  | { t: "walk"; k: number; head: number; max: number };

const k = fc.nat({ max: 100 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ t: "create" as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("drop" as const), k }) },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant("append" as const),
      k,
      parent: fc.nat({ max: 10_000 }),
      tokens: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      role: fc.integer({ min: 0, max: 3 }),
      priority: fc.integer({ min: 0, max: 3 }),
      flags: fc.constantFrom(0, 1, 4, 5), // FLAG_SUMMARY only through attachSummary
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("bulk" as const),
      k,
      n: fc.integer({ min: 1, max: 120 }),
      branchy: fc.integer({ min: 0, max: 10 }),
      seed: fc.nat(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("reserve" as const), k, n: fc.integer({ min: 1, max: 2000 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("walk" as const),
      k,
      head: fc.nat({ max: 10_000 }),
      max: fc.integer({ min: 1, max: 300 }),
    }),
  },
);

interface ModelNode {
  parent: number;
  tokens: number;
  role: number;
  priority: number;
  flags: number;
}

/** The same tree three ways: a handle in each engine and a model. */
interface Triple {
  w: number;
  j: number;
  model: ModelNode[];
}

function modelDump(model: ModelNode[]) {
  const depth: number[] = [];
  const children: number[][] = model.map(() => []);
  const roots: number[] = [];
  model.forEach((m, id) => (m.parent < 0 ? roots : children[m.parent]!).push(id));
  const nodes = model.map((m, id) => {
    depth[id] = m.parent < 0 ? 0 : depth[m.parent]! + 1;
    return {
      parent: m.parent,
      depth: depth[id]!,
      tokens: m.tokens,
      role: m.role,
      priority: m.priority,
      flags: m.flags,
      children: children[id]!,
    };
  });
  return { size: model.length, roots, leaves: nodes.flatMap((n, i) => (n.children.length === 0 ? [i] : [])), nodes };
}

function modelWalk(model: ModelNode[], head: number, max: number): number[] {
  const out: number[] = [];
  for (let n = head; n >= 0 && out.length < max; n = model[n]!.parent) out.push(n);
  return out.reverse();
}

/** A small deterministic PRNG for bulk appends (xorshift32). */
function rng(seed: number): () => number {
  let s = seed | 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}

function appendAll(ew: Engine, ej: Engine, tr: Triple, m: ModelNode): void {
  const a = ew.append(tr.w, m.parent, m.tokens, m.role, m.priority, m.flags);
  const b = ej.append(tr.j, m.parent, m.tokens, m.role, m.priority, m.flags);
  expect(a).toBe(tr.model.length);
  expect(b).toBe(tr.model.length);
  tr.model.push(m);
}

function check(ew: Engine, ej: Engine, tr: Triple): void {
  const expected = modelDump(tr.model);
  expect(dumpTree(ew, tr.w)).toEqual(expected);
  expect(dumpTree(ej, tr.j)).toEqual(expected);
}

it("WasmEngine and JsEngine agree on random operations over many trees (and with a model)", async () => {
  let largest = 0;
  let mostTrees = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 8 }),
      fc.array(
        fc.record({ n: fc.integer({ min: 130, max: 400 }), branchy: fc.integer({ min: 0, max: 10 }), seed: fc.nat() }),
        {
          minLength: 1,
          maxLength: 2,
        },
      ),
      fc.array(op, { minLength: 1, maxLength: 40 }),
      async (initialTrees, growths, ops) => {
        const ew = await countingEngine("wasm");
        const ej = await countingEngine("js");
        const trees: Triple[] = [];
        const create = () => {
          trees.push({ w: ew.createTree(), j: ej.createTree(), model: [] });
          mostTrees = Math.max(mostTrees, trees.length);
        };
        for (let i = 0; i < initialTrees; i++) create();
        // every run starts by growing one or two trees through several doublings (16 -> ... -> 512)
        for (const [i, g] of growths.entries()) {
          ops = [{ t: "bulk", k: i, ...g }, ...ops];
        }
        for (const o of ops) {
          if (o.t === "create") {
            create();
            check(ew, ej, trees[trees.length - 1]!);
            continue;
          }
          if (trees.length === 0) create();
          const idx = o.k % trees.length;
          const tr = trees[idx]!;
          switch (o.t) {
            case "drop":
              ew.dropTree(tr.w);
              ej.dropTree(tr.j);
              trees.splice(idx, 1);
              continue; // a dropped handle may not be read
            case "append":
              appendAll(ew, ej, tr, {
                parent: (o.parent % (tr.model.length + 1)) - 1,
                tokens: o.tokens,
                role: o.role,
                priority: o.priority,
                flags: o.flags,
              });
              break;
            case "bulk": {
              const next = rng(o.seed);
              for (let i = 0; i < o.n; i++) {
                const size = tr.model.length;
                // mostly a chain (the newest node), sometimes any node or a new root
                const r = next() % 10;
                const parent = size === 0 ? -1 : r < o.branchy ? (next() % (size + 1)) - 1 : size - 1;
                appendAll(ew, ej, tr, {
                  parent,
                  tokens: next() % 5000,
                  role: next() % 4,
                  priority: next() % 4,
                  flags: [0, 1, 4, 5][next() % 4]!,
                });
              }
              break;
            }
            case "reserve":
              // Room for more nodes changes nothing that can be observed.
              ew.reserve(tr.w, tr.model.length + o.n);
              ej.reserve(tr.j, tr.model.length + o.n);
              expect(ew.size(tr.w)).toBe(tr.model.length);
              expect(ej.size(tr.j)).toBe(tr.model.length);
              break;
            case "walk": {
              if (tr.model.length === 0) break;
              const head = o.head % tr.model.length;
              const expected = modelWalk(tr.model, head, o.max);
              ew.resetVisited();
              ej.resetVisited();
              expect(walkIds(ew, tr.w, head, o.max)).toEqual(expected);
              expect(walkIds(ej, tr.j, head, o.max)).toEqual(expected);
              expect(ew.visited).toBe(expected.length);
              expect(ej.visited).toBe(expected.length);
              break;
            }
          }
          expect(ew.size(tr.w)).toBe(tr.model.length);
          expect(ej.size(tr.j)).toBe(tr.model.length);
          if (o.t !== "walk") check(ew, ej, tr); // a walk changes nothing
          largest = Math.max(largest, tr.model.length);
        }
        // every surviving tree, and a walk from each of its leaves
        for (const tr of trees) {
          check(ew, ej, tr);
          for (const leaf of modelDump(tr.model).leaves) {
            const expected = modelWalk(tr.model, leaf, 1e9);
            expect(walkIds(ew, tr.w, leaf, 1e9)).toEqual(expected);
            expect(walkIds(ej, tr.j, leaf, 1e9)).toEqual(expected);
          }
        }
      },
    ),
    { numRuns: 100 },
  );
  // the runs did reach several block growths and held several trees at once
  expect(largest).toBeGreaterThan(128);
  expect(mostTrees).toBeGreaterThanOrEqual(5);
});

it("one engine, many trees: handles are reused after dropTree and trees never share nodes", async () => {
  for (const kind of ["wasm", "js"] as const) {
    const e = await makeEngine(kind);
    const live = new Map<number, number>(); // handle -> its size
    const next = rng(12345);
    for (let step = 0; step < 3000; step++) {
      const r = next() % 100;
      if (r < 10 || live.size === 0) {
        const t = e.createTree();
        expect(live.has(t)).toBe(false);
        expect(e.size(t)).toBe(0);
        live.set(t, 0);
      } else if (r < 15) {
        const handles = [...live.keys()];
        const t = handles[next() % handles.length]!;
        e.dropTree(t);
        live.delete(t);
      } else {
        const handles = [...live.keys()];
        const t = handles[next() % handles.length]!;
        const size = live.get(t)!;
        // each node's tokens encode its tree and id: any cross-talk shows
        expect(e.append(t, size - 1, t * 100_000 + size, 1, 1, 0)).toBe(size);
        live.set(t, size + 1);
      }
    }
    for (const [t, size] of live) {
      expect(e.size(t)).toBe(size);
      for (let id = 0; id < size; id++) expect(e.tokens(t, id)).toBe(t * 100_000 + id);
      if (size > 0) expect(walkIds(e, t, size - 1, 1e9)).toEqual(Array.from({ length: size }, (_, i) => i));
    }
  }
});
