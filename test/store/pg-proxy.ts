// A TCP proxy between the tests and PostgreSQL that can lose an answer: armed, it lets the next
// statement named `statement` through, holds the server's reply, and once that reply is whole
// (ReadyForQuery: the server has committed) closes the client's connection instead of passing
// it on. The client then knows it sent the statement and not what became of it. It can also
// refuse new connections for a while (a server that stays unreachable).
import { createServer, connect, type Server, type Socket } from "node:net";

export interface Proxy {
  /** The connection string through the proxy. */
  url: string;
  /**
   * Loses the reply to the next execution of the named statement; resolves once it has (a
   * gate). With `thenRefuse`, `refuse` is set at that moment: the server stays unreachable.
   */
  loseNextReply(statement: string, options?: { thenRefuse?: boolean }): Promise<void>;
  /** While true, new connections are closed at once. */
  refuse: boolean;
  close(): Promise<void>;
}

/** The messages of a PostgreSQL server's stream in `bytes` (type byte, then a length that counts itself). */
function* messages(bytes: Buffer): Generator<{ type: string; body: Buffer }> {
  let at = 0;
  while (at + 5 <= bytes.length) {
    const length = bytes.readUInt32BE(at + 1);
    if (at + 1 + length > bytes.length) return;
    yield { type: String.fromCharCode(bytes[at]!), body: bytes.subarray(at + 5, at + 1 + length) };
    at += 1 + length;
  }
}

export async function startProxy(target: string): Promise<Proxy> {
  const url = new URL(target);
  const sockets = new Set<Socket>();
  let armed: { statement: Buffer; refuse: boolean; lost: () => void; failed: (e: Error) => void } | undefined;
  const server: Server = createServer((client) => {
    if (proxy.refuse) return void client.destroy();
    const upstream = connect(Number(url.port), url.hostname);
    sockets.add(client).add(upstream);
    let holding: Buffer[] | undefined; // the reply being held back from the client
    client.on("data", (chunk: Buffer) => {
      // A Bind message names its prepared statement: this client is executing the armed one.
      if (armed && !holding && chunk.includes(armed.statement)) holding = [];
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!holding) return void client.write(chunk);
      holding.push(chunk);
      const reply = [...messages(Buffer.concat(holding))];
      const done = reply.some((m) => m.type === "Z");
      if (!done) return;
      const inserted = reply.some((m) => m.type === "C" && m.body.toString("latin1").startsWith("INSERT 0 1"));
      const { lost, failed, refuse } = armed!;
      armed = undefined;
      if (refuse) proxy.refuse = true;
      client.destroy();
      upstream.destroy();
      if (inserted) lost();
      else failed(new Error("the reply held back was not that of a committed insert"));
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const through = new URL(target);
  through.hostname = "127.0.0.1";
  through.port = String(port);
  const proxy: Proxy = {
    url: through.toString(),
    refuse: false,
    loseNextReply(statement, options = {}) {
      return new Promise((lost, failed) => {
        armed = { statement: Buffer.from(`${statement}\0`), refuse: options.thenRefuse === true, lost, failed };
      });
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return proxy;
}
