import { Socket } from "node:net";
import pg from "pg";

/** True when a PostgreSQL server answers at the URL's host (any database). */
export async function probePostgres(url: string, timeoutMs = 1_500): Promise<boolean> {
  const target = new URL(url);
  target.pathname = "/postgres";
  const client = new pg.Client({ connectionString: target.toString(), connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Connects to host:port and lets `talk` decide the answer once connected; false on an error, a refusal
 * or no decision within `timeoutMs`. The socket is closed either way.
 */
function probeSocket(
  host: string,
  port: number,
  timeoutMs: number,
  talk: (socket: Socket, done: (ok: boolean) => void) => void,
): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("error", () => done(false));
    socket.connect(port, host, () => talk(socket, done));
  });
}

/** True when a Redis server answers PING at the URL. */
export function probeRedis(url: string, timeoutMs = 1_000): Promise<boolean> {
  const target = new URL(url);
  return probeSocket(target.hostname, Number(target.port || 6379), timeoutMs, (socket, done) => {
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
    socket.write("PING\r\n");
  });
}

/** True when something accepts a TCP connection at host:port ("0.0.0.0" and "::" are probed on loopback). */
export function probeTcp(address: string, timeoutMs = 1_000): Promise<boolean> {
  const separator = address.lastIndexOf(":");
  const rawHost = address.slice(0, separator).replace(/^\[|\]$/g, "");
  const host = rawHost === "0.0.0.0" || rawHost === "::" ? "127.0.0.1" : rawHost;
  return probeSocket(host, Number(address.slice(separator + 1)), timeoutMs, (_socket, done) => done(true));
}
