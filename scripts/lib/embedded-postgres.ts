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
