import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export type EmbeddedPostgres = { url: string; close: () => Promise<void> };

/**
 * The laptop fallback when no PostgreSQL is reachable (DESIGN §8): PGlite
 * behind its socket server, so services use the same `pg` code path. PGlite
 * runs one query at a time; the socket server multiplexes connections.
 * `npm start`'s alone: PGlite is a devDependency of the repository root, so
 * the production tree (`npm ci --omit=dev`, the image) holds none of it.
 */
export async function startEmbeddedPostgres(dataDir: string, port = 0): Promise<EmbeddedPostgres> {
  const db = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port, maxConnections: 100 });
  keepExtendedQueriesWhole(server);
  await server.start();
  const address = server.getServerConn();
  return {
    url: `postgres://postgres@${address}/postgres`,
    close: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/** Messages of the extended query protocol after which the same connection's next message belongs to the batch. */
const BATCH_CONTINUES = new Set(["P", "B", "D", "E", "C", "H"].map((letter) => letter.charCodeAt(0)));

type QueuedMessage = {
  handlerId: number;
  message: Uint8Array;
  resolve: (bytes: number) => void;
  reject: (error: Error) => void;
  onData: (data: Uint8Array) => void;
};
type QueryQueue = {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  processQueue: () => Promise<void>;
  clearQueueForHandler: (handlerId: number) => void;
};

/**
 * pglite-socket 0.2.17 queues each protocol message of every connection on one PGlite session and
 * keeps a connection's turn only inside a transaction, so one connection's Parse/Bind/Execute/Sync
 * interleave with another's: the unnamed statement is overwritten in between ("unnamed prepared
 * statement does not exist", or another statement's rows), and one failed message stops the queue for
 * good (electric-sql/pglite#1046; #977 is the open fix). Until a release carries it, the queue's turn
 * stays with a connection until its batch ends (Sync, a simple Query), a failure no longer stops it, and
 * a connection gone mid-batch gives the turn back. Embedded mode only; never in the image.
 */
function keepExtendedQueriesWhole(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  if (!queue || typeof queue.processQueue !== "function" || !Array.isArray(queue.queue)) {
    throw new Error("pglite-socket's query queue changed shape: review scripts/lib/embedded-postgres.ts");
  }
  let midBatch = false;
  queue.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const pinned = (midBatch || this.db.isInTransaction()) && this.lastHandlerId !== null;
        const index = pinned ? this.queue.findIndex((queued) => queued.handlerId === this.lastHandlerId) : 0;
        if (index === -1) break; // the connection whose batch is open sends its next message soon
        const [query] = this.queue.splice(index, 1) as [QueuedMessage];
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(query.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                query.onData(data);
              },
            }),
          );
        } catch (error) {
          query.reject(error as Error);
          continue;
        }
        midBatch = BATCH_CONTINUES.has(query.message[0] ?? 0);
        this.lastHandlerId = query.handlerId;
        query.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };
  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    clear(handlerId);
    if (queue.lastHandlerId === handlerId && midBatch) {
      midBatch = false;
      queue.lastHandlerId = null;
      void queue.processQueue();
    }
  };
}
