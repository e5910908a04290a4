// The faults test's load: a bounded, open-loop mix of signed triggers (creating and folding), signed
// pings and admin reads, spread over every gateway, each write tagged so the database can be asked
// afterwards whether an acknowledged request was stored, and stored once.
import { Agent, request } from "undici";
import { sign } from "../support/client.ts";

export type LoadKind = "create" | "fold" | "ping" | "read";

/** One request of the load, as the generator saw it end. */
export type Sent = {
  kind: LoadKind;
  /** Unique per request; in the stored row's metadata (`metadata.tag`) for writes. */
  tag: string;
  /** Sent with an Idempotency-Key (writes only). */
  keyed: boolean;
  sentAt: number;
  doneAt: number;
  /** The gateway that answered (or last failed), by index. */
  gateway: number;
  /** Its first gateway refused the connection: sent to the next one instead. */
  failedOver: boolean;
  /** The HTTP status, when one came back. */
  status?: number;
  /** The connection error, when none did (`ECONNRESET`, `UND_ERR_SOCKET`…): lost in flight. */
  error?: string;
  /** For an acknowledged trigger: the alert it created or folded into. */
  alertId?: string;
};

export type LoadTargets = {
  gateways: string[];
  adminToken: string;
  secret: string;
  teamId: string;
  webhookUrl: string;
  monitors: { id: string; pingUrl: string }[];
};

/**
 * Per cycle of ten: four creating triggers, two folding ones (group keys from a small set), three
 * pings, one admin read; every other write carries an Idempotency-Key. Pings go to the monitors in
 * turn: with M monitors and P pings/s each ping URL gets 60·P/M a minute, kept under the spec's 10.
 */
const CYCLE: { kind: LoadKind; keyed: boolean }[] = [
  { kind: "create", keyed: false },
  { kind: "ping", keyed: false },
  { kind: "fold", keyed: true },
  { kind: "create", keyed: true },
  { kind: "read", keyed: false },
  { kind: "ping", keyed: true },
  { kind: "create", keyed: false },
  { kind: "fold", keyed: false },
  { kind: "ping", keyed: false },
  { kind: "create", keyed: true },
];
const FOLD_KEYS = 4;
/** A request not answered within this is given up (counted as an error, `timeout`). */
const REQUEST_TIMEOUT_MS = 15_000;
/** At most this many requests out at once: a stalled stack is not buried under a backlog. */
const MAX_IN_FLIGHT = 200;

/** Connection errors where nothing reached the server: any request may go to another gateway. */
const NOT_CONNECTED = new Set(["ECONNREFUSED"]);

export class FaultLoad {
  readonly sent: Sent[] = [];
  /** Ticks skipped because MAX_IN_FLIGHT requests were out. */
  skipped = 0;
  readonly #targets: LoadTargets;
  readonly #agent = new Agent({ keepAliveTimeout: 10_000, connect: { timeout: 5_000 } });
  readonly #inFlight = new Set<Promise<void>>();
  /** The requests out now. */
  readonly #open = new Set<Sent>();
  readonly #alertIds: string[] = [];
  #running = false;
  #loop: Promise<void> | undefined;
  #count = 0;
  #pings = 0;

  constructor(targets: LoadTargets) {
    this.#targets = targets;
  }

