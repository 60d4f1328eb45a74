// A throwaway PostgreSQL cluster for one test file (pg-cluster.ts, which the bench imports too,
// stays free of vitest).
import { afterAll, beforeAll } from "vitest";
import { noPostgresNotice, startCluster, type Cluster } from "./pg-cluster.js";

/**
 * A cluster for the calling test file, when PostgreSQL is installed: started before its tests,
 * stopped after them. `skip` is true (and said once) when there is none; `url()` is the server's.
 */
export function clusterForFile(): { skip: boolean; url: () => string } {
  const skip = noPostgresNotice();
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    if (!skip) cluster = await startCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());
  return { skip, url: () => cluster!.url };
}
