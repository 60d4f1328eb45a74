// Recall runs everywhere: the same scenario in workerd (through miniflare, the core imported
// as a compiled module) returns what it returns in Node, on both engines, bit for bit.
import { Miniflare } from "miniflare";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";
import { JsEngine } from "../../src/engine/index.js";
import { bundle } from "../runtime/bundle.js";
import { makeEngine } from "../helpers.js";
import { recallScenario } from "./scenario.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
let mf: Miniflare | undefined;
afterAll(async () => {
  await mf?.dispose();
});

test("workerd: hashing embedder, SIMD and int8 search, recall policy = Node's", async () => {
  const b = await bundle(root, "test/recall/recall-worker.ts", ["workerd", "worker", "browser"]);
  expect([...b.wasm.keys()]).toEqual(["ctxloom.wasm"]);
  mf = new Miniflare({
    compatibilityDate: "2025-09-01",
    modulesRoot: root,
    modules: [
      { type: "ESModule", path: join(root, "recall-worker.js"), contents: b.code },
      { type: "CompiledWasm", path: join(root, "ctxloom.wasm"), contents: b.wasm.get("ctxloom.wasm")! },
    ],
  });
  const body = (await (await mf.dispatchFetch("http://localhost/")).json()) as {
    userAgent: string;
    wasm: unknown;
    js: unknown;
  };
  expect(body.userAgent).toBe("Cloudflare-Workers");
  const node = await recallScenario(await makeEngine("wasm"));
  expect(body.wasm).toEqual(node);
  expect(body.js).toEqual(await recallScenario(new JsEngine()));
  expect({ ...(body.wasm as object), engine: "js" }).toEqual(body.js); // and the engines agree
}, 240_000);
