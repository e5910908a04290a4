// npm start's embedded PostgreSQL serves several services' pools at once: their extended-protocol queries
// (Parse/Bind/Execute/Sync) must not interleave on PGlite's one session (pglite-socket 0.2.17 did).
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded-postgres.ts";

const dataDir = mkdtempSync(join(tmpdir(), "pulsegate-embedded-test-"));
let embedded: EmbeddedPostgres | undefined;

afterAll(async () => {
  await embedded?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the embedded PostgreSQL", () => {
  it("answers parameterised queries from many connections at once, each with its own result", async () => {
    embedded = await startEmbeddedPostgres(dataDir);
    const clients = Array.from({ length: 8 }, () => new pg.Client({ connectionString: embedded?.url }));
    await Promise.all(clients.map((client) => client.connect()));
    try {
      const answers = await Promise.all(
        clients.map(async (client, c) => {
          const got: number[] = [];
          for (let i = 0; i < 40; i++) {
            // Two statements of different shapes, so a swapped unnamed statement cannot pass unnoticed.
            const sum = await client.query<{ n: number }>("SELECT $1::int + $2::int AS n", [c * 1000, i]);
            const text = await client.query<{ t: string }>("SELECT $1::text || '-' || $2::text AS t", [c, i]);
            expect(text.rows[0]?.t).toBe(`${c}-${i}`);
            got.push(sum.rows[0]?.n ?? -1);
          }
          return got;
        }),
      );
      answers.forEach((got, c) => {
        expect(got).toEqual(Array.from({ length: 40 }, (_, i) => c * 1000 + i));
      });
      // A failed statement does not stop the queue for the others.
      await expect(clients[0]?.query("SELECT $1::int", ["not a number"])).rejects.toThrow();
      expect((await clients[1]?.query<{ n: number }>("SELECT $1::int AS n", [7]))?.rows[0]?.n).toBe(7);
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  }, 120_000);

  it("keeps a batch whole when it arrives in pieces (a loaded machine's TCP), another connection's waiting", async () => {
    embedded ??= await startEmbeddedPostgres(dataDir);
    const { hostname, port } = new URL(embedded.url);
    const raw = await rawConnection(hostname, Number(port));
    const other = new pg.Client({ connectionString: embedded.url });
    await other.connect();
    try {
      // Parse alone; another connection's whole parameterised query; then Bind, Execute, Sync.
      raw.send(message("P", cstring(""), cstring("SELECT 'mine' AS whose"), int16(0)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const theirs = other.query<{ whose: string }>("SELECT $1::text AS whose", ["theirs"]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      raw.send(message("B", cstring(""), cstring(""), int16(0), int16(0), int16(0)));
      raw.send(message("E", cstring(""), Buffer.alloc(4)));
      raw.send(message("S"));
      const reply = await raw.untilReady();
      // ParseComplete, BindComplete, a DataRow carrying "mine", CommandComplete, ReadyForQuery: no ErrorResponse.
      expect(messageTypes(reply)).toEqual(["1", "2", "D", "C", "Z"]);
      expect(reply.includes(Buffer.from("mine"))).toBe(true);
      expect((await theirs).rows[0]?.whose).toBe("theirs");
    } finally {
      raw.close();
      await other.end();
    }
  }, 60_000);
});

const cstring = (text: string) => Buffer.from(`${text}\0`);
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** A hand-driven protocol connection: startup done, then messages as the test writes them. */
async function rawConnection(host: string, port: number) {
  const socket: Socket = connect({ host, port });
  socket.setNoDelay(true);
  let received = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
  });
  await new Promise((resolve) => socket.once("connect", resolve));
  const params = Buffer.concat([
    cstring("user"),
    cstring("postgres"),
    cstring("database"),
    cstring("postgres"),
    cstring(""),
  ]);
  const startup = Buffer.alloc(8);
  startup.writeInt32BE(params.length + 8, 0);
  startup.writeInt32BE(196608, 4);
  socket.write(Buffer.concat([startup, params]));
  /** Resolves with what arrived since the last call, once a ReadyForQuery ('Z') came. */
  const untilReady = async (): Promise<Buffer> => {
    const deadline = Date.now() + 10_000;
    while (!hasReadyForQuery(received)) {
      if (Date.now() > deadline) throw new Error(`no ReadyForQuery: ${received.toString("hex")}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const got = received;
    received = Buffer.alloc(0);
    return got;
  };
  await untilReady();
  return { send: (bytes: Buffer) => socket.write(bytes), untilReady, close: () => socket.destroy() };
}

function messageTypes(bytes: Buffer): string[] {
  const types: string[] = [];
  for (let at = 0; at + 5 <= bytes.length; at += 1 + bytes.readInt32BE(at + 1)) {
    types.push(String.fromCharCode(bytes[at] ?? 0));
  }
  return types;
}

function hasReadyForQuery(bytes: Buffer): boolean {
  return messageTypes(bytes).includes("Z");
}
