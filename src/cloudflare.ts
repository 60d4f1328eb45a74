// The ctxloom/cloudflare entry point: the stores of Cloudflare Workers, in a Durable Object's
// SQLite storage and on D1.
export {
  durableObjectStore,
  type DurableObjectStore,
  type DurableObjectStorageLike,
  type DurableObjectStoreOptions,
} from "./store/cloudflare.js";
export {
  d1Store,
  type D1Store,
  type D1StoreOptions,
  type D1DatabaseLike,
  type D1PreparedStatementLike,
  type D1ResultLike,
} from "./store/d1.js";
