// The store contract (ctxloom/store/contract) run where no test runner is: in workerd (a Durable
// Object's store, D1) and in Chromium (IndexedDB). Each case's outcome by its name: "ok", or
// what the store answered otherwise; the tests compare with contractPassed(). No test framework
// here: the workers and the page bundle this file.
import { memoryStore } from "../../src/store-entry.js";
import { storeContract } from "../../src/store-contract.js";
import type { Store } from "../../src/store-entry.js";

/** Every case of the contract on stores from `make` (one each): "ok" or the error's message, by name. */
export async function runContract(make: () => Store | Promise<Store>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const c of storeContract(make)) {
    out[c.name] = await c.run().then(
      () => "ok",
      (error: unknown) => String((error as Error)?.message ?? error),
    );
  }
  return out;
}

/** What runContract answers of a store that passes every case. */
export const contractPassed = (): Record<string, string> =>
  Object.fromEntries(storeContract(memoryStore).map((c) => [c.name, "ok"]));
