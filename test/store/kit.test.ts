// Issue 22, item 5: the store kit's parts. One schema: a SQLite file of every released version
// is migrated to exactly the layout a new file gets (the Durable Object's is checked the same
// way in workerd). One little-endian vector codec. The row limit's byte count. Which runtime
// ctxloom/sqlite refuses, and what it says there.
import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sqliteStore } from "../../src/sqlite.js";
import { otherRuntime, unavailableHere } from "../../src/store/elsewhere.js";
import { rowBytes, utf8Length } from "../../src/store/sql-rows.js";
import { vectorFromBytes, vectorToBytes } from "../../src/store/vectors.js";
import { tempFolder } from "./sqlite-helpers.js";
import { V1, V2, V3, V4 } from "./sqlite-released.js";

const file = tempFolder("kit");

const RELEASED = [V1, V2, V3, V4];

/** Every table's columns and indexes (with their columns): what a file's layout is. */
function layout(path: string): unknown {
  const db = new Database(path, { readonly: true });
  const out: Record<string, unknown> = {};
  for (const t of ["ctxloom_schema", "users", "chats", "messages", "embeddings", "memory", "message_numbers"]) {
    out[t] = db.prepare(`PRAGMA table_info(${t})`).raw().all();
    out[`${t} indexes`] = (db.prepare(`PRAGMA index_list(${t})`).raw().all() as unknown[][]).map((r) => [
      ...r.slice(1),
      db
        .prepare(`PRAGMA index_info(${String(r[1])})`)
        .raw()
        .all(),
    ]);
  }
  db.close();
  return out;
}

describe("one schema", () => {
  it("a file of each released version migrates to the layout of a new file, recording each version", async () => {
    const fresh = file("fresh.db");
    await sqliteStore(fresh).close();
    const want = layout(fresh);
    const versions = (path: string) => {
      const db = new Database(path, { readonly: true });
      const v = db.prepare("SELECT version FROM ctxloom_schema ORDER BY version").pluck().all();
      db.close();
      return v;
    };
    expect(versions(fresh)).toEqual([5]);
    for (let v = 1; v <= RELEASED.length; v++) {
      const path = file(`v${v}.db`);
      const raw = new Database(path);
      raw.exec(RELEASED.slice(0, v).join("\n"));
      raw.close();
      await sqliteStore(path).close();
      expect(layout(path), `from version ${v}`).toEqual(want);
      expect(versions(path)).toEqual([1, 2, 3, 4, 5]);
    }
  });
});

describe("the little-endian vector codec", () => {
  const reference = (v: Float32Array) => {
    const bytes = new Uint8Array(v.length * 4);
    const view = new DataView(bytes.buffer);
    v.forEach((x, i) => view.setFloat32(i * 4, x, true));
    return bytes;
  };
  const vectors = fc.array(fc.float({ noNaN: false }), { maxLength: 64 }).map((a) => new Float32Array(a));

  it("writes float32 little-endian bytes and reads them back, on either host order", () => {
    fc.assert(
      fc.property(vectors, fc.nat(3), (v, offset) => {
        for (const host of [true, false]) {
          const bytes = vectorToBytes(v, host);
          expect(bytes).toEqual(reference(v));
          // From bytes that sit at an odd offset of a larger buffer (a driver's shared Buffer).
          const shared = new Uint8Array(bytes.length + offset + 1);
          shared.set(bytes, offset);
          expect(vectorFromBytes(shared.subarray(offset, offset + bytes.length), host)).toEqual(v);
        }
      }),
      { seed: 22, numRuns: 200 },
    );
  });

  it("copies: the vector written and the bytes read are not kept", () => {
    const v = new Float32Array([1, 2]);
    const bytes = vectorToBytes(v);
    v[0] = 9;
    expect(vectorFromBytes(bytes)).toEqual(new Float32Array([1, 2]));
  });
});

describe("a row's bytes", () => {
  it("counts UTF-8 as TextEncoder does (a lone surrogate as its replacement's 3 bytes)", () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => utf8Length(s) === encoder.encode(s).length),
      { seed: 25, numRuns: 200 },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) }),
        (s) => utf8Length(s) === encoder.encode(s).length,
      ),
      { seed: 25 },
    );
  });

  it("bounds a row from above: its texts' and bytes' lengths and 9 bytes per value", () => {
    expect(rowBytes(["é", null, 1, new Uint8Array(10)])).toBe(16 + 4 * 9 + 2 + 10);
  });
});

describe("ctxloom/sqlite elsewhere than Node", () => {
  const deno = { Deno: { version: { deno: "2.5.0" } }, process: { versions: { node: "22.0.0" } } };
  const workers = { navigator: { userAgent: "Cloudflare-Workers" } };
  const browser = { document: {}, navigator: { userAgent: "Mozilla/5.0" } };
  const webWorker = { importScripts: () => undefined, navigator: { userAgent: "Mozilla/5.0" } };

  it("knows Deno (which has a process too), Workers and browsers, and takes Node for Node", () => {
    expect(
      [deno, workers, browser, webWorker, { process: { versions: { node: "20.0.0" } } }, globalThis].map((g) =>
        otherRuntime(g),
      ),
    ).toEqual(["Deno", "Cloudflare Workers", "a browser", "a browser", undefined, undefined]);
  });

  it("names the runtime and the stores that run there", () => {
    expect(unavailableHere("ctxloom/sqlite")).toBeUndefined();
    const said = (g: object) => {
      const e = unavailableHere("ctxloom/sqlite", g)!;
      return [e.code, e.message];
    };
    expect(said(deno)).toEqual([
      "UNSUPPORTED_RUNTIME",
      expect.stringMatching(
        /^ctxloom\/sqlite does not run on Deno: .*On Deno, use the memory store \(the default\), ctxloom\/postgres/,
      ),
    ]);
    expect(said(workers)[1]).toMatch(/On Cloudflare Workers, use .*ctxloom\/cloudflare/);
    expect(said(browser)[1]).toMatch(/does not run in a browser.*In a browser, use the memory store/);
  });
});
