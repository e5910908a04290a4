import type { Logger } from "@pulsegate/runtime/logger";
import pg from "pg";

export type ChannelListenerOptions = {
  url: string;
  /** A PostgreSQL channel name (an identifier; quoted here). */
  channel: string;
  log: Pick<Logger, "info" | "warn" | "debug">;
  /** Each notification's payload, in the order PostgreSQL sent them (at the notifying commit). */
  onNotification: (payload: string) => void;
  /**
   * Each time LISTEN is in place, the first time included: whatever was notified while no
   * connection listened is lost, so the caller catches up from the source here.
   */
  onListening: () => void;
  /** Reconnects after 1 s, doubling up to this (default 30 s). */
  maxRetryMs?: number;
  /** How often the idle connection is checked with a query, so a dead one is noticed (default 15 s). */
  checkEveryMs?: number;
};

export type ChannelListener = {
  /** Resolves once LISTEN is first in place, or it is known that it never will be (the embedded database). */
  listening: Promise<void>;
  close: () => Promise<void>;
};

const CONNECT_TIMEOUT_MS = 5_000;
const CHECK_TIMEOUT_MS = 5_000;

/**
 * A connection of its own that LISTENs on one channel, and connects again (with back-off) when it
 * is lost: an error, the server ending it, or a check query that does not answer in time. No pool
 * connection can listen: a notification is delivered to the session that listens, and a pooled
 * session is handed to others. The embedded database (PGlite) serves every connection from one
 * session, so a notification goes to whichever connection reads next: there this listens not at
 * all and says so, and the caller's periodic reads are what it has.
 */
export function listenToChannel(options: ChannelListenerOptions): ChannelListener {
  const { url, channel, log, onNotification, onListening } = options;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  const checkEveryMs = options.checkEveryMs ?? 15_000;
  let client: pg.Client | undefined;
  let failures = 0;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let check: NodeJS.Timeout | undefined;
  let nowListening: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => {
    nowListening = resolve;
  });

  const lost = (lostClient: pg.Client, error?: unknown) => {
    if (client !== lostClient) return; // already replaced
    client = undefined;
    clearInterval(check);
    lostClient.removeAllListeners("notification");
    lostClient.on("error", () => undefined);
    lostClient.end().catch(() => undefined);
    if (closed) return;
    failures++;
    const delay = Math.min(maxRetryMs, 1_000 * 2 ** (failures - 1));
    // Once per outage at warn; the retries that follow at debug.
    const fields = { err: error, channel, retryInMs: delay };
    if (failures === 1) log.warn(fields, "not listening for notifications; connecting again");
    else log.debug(fields, "still not listening for notifications");
    retry = setTimeout(() => void connect(), delay);
  };

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client = next;
    next.on("error", (error) => lost(next, error));
    next.on("end", () => lost(next));
    next.on("notification", (message) => {
      if (message.channel === channel) onNotification(message.payload ?? "");
    });
    try {
      await next.connect();
      const { rows } = await next.query<{ shared: boolean }>("SELECT version() LIKE '%PGlite%' AS shared");
      if (rows[0]?.shared) {
        log.info({ channel }, "the embedded database delivers no notifications to a listener: not listening");
        closed = true;
        client = undefined;
        await next.end().catch(() => undefined);
        nowListening();
        return;
      }
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      lost(next, error);
      return;
    }
    if (client !== next || closed) return;
    if (failures > 0) log.info({ channel }, "listening for notifications again");
    failures = 0;
    check = setInterval(() => {
      const timeout = setTimeout(() => lost(next, new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      next.query("SELECT 1").then(
        () => clearTimeout(timeout),
        (error: unknown) => {
          clearTimeout(timeout);
          lost(next, error);
        },
      );
    }, checkEveryMs);
    check.unref();
    onListening();
    nowListening();
  };

  void connect();
  return {
    listening,
    close: async () => {
      closed = true;
      clearTimeout(retry);
      clearInterval(check);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}
