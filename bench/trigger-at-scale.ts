// Trigger latency with the alerts table nearly empty and again with a million stored alerts (the
// scale targets): called by bench/run.ts against its running stack, last (the rows stay). Creates and folds are
// measured one at a time (p50/p99 of a few hundred sequential signed triggers) and in a short autocannon
// burst; between the two measurements one INSERT ... SELECT generate_series writes the alerts and their
// occurrences, then the alerts tables are vacuumed and analyzed (autovacuum is off on the development
// machine), a checkpoint writes the insert out, and the trigger path's plans are checked for unbounded
// scans. Everything stops by itself (about 45 s on the 2-core development machine).
import { createHmac, randomBytes } from "node:crypto";
import autocannon from "autocannon";
import pg from "pg";
import { explainTriggerPlans, unboundedScans } from "../services/alerts/src/alerts/explain-trigger-plans.ts";
import { openTriggerPool } from "../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../services/alerts/src/config.ts";

export type TriggerAtScaleOptions = {
  databaseUrl: string;
  /** The running stack's gateway, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  /** A team's webhook secret and one of its webhooks' URL token (its team's triggers are measured). */
  secret: string;
  webhookUrl: string;
  /** Alerts written between the two measurements (1,000,000). */
  alerts?: number;
  /** Sequential triggers per latency measurement (300). */
  sequential?: number;
  /** Seconds of each autocannon burst (3), and its connections (50). */
  burstSeconds?: number;
  connections?: number;
  log?: (line: string) => void;
};

export type Latency = { count: number; p50: number; p99: number; unexpected: number };
export type Burst = { rps: number; p50: number; p99: number; non2xx: number; errors: number };
export type ScaleMeasurement = {
  storedAlerts: number;
  create: Latency;
  fold: Latency;
  createBurst: Burst;
  foldBurst: Burst;
};
export type TriggerAtScaleResult = {
  before: ScaleMeasurement;
  after: ScaleMeasurement;
  insert: { alerts: number; occurrences: number; seconds: number };
  /** What was vacuumed and why (said in the output); the seconds include the checkpoint after it. */
  vacuum: { tables: string[]; seconds: number; note: string };
  /** Plans of the trigger path at scale: their names, and every line that scans without a bound (none). */
  plans: { statements: string[]; unbounded: string[] };
  seconds: number;
};

const TABLES = ["alerts.alerts", "alerts.occurrences", "alerts.outbox", "alerts.alert_quota_usage"];
const PADDING = "x".repeat(800);

