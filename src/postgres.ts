// The ctxloom/postgres entry point: the PostgreSQL store (Node; needs the pg package).
export { postgresStore, type PostgresStore, type PostgresStoreOptions, type StoreChange } from "./store/postgres.js";
