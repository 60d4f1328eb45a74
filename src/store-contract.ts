// The ctxloom/store/contract entry point: the cases every store of ctxloom passes, for testing a
// store of your own with any test runner (docs/writing-a-store.md). Exports only.
export { storeContract } from "./store/contract.js";
export type { OptionalStoreMethod, StoreContractCase, StoreContractOptions } from "./store/contract.js";
