// On a stack of its own so the alerts service can be killed and a
// second replica started: nothing queued is lost, and replicas never send
// one delivery twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { Receiver } from "../support/receiver.ts";
import { Stack } from "../support/stack.ts";
import { allSettled, createChannel, deliveriesOf, waitForDeliveries } from "./notifications-helpers.ts";

let stack: Stack;
let client: Client;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // Enough attempts to outlast the restart below.
  stack = await Stack.create({
    databaseName: `pulsegate_e2e_notify_restart_${process.pid}`,
    env: { NOTIFY_MAX_ATTEMPTS: "30" },
  });
  client = new Client(stack.info);
});

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await stack?.destroy();
});

async function receiver(): Promise<Receiver> {
  const started = await Receiver.start();
  receivers.push(started);
  return started;
}

describe("notification delivery across restarts and replicas", () => {
  it("delivers what was pending when the alerts service was killed, once it is back", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const hook = await receiver();
    let up = false;
    hook.behaviour = () => (up ? 200 : 500);
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });

    const trigger = await client.trigger(webhookUrl, { title: "Outage during deploy" }, { secret });
    const alertId = trigger.body.alertId as string;
    const [failed] = await hook.waitForCount(1);
    const deliveryId = failed?.headers["x-pulsegate-delivery"];
    expect(deliveryId).toEqual(expect.stringMatching(/^dlv_/));

    // A crash, not a drain: the delivery stays queued (or leased) in PostgreSQL.
    await stack.stop("alerts", "SIGKILL");
    up = true;
    stack.start("alerts");
    await stack.waitReady();

    const [delivery] = await waitForDeliveries(client, alertId, allSettled, "delivered after restart", 40_000);
    expect(delivery).toMatchObject({ id: deliveryId, status: "delivered", lastStatusCode: 200 });
    const last = hook.requests.at(-1);
    expect(last?.headers["x-pulsegate-delivery"]).toBe(deliveryId);
    expect(hook.requests.filter((request) => request.headers["x-pulsegate-delivery"] !== deliveryId)).toEqual([]);
  }, 90_000);

  it("answers a down ping while alerts is away, and raises its incident from the outbox once alerts is back", async () => {
    const { teamId, secret } = await client.createTeam();
    const monitor = await client.createMonitor(teamId);
    await stack.stop("alerts", "SIGKILL");
    const started = Date.now();
    const down = await client.ping(monitor.pingUrl, { status: "down", reason: "alerts is away" }, { secret });
    expect(down.status).toBe(200);
    expect(down.body.monitor).toMatchObject({ status: "down" });
    // Not held for long: the inline send gives up within INCIDENT_INLINE_WAIT_MS and leaves it to the outbox.
    expect(Date.now() - started).toBeLessThan(2_000);
    // The gateway still serves (pings work), so it stays ready and says what is down.
    const readyz = await fetch(`${stack.info.baseUrl}/readyz`);
    expect(readyz.status).toBe(200);
    expect(((await readyz.json()) as { checks: Record<string, string> }).checks).toMatchObject({
      alerts: "down",
      monitors: "up",
    });
    stack.start("alerts");
    await stack.waitReady();
    const alerts = await eventually(
      async () => {
        const response = await client.admin("GET", `/teams/${teamId}/alerts?status=open`);
        const list = response.body.alerts as { source: string; sourceId: string }[] | undefined;
        return list?.some((alert) => alert.sourceId === monitor.id) ? list : undefined;
      },
      { what: "the incident raised after alerts came back", timeoutMs: 30_000 },
    );
    expect(alerts.filter((alert) => alert.source === "monitor")).toHaveLength(1);
  }, 60_000);

  it("two dispatcher replicas send each delivery once", async () => {
    await stack.startReplica("alerts", "alerts-2");
    const { teamId, secret, webhookUrl } = await client.setup();
    const hook = await receiver();
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });

    const alertIds: string[] = [];
    for (let i = 0; i < 30; i++) {
      const trigger = await client.trigger(webhookUrl, { title: `Alert ${i}` }, { secret });
      alertIds.push(trigger.body.alertId as string);
    }
    for (const alertId of alertIds) {
      const [delivery] = await waitForDeliveries(client, alertId, allSettled, `alert ${alertId} delivered`, 30_000);
      // Claimed once: a second claim would have counted a second attempt.
      expect(delivery).toMatchObject({ status: "delivered", attempts: 1 });
    }
    // Every delivery is recorded after its request was answered, so all requests are in.
    const ids = hook.requests.map((request) => request.headers["x-pulsegate-delivery"]);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    await stack.stop("alerts-2");
  }, 90_000);

  it("never logs a channel URL, a signature or a notification body", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const slack = await receiver();
    const secretPath = "/services/T0LOGCHECK/B0LOGCHECK/s3cr3tTokenValue0123456789";
    await createChannel(client, teamId, { kind: "slack", url: slack.url(secretPath) });
    const trigger = await client.trigger(webhookUrl, { title: "Log hygiene" }, { secret });
    await slack.waitForCount(1);
    await waitForDeliveries(client, trigger.body.alertId as string, allSettled, "delivered");
    expect((await deliveriesOf(client, trigger.body.alertId as string))[0]?.status).toBe("delivered");
    const output = stack.output();
    expect(output).toContain("notification delivered");
    expect(output).not.toContain("T0LOGCHECK");
    expect(output).not.toContain("s3cr3tTokenValue");
    expect(output).not.toContain(secret);
    expect(output).not.toContain("Log hygiene");
  });

  it("stops the dispatcher on SIGTERM before the database closes", async () => {
    expect(await stack.stop("alerts", "SIGTERM")).toBe(0);
    const lines = stack
      .output()
      .split("\n")
      .filter((line) => line.includes('"closer"'));
    const closers = lines.map((line) => /"closer":"([a-z]+)"/.exec(line)?.[1]).filter(Boolean);
    const mine = closers.slice(closers.lastIndexOf("grpc"));
    // Stop taking calls, stop the background workers, and only then close the database.
    expect(mine[0]).toBe("grpc");
    expect(mine.slice(1, 5).sort()).toEqual(["notifications", "purge", "reminders", "retention"]);
    expect(mine[5]).toBe("database");
    expect(lines.some((line) => line.includes("close failed"))).toBe(false);
  });
});