export async function triggerAtScale(options: TriggerAtScaleOptions): Promise<TriggerAtScaleResult> {
  const started = performance.now();
  const log = options.log ?? ((line: string) => console.log(line));
  const alerts = options.alerts ?? 1_000_000;
  const db = new pg.Client({ connectionString: options.databaseUrl });
  await db.connect();
  try {
    const team = await db.query<{ team_id: string; reopen_window_seconds: number }>(
      "SELECT team_id, reopen_window_seconds FROM alerts.webhooks WHERE webhook_url = $1",
      [options.webhookUrl],
    );
    const teamId = team.rows[0]?.team_id;
    if (!teamId) throw new Error("trigger-at-scale: the webhook URL is not known to alerts");

    /** A webhook of the team for each phase: a rate-limit window of its own, no filter rules. */
    const freshWebhook = async (): Promise<string> => {
      const url = randomBytes(24).toString("base64url");
      await db.query(
        `INSERT INTO alerts.webhooks (id, team_id, webhook_url, name, default_severity, enabled, filter_rules,
                                      rate_limit_per_minute, reopen_window_seconds, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'sev2', true, '[]', 100000, 3600, now(), now())`,
        // Names are unique within a team (docs/decisions.md, "Names"): one per phase.
        [`wh_scale_${url.slice(0, 12)}`, teamId, url, `trigger at scale ${url.slice(0, 12)}`],
      );
      return url;
    };
    const storedAlerts = async () =>
      Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM alerts.alerts")).rows[0]?.n ?? 0);

    const measure = async (phase: string): Promise<ScaleMeasurement> => {
      const stored = await storedAlerts();
      const webhookUrl = await freshWebhook();
      const trigger = new Trigger(options.baseUrl, webhookUrl, options.secret);
      const count = options.sequential ?? 300;
      // Warm: the gateway and alerts learn the new webhook, the pool's plans are made.
      for (let i = 0; i < 20; i++) await trigger.send(`${phase}-warm-${i}`, "created");
      const create = await trigger.sequential(count, (i) => [`${phase}-create-${i}`, "created"]);
      await trigger.send(`${phase}-fold`, "created");
      const fold = await trigger.sequential(count, () => [`${phase}-fold`, "occurrence_added"]);
      const burst = { seconds: options.burstSeconds ?? 3, connections: options.connections ?? 50 };
      const createBurst = await trigger.burst(burst, (i) => `${phase}-burst-${i}`);
      const foldBurst = await trigger.burst(burst, () => `${phase}-fold`);
      const measurement = { storedAlerts: stored, create, fold, createBurst, foldBurst };
      log(
        `trigger latency with ${stored.toLocaleString("en")} alerts stored: create p50 ${create.p50} ms p99 ` +
          `${create.p99} ms, fold p50 ${fold.p50} ms p99 ${fold.p99} ms (${count} sequential each); bursts ` +
          `${Math.round(createBurst.rps)} creates/s, ${Math.round(foldBurst.rps)} folds/s`,
      );
      return measurement;
    };

    const before = await measure("before");

    log(`writing ${alerts.toLocaleString("en")} alerts and their occurrences (one INSERT ... SELECT)`);
    const insertStarted = performance.now();
    const inserted = await db.query<{ occurrences: string }>(insertStatement(), [alerts, teamId]);
    const insert = {
      alerts,
      occurrences: Number(inserted.rows[0]?.occurrences ?? 0),
      seconds: round((performance.now() - insertStarted) / 1000),
    };

    const vacuumStarted = performance.now();
    await db.query(`VACUUM ANALYZE ${TABLES.join(", ")}`);
    // The insert's dirty pages are written now, not by a checkpoint during the second measurement.
    await db.query("CHECKPOINT");
    const vacuum = {
      tables: TABLES,
      seconds: round((performance.now() - vacuumStarted) / 1000),
      note:
        `vacuumed and analyzed ${TABLES.join(", ")} after the insert (autovacuum is off on this machine), ` +
        "then checkpointed",
    };
    log(`${vacuum.note} (${insert.seconds} s to insert, ${vacuum.seconds} s to vacuum)`);

    const plans = await checkPlans(options.databaseUrl);
    log(
      plans.unbounded.length === 0
        ? `every statement of the trigger path looks alerts up through an index at ${alerts.toLocaleString("en")} alerts`
        : `UNBOUNDED SCANS in the trigger path:\n  ${plans.unbounded.join("\n  ")}`,
    );

    const after = await measure("after");
    return { before, after, insert, vacuum, plans, seconds: round((performance.now() - started) / 1000) };
  } finally {
    await db.end();
  }
}

/**
 * One statement: alerts over 1,000 teams (the measured team is one of them) and 100 keys each, ten
 * generations per (team, key) of which only the newest may be open (a quarter of the keys), every 100th key
 * none (alerts without a group key); resolved ones spread over the last weeks. One occurrence each.
 */
