// The ctxloom/cloudflare entry point: the store in a Durable Object's SQLite storage.
export { durableObjectStore, type DurableObjectStorageLike, type DurableObjectStoreOptions } from "./store/cloudflare.js";
