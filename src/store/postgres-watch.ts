// What the PostgreSQL store's watch() tells: other instances' appends, announced on a NOTIFY
// channel and heard on one connection the store keeps while anyone listens.
import type { Pool, PoolClient } from "pg";
import { checkin, checkout } from "./postgres-append.js";
import { fromText } from "./postgres-rows.js";

/** A change another instance made to a chat: it now holds `size` messages. */
export interface StoreChange {
  /** The user whose chat changed. */
  userId: string;
  /** The chat that changed. */
  chatId: string;
  /** How many messages it holds now. */
  size: number;
}

/** The listeners of one store and the connection they listen on (none while nobody listens). */
export function postgresWatch(open: () => Promise<Pool>, channel: string) {
  const listeners = new Set<(change: StoreChange) => void>();
  let listenClient: PoolClient | undefined;
  return {
    /** See PostgresStore.watch. */
    async watch(listener: (change: StoreChange) => void): Promise<() => Promise<void>> {
      const p = await open();
      if (!listenClient) {
        listenClient = await checkout(p);
        listenClient.on("notification", (n) => {
          if (n.channel !== channel || !n.payload) return;
          const change = parseChange(n.payload);
          if (change) for (const l of listeners) l(change);
        });
        await listenClient.query(`LISTEN ${channel}`);
      }
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
        if (listeners.size === 0 && listenClient) {
          const client = listenClient;
          listenClient = undefined;
          await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
          checkin(client);
        }
      };
    },
    /** Forgets the listeners and gives the connection back (the store closes). */
    close(): void {
      listeners.clear();
      if (listenClient) checkin(listenClient);
      listenClient = undefined;
    },
  };
}

function parseChange(payload: string): StoreChange | undefined {
  try {
    const { u, c, n } = JSON.parse(payload) as { u: unknown; c: unknown; n: unknown };
    return typeof u === "string" && typeof c === "string" && typeof n === "number"
      ? { userId: fromText(u), chatId: fromText(c), size: n }
      : undefined;
  } catch {
    return undefined;
  }
}
