// A throwaway PostgreSQL cluster for the tests: Debian's server binaries, initdb into a
// temporary directory, a free local port, run as the unprivileged `postgres` user when the
// tests run as root (the server refuses root). Stopped and removed afterwards.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Cluster {
  url: string;
  /** Stops the server ("immediate": as if it crashed) and starts it again on the same data. */
  restart(mode?: "fast" | "immediate"): void;
  stop(): void;
}

/** Where Debian's PostgreSQL binaries are, or undefined. */
export function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], "bin");
}

let warned = false;
/** Prints, once, why the PostgreSQL tests skip. In CI the binaries must be there (.ci/run installs them). */
export function noPostgresNotice(): boolean {
  if (postgresBin()) return false;
  if (process.env.CI)
    throw new Error(
      "CI must run the PostgreSQL tests, but no server binaries were found under /usr/lib/postgresql (.ci/run installs them).",
    );
  if (!warned) {
    warned = true;
    console.warn("[skip] PostgreSQL tests: no server binaries; run `apt-get install postgresql` to enable them.");
  }
  return true;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startCluster(): Promise<Cluster> {
  const bin = postgresBin()!;
  const dir = mkdtempSync(join(tmpdir(), "ctxloom-pg-"));
  chmodSync(dir, 0o777);
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]): void => {
    const [cmd, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]]
      : [join(bin, tool), args];
    const r = spawnSync(cmd, argv, { encoding: "utf8", cwd: dir });
    if (r.status !== 0) throw new Error(`${tool} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  run("initdb", ["-D", data, "-A", "trust", "-U", "ctxloom", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const start = (): void =>
    run("pg_ctl", [
      "-D",
      data,
      "-w",
      "-l",
      join(dir, "log"),
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`,
      "start",
    ]);
  start();
  execFileSync(join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "ctxloom", "ctxloom"]);
  return {
    url: `postgres://ctxloom@127.0.0.1:${port}/ctxloom`,
    restart(mode = "fast") {
      run("pg_ctl", ["-D", data, "-w", "-m", mode, "stop"]);
      start();
    },
    stop() {
      try {
        run("pg_ctl", ["-D", data, "-w", "-m", "fast", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
