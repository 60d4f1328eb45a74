// The ctxloom/browser entry point: the store in a browser's IndexedDB, for local-first pages.
export { indexedDBStore, type IndexedDBStore, type IndexedDBStoreOptions } from "./store/indexeddb.js";