  /** Sends `ratePerSecond` requests a second, on schedule whatever the answers take, until stopped. */
  start(ratePerSecond: number): void {
    this.#running = true;
    const intervalMs = 1000 / ratePerSecond;
    const began = performance.now();
    this.#loop = (async () => {
      for (let tick = 0; this.#running; tick++) {
        const wait = began + tick * intervalMs - performance.now();
        if (wait > 0) await new Promise((done) => setTimeout(done, wait));
        if (!this.#running) break;
        if (this.#inFlight.size >= MAX_IN_FLIGHT) {
          this.skipped += 1;
          continue;
        }
        const one = this.#sendOne(tick).finally(() => this.#inFlight.delete(one));
        this.#inFlight.add(one);
      }
    })();
  }

  /**
   * Resolves once every request sent before `time` has ended (the load goes on): a fault begun
   * then meets none of them, so each is counted in the window it was sent in.
   */
  async ended(time: number, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ([...this.#open].some((entry) => entry.sentAt < time) && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 20));
    }
  }

  /** Stops sending and waits for every request out to end. */
  async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
    await Promise.all(this.#inFlight);
    await this.#agent.close();
  }

  async #sendOne(tick: number): Promise<void> {
    const { kind, keyed } = CYCLE[tick % CYCLE.length] as (typeof CYCLE)[number];
    const number = this.#count++;
    const tag = `${kind}-${number}`;
    const shape = this.#shape(kind, tag, keyed, number);
    const { gateways } = this.#targets;
    const first = number % gateways.length;
    const entry: Sent = { kind, tag, keyed, sentAt: Date.now(), doneAt: 0, gateway: first, failedOver: false };
    this.#open.add(entry);
    for (let offset = 0; offset < gateways.length; offset++) {
      const gateway = (first + offset) % gateways.length;
      entry.gateway = gateway;
      try {
        const response = await request(`${gateways[gateway]}${shape.path}`, {
          method: shape.method,
          headers: shape.headers,
          body: shape.body,
          dispatcher: this.#agent,
          headersTimeout: REQUEST_TIMEOUT_MS,
          bodyTimeout: REQUEST_TIMEOUT_MS,
        });
        entry.status = response.statusCode;
        const text = await response.body.text();
        if ((kind === "create" || kind === "fold") && response.statusCode === 201) {
          entry.alertId = (JSON.parse(text) as { alertId?: string }).alertId;
          if (kind === "create" && entry.alertId) this.#alertIds.push(entry.alertId);
        }
        delete entry.error;
        break;
      } catch (error) {
        const code = errorCode(error);
        entry.error = code;
        // Nothing reached that gateway: the next one gets the request, as a Service's next endpoint would.
        if (!NOT_CONNECTED.has(code)) break;
        entry.failedOver = true;
      }
    }
    entry.doneAt = Date.now();
    this.#open.delete(entry);
    this.sent.push(entry);
  }

  #shape(kind: LoadKind, tag: string, keyed: boolean, number: number) {
    const { secret, webhookUrl, monitors, adminToken, teamId } = this.#targets;
    const signed = (path: string, payload: unknown) => {
      const body = JSON.stringify(payload);
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "x-webhook-signature": sign(secret, body),
      };
      if (keyed) headers["idempotency-key"] = `faults-${tag}`;
      return { method: "POST" as const, path, headers, body };
    };
    switch (kind) {
      case "create":
        return signed(`/api/alerts/trigger/${webhookUrl}`, {
          title: `Fault load ${tag}`,
          group_key: `faults-${tag}`,
          metadata: { tag },
        });
      case "fold":
        return signed(`/api/alerts/trigger/${webhookUrl}`, {
          title: "Fault load, folded",
          group_key: `faults-fold-${number % FOLD_KEYS}`,
          metadata: { tag },
        });
      case "ping": {
        const monitor = monitors[this.#pings++ % monitors.length] as LoadTargets["monitors"][number];
        return signed(`/api/ping/${monitor.pingUrl}`, { status: "up", metadata: { tag } });
      }
      case "read": {
        // An alert of this run when there is one, else the team's open alerts; a monitor now and then.
        const alertId = this.#alertIds[number % Math.max(this.#alertIds.length, 1)];
        const monitor = monitors[number % monitors.length];
        const path =
          number % 3 === 0 && monitor
            ? `/admin/v1/monitors/${monitor.id}`
            : alertId
              ? `/admin/v1/alerts/${alertId}`
              : `/admin/v1/teams/${teamId}/alerts`;
        return { method: "GET" as const, path, headers: { authorization: `Bearer ${adminToken}` }, body: undefined };
      }
    }
  }
}

function errorCode(error: unknown): string {
  const withCode = error as { code?: string; cause?: { code?: string } };
  return withCode.cause?.code ?? withCode.code ?? (error as Error).name ?? "error";
}
