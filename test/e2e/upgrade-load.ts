// A modest, steady, signed load for the rolling-upgrade test, spread over whichever gateways are in
// the pool (a load balancer's endpoints): triggers that create alerts and fold into four group keys,
// pings (now and then a down one, which raises an incident through monitors → alerts), resolves of
// those keys, and admin reads. Every trigger and ping carries a tag (in its metadata) and an
// Idempotency-Key of the same value, so the database can be counted by tag and a request that got no
// answer can be sent again as the same request.
import { sign } from "../support/client.ts";
import type { Release } from "./upgrade-stack.ts";

export type Kind = "trigger" | "ping" | "resolve" | "read";

export type Attempt = {
  gateway: string;
  release: Release;
  startedAt: number;
  endedAt: number;
  /** 0: no HTTP answer (connection refused or reset, or the 10 s timeout). */
  status: number;
  body: Record<string, unknown>;
};

export type LoadRequest = {
  kind: Kind;
  /** The tag and the Idempotency-Key; for reads, a sequence name. */
  key: string;
  method: "GET" | "POST";
  path: string;
  raw: string;
  attempts: Attempt[];
};

export type LoadTarget = {
  adminToken: string;
  teamId: string;
  secret: string;
  webhookUrl: string;
  pingUrls: string[];
  foldKeys: string[];
};

type Gateway = { url: string; release: Release; inFlight: number };

const EXPECTED: Record<Kind, number> = { trigger: 201, ping: 200, resolve: 200, read: 200 };

export const acknowledged = (request: LoadRequest) =>
  request.attempts.some((attempt) => attempt.status === EXPECTED[request.kind]);

/** The endpoints requests go to, in turn; a gateway leaves before it is stopped, as Kubernetes removes a terminating pod's endpoint. */
export class GatewayPool {
  readonly #gateways: Gateway[] = [];
  #turn = 0;

  add(url: string, release: Release): void {
    this.#gateways.push({ url, release, inFlight: 0 });
  }

  /** Takes `url` out of turn and resolves once its requests have been answered. */
  async remove(url: string): Promise<void> {
    const index = this.#gateways.findIndex((gateway) => gateway.url === url);
    const [gone] = this.#gateways.splice(index, 1);
    while (gone && gone.inFlight > 0) await new Promise((done) => setTimeout(done, 20));
  }

  pick(): Gateway {
    const gateway = this.#gateways[this.#turn++ % this.#gateways.length];
    if (!gateway) throw new Error("no gateway in the pool");
    return gateway;
  }
}