function insertStatement(): string {
  return `
    WITH generated AS (
      SELECT n, n % 1000 AS team, (n / 1000) % 100 AS key, n / 100000 AS generation,
             now() - (($1::int - n) * interval '2 seconds') AS at
        FROM generate_series(1, $1::int) AS n
    ), inserted AS (
      INSERT INTO alerts.alerts (id, team_id, status, group_key, title, description, severity, occurrence_count,
                                 source, source_id, metadata, first_seen_at, last_seen_at, resolved_at, created_at)
      SELECT 'alert_scale_' || n,
             CASE WHEN team = 0 THEN $2 ELSE 'team_scale_' || team END,
             CASE WHEN generation = 9 AND key % 4 = 0 THEN 'open' ELSE 'resolved' END,
             CASE WHEN key = 99 THEN NULL ELSE 'scale-' || key END,
             'Stored alert ' || n, '', 'sev2', 1, 'webhook', 'wh_scale', NULL, at, at,
             CASE WHEN generation = 9 AND key % 4 = 0 THEN NULL ELSE at + interval '1 minute' END, at
        FROM generated
      RETURNING id, team_id, title, created_at
    ), occurred AS (
      INSERT INTO alerts.occurrences (alert_id, team_id, outcome, source, source_id, title, description, severity,
                                      metadata, received_at)
      SELECT id, team_id, 'created', 'webhook', 'wh_scale', title, '', 'sev2', NULL, created_at FROM inserted
      RETURNING 1
    )
    SELECT count(*) AS occurrences FROM occurred`;
}

async function checkPlans(databaseUrl: string): Promise<TriggerAtScaleResult["plans"]> {
  // A connection like the alerts service's trigger pool (its session settings shape the plans).
  const pool = openTriggerPool(loadAlertsConfig({ DATABASE_URL: databaseUrl, DB_POOL_MAX: "2" }));
  try {
    const client = await pool.connect();
    try {
      const plans = await explainTriggerPlans(client);
      return { statements: [...plans.keys()], unbounded: unboundedScans(plans) };
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

/** Signed triggers to one webhook. */
class Trigger {
  readonly #url: string;
  readonly #path: string;
  readonly #secret: string;

  constructor(baseUrl: string, webhookUrl: string, secret: string) {
    this.#path = `/api/alerts/trigger/${webhookUrl}`;
    this.#url = `${baseUrl}${this.#path}`;
    this.#secret = secret;
  }

  body(groupKey: string): string {
    return JSON.stringify({
      title: "Checkout error rate above 5%",
      severity: "sev2",
      group_key: groupKey,
      metadata: { env: "production", region: "eu-west-1", padding: PADDING },
    });
  }

  signature(body: string): string {
    return createHmac("sha256", this.#secret).update(body).digest("hex");
  }

  /** Sends one trigger; true when it was answered 201 with the expected status. */
  async send(groupKey: string, expected: string): Promise<boolean> {
    const body = this.body(groupKey);
    const response = await fetch(this.#url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-webhook-signature": this.signature(body) },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await response.json()) as { status?: string };
    return response.status === 201 && answer.status === expected;
  }

  async sequential(count: number, next: (i: number) => [string, string]): Promise<Latency> {
    const times: number[] = [];
    let unexpected = 0;
    for (let i = 0; i < count; i++) {
      const [groupKey, expected] = next(i);
      const sent = performance.now();
      if (!(await this.send(groupKey, expected))) unexpected++;
      times.push(performance.now() - sent);
    }
    times.sort((a, b) => a - b);
    const at = (share: number) => round(times[Math.min(times.length - 1, Math.floor(times.length * share))] ?? 0);
    return { count, p50: at(0.5), p99: at(0.99), unexpected };
  }

  async burst(options: { seconds: number; connections: number }, key: (i: number) => string): Promise<Burst> {
    let serial = 0;
    const result = await autocannon({
      url: this.#url,
      method: "POST",
      connections: options.connections,
      duration: options.seconds,
      requests: [
        {
          setupRequest: (request: autocannon.Request) => {
            const body = this.body(key(serial++));
            return {
              ...request,
              path: this.#path,
              body,
              headers: {
                ...request.headers,
                "content-type": "application/json",
                "x-webhook-signature": this.signature(body),
              },
            };
          },
        },
      ],
    });
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
    };
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