async function send(gateway: Gateway, request: LoadRequest, headers: Record<string, string>): Promise<Attempt> {
  const startedAt = Date.now();
  gateway.inFlight += 1;
  try {
    const response = await fetch(`${gateway.url}${request.path}`, {
      method: request.method,
      headers,
      ...(request.method === "POST" ? { body: request.raw } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      body = { raw: text.slice(0, 200) };
    }
    return {
      gateway: gateway.url,
      release: gateway.release,
      startedAt,
      endedAt: Date.now(),
      status: response.status,
      body,
    };
  } catch (error) {
    const body = { error: String((error as Error).cause ?? error) };
    return { gateway: gateway.url, release: gateway.release, startedAt, endedAt: Date.now(), status: 0, body };
  } finally {
    gateway.inFlight -= 1;
  }
}

export class UpgradeLoad {
  readonly requests: LoadRequest[] = [];
  readonly #target: LoadTarget;
  readonly #pool: GatewayPool;
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #pending = new Set<Promise<void>>();
  #count: Record<Kind, number> = { trigger: 0, ping: 0, resolve: 0, read: 0 };
  /** The newest alert a trigger answered with, for the admin reads. */
  #lastAlertId = "";

  constructor(target: LoadTarget, pool: GatewayPool) {
    this.#target = target;
    this.#pool = pool;
  }

  /** Starts the load: about 5 triggers, 3 pings, 2 reads and 0.7 resolves a second. */
  start(): void {
    this.#every(200, () => this.#trigger());
    this.#every(300, () => this.#ping());
    this.#every(1_500, () => this.#resolve());
    this.#every(500, () => this.#read());
  }

  /** Stops sending and waits for every request on its way. */
  async stop(): Promise<void> {
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    await Promise.all([...this.#pending]);
  }

  /**
   * Sends each request that got no acknowledgement again, as a client retries: the same bytes, the
   * same Idempotency-Key, a fresh signature. Up to `rounds` times each.
   */
  async retryUnacknowledged(rounds = 5): Promise<void> {
    for (let round = 0; round < rounds; round++) {
      const open = this.requests.filter((request) => request.kind !== "read" && !acknowledged(request));
      if (open.length === 0) return;
      await Promise.all(open.map((request) => this.#attempt(request)));
      await new Promise((done) => setTimeout(done, 500));
    }
  }

  #every(ms: number, tick: () => LoadRequest): void {
    this.#timers.push(
      setInterval(() => {
        // A stall (a peer being replaced) must not pile up requests without bound.
        if (this.#pending.size >= 40) return;
        const sent = this.#attempt(tick()).finally(() => this.#pending.delete(sent));
        this.#pending.add(sent);
      }, ms),
    );
  }

  async #attempt(request: LoadRequest): Promise<void> {
    const gateway = this.#pool.pick();
    const headers: Record<string, string> =
      request.kind === "read"
        ? { authorization: `Bearer ${this.#target.adminToken}` }
        : {
            "content-type": "application/json",
            "idempotency-key": request.key,
            "x-webhook-signature": sign(this.#target.secret, request.raw),
          };
    const attempt = await send(gateway, request, headers);
    request.attempts.push(attempt);
    if (request.kind === "trigger" && typeof attempt.body.alertId === "string")
      this.#lastAlertId = attempt.body.alertId;
  }

  /** `body` is given the request's key, which tagged bodies carry. */
  #add(kind: Kind, method: "GET" | "POST", path: string, body?: (key: string) => unknown): LoadRequest {
    const key = `${kind}-${++this.#count[kind]}`;
    const raw = body === undefined ? "" : JSON.stringify(body(key));
    const request: LoadRequest = { kind, key, method, path, raw, attempts: [] };
    this.requests.push(request);
    return request;
  }

  /** Two in three create an alert of their own; the third folds into one of the four keys (or reopens it). */
  #trigger(): LoadRequest {
    const n = this.#count.trigger + 1;
    const keys = this.#target.foldKeys;
    const groupKey = n % 3 === 0 ? (keys[(n / 3) % keys.length] as string) : `solo-${n}`;
    return this.#add("trigger", "POST", `/api/alerts/trigger/${this.#target.webhookUrl}`, (tag: string) => ({
      title: `Upgrade drill ${n}`,
      severity: "sev2",
      group_key: groupKey,
      metadata: { tag },
    }));
  }

  /**
   * Monitors in turn, at most one ping each per pool's round (keep the pool large enough for the
   * 10 pings a minute a ping URL may send); every fourth round reports them down (an incident, or
   * its reopening), the next up again (its resolve).
   */
  #ping(): LoadRequest {
    const n = this.#count.ping + 1;
    const urls = this.#target.pingUrls;
    const url = urls[n % urls.length] as string;
    const down = Math.floor(n / urls.length) % 4 === 2;
    return this.#add("ping", "POST", `/api/ping/${url}`, (tag: string) =>
      down ? { status: "down", reason: "upgrade drill", tag } : { status: "up", tag },
    );
  }

  #resolve(): LoadRequest {
    const keys = this.#target.foldKeys;
    const groupKey = keys[this.#count.resolve % keys.length] as string;
    return this.#add("resolve", "POST", `/api/alerts/resolve/${this.#target.webhookUrl}`, () => ({
      group_key: groupKey,
    }));
  }

  /** The team's open alerts, the newest alert, and the team's channels, in turn. */
  #read(): LoadRequest {
    const n = this.#count.read;
    const paths = [
      `/admin/v1/teams/${this.#target.teamId}/alerts?status=open`,
      this.#lastAlertId ? `/admin/v1/alerts/${this.#lastAlertId}` : `/admin/v1/teams/${this.#target.teamId}`,
      `/admin/v1/teams/${this.#target.teamId}/channels`,
    ];
    return this.#add("read", "GET", paths[n % paths.length] as string);
  }
}
