// A delivery policy like Svix's, against local receivers answering each code.
// 5xx, 408, 425 and 429 are tried again (Retry-After honoured); any other 4xx fails the delivery at
// once with its status; 410 Gone, or a run of failed deliveries, disables the channel with a reason
// and a time in the admin API and tells the team's other channels once; an admin enables it again.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { type Behaviour, Receiver } from "../support/receiver.ts";
import { Stack } from "../support/stack.ts";
import { allSettled, createChannel, waitForDeliveries } from "./notifications-helpers.ts";

let stack: Stack;
let client: Client;
const receivers: Receiver[] = [];

beforeAll(async () => {
  stack = await Stack.create({
    databaseName: `pulsegate_e2e_delivery_policy_${process.pid}`,
    env: {
      NOTIFY_MAX_ATTEMPTS: "3",
      NOTIFY_BACKOFF_BASE_MS: "100",
      NOTIFY_BACKOFF_MAX_MS: "1500",
      NOTIFY_DISABLE_AFTER_MS: "1000",
      NOTIFY_DISABLE_MIN_FAILURES: "5",
    },
  });
  client = new Client(stack.info);
}, 90_000);

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await stack?.destroy();
});

async function receiver(behaviour?: Behaviour): Promise<Receiver> {
  const started = await Receiver.start(behaviour);
  receivers.push(started);
  return started;
}

/** The channel's run of failed deliveries as the delivery policy counts it (not in the admin API). */
async function failedRun(channelId: string): Promise<number> {
  const database = new pg.Client({ connectionString: stack.info.databaseUrl });
  await database.connect();
  try {
    const { rows } = await database.query<{ n: number }>(
      "SELECT failed_deliveries AS n FROM alerts.channels WHERE id = $1",
      [channelId],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await database.end();
  }
}

async function channelOf(teamId: string, id: string) {
  const channels = (await client.admin("GET", `/teams/${teamId}/channels`)).body.channels as {
    id: string;
    enabled: boolean;
    disabledReason: string | null;
    disabledAt: string | null;
  }[];
  const channel = channels.find((candidate) => candidate.id === id);
  if (!channel) throw new Error(`channel ${id} not listed`);
  return channel;
}

const noticesIn = (receiver: Receiver) =>
  receiver.requests.filter((request) => request.json.type === "channel.disabled");

describe("delivery policy", () => {
  it("tries 5xx, 408, 425 and 429 again, after the receiver's Retry-After, and delivers", async () => {
    const { teamId, secret, webhookUrl } = await client.setup({}, { rateLimitPerMinute: 1000 });
    const codes = [500, 502, 503, 408, 425, 429];
    // Each alert's first attempt gets its code (429 with Retry-After: 1), the second 200.
    const seen = new Map<string, number[]>();
    const hook = await receiver((request) => {
      const title = (request.json.alert as { title: string }).title;
      const times = [...(seen.get(title) ?? []), Date.now()];
      seen.set(title, times);
      if (times.length > 1) return 200;
      const code = Number(title);
      return code === 429 ? { status: 429, headers: { "retry-after": "1" } } : code;
    });
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });
    for (const code of codes) {
      const trigger = await client.trigger(webhookUrl, { title: String(code) }, { secret });
      const [delivery] = await waitForDeliveries(
        client,
        trigger.body.alertId as string,
        allSettled,
        `${code} then 200`,
      );
      expect(delivery, String(code)).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200 });
    }
    // Backoff alone waits 50-100 ms here; the 429 waited for its Retry-After.
    const [first, second] = seen.get("429") ?? [];
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(950);
    const [other1, other2] = seen.get("503") ?? [];
    expect((other2 ?? 0) - (other1 ?? 0)).toBeLessThan(950);
    expect((await channelOf(teamId, (await firstChannel(teamId)).id)).enabled).toBe(true);
  });

  it("fails a delivery at once on any other 4xx, with the status recorded", async () => {
    const { teamId, secret, webhookUrl } = await client.setup({}, { rateLimitPerMinute: 1000 });
    const hook = await receiver((request) => Number((request.json.alert as { title: string }).title));
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });
    for (const code of [400, 401, 403, 404]) {
      const trigger = await client.trigger(webhookUrl, { title: String(code) }, { secret });
      const [delivery] = await waitForDeliveries(client, trigger.body.alertId as string, allSettled, `${code}`);
      expect(delivery, String(code)).toMatchObject({
        status: "failed",
        attempts: 1,
        lastStatusCode: code,
        lastError: `HTTP ${code}`,
      });
    }
    expect(hook.requests).toHaveLength(4);
  });

  it("disables a channel answering 410 Gone, tells the team's other channels once, until an admin enables it", async () => {
    const { teamId, secret, webhookUrl } = await client.setup({}, { rateLimitPerMinute: 1000 });
    let goneAnswers = 410;
    const gone = await receiver(() => goneAnswers);
    const other = await receiver(() => 200);
    const goneChannel = await createChannel(client, teamId, { kind: "webhook", url: gone.url(), name: "old hook" });
    await createChannel(client, teamId, { kind: "webhook", url: other.url(), name: "on-call" });

    const first = await client.trigger(webhookUrl, { title: "first" }, { secret });
    const [failed] = (
      await waitForDeliveries(client, first.body.alertId as string, allSettled, "first settled")
    ).filter((delivery) => delivery.channelId === goneChannel.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 410 });
    const disabled = await eventually(async () => {
      const channel = await channelOf(teamId, goneChannel.id);
      return channel.enabled ? undefined : channel;
    });
    expect(disabled.disabledReason).toBe("the receiver answered 410 Gone");
    expect(Date.parse(disabled.disabledAt ?? "")).toBeGreaterThan(Date.now() - 60_000);

    await other.waitFor((requests) => noticesIn({ requests } as Receiver).length > 0, "the notice");
    expect(noticesIn(other)).toHaveLength(1);
    expect(noticesIn(other)[0]?.json).toMatchObject({
      type: "channel.disabled",
      channel: { id: goneChannel.id, name: "old hook", disabledReason: "the receiver answered 410 Gone" },
    });

    // Disabled: the next alert goes to the other channel only, and no second notice comes.
    const second = await client.trigger(webhookUrl, { title: "second" }, { secret });
    const secondDeliveries = await waitForDeliveries(client, second.body.alertId as string, allSettled, "second");
    expect(secondDeliveries.map((delivery) => delivery.channelId)).not.toContain(goneChannel.id);
    expect(gone.requests).toHaveLength(1);
    expect(noticesIn(other)).toHaveLength(1);

    // Enabling again is the admin's call; the reason goes with it.
    goneAnswers = 200;
    const enabled = await client.admin("PATCH", `/channels/${goneChannel.id}`, { enabled: true });
    expect(enabled.body.channel).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
    const third = await client.trigger(webhookUrl, { title: "third" }, { secret });
    const thirdDeliveries = await waitForDeliveries(client, third.body.alertId as string, allSettled, "third");
    expect(thirdDeliveries.find((delivery) => delivery.channelId === goneChannel.id)?.status).toBe("delivered");
  });

  it("disables a channel whose deliveries all failed for the span, once at least 5 did", async () => {
    const { teamId, secret, webhookUrl } = await client.setup({}, { rateLimitPerMinute: 1000 });
    const failing = await receiver(() => 503);
    const other = await receiver(() => 200);
    const failingChannel = await createChannel(client, teamId, { kind: "webhook", url: failing.url() });
    await createChannel(client, teamId, { kind: "slack", url: other.url() });

    const startedAt = Date.now();
    const alertIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      alertIds.push((await client.trigger(webhookUrl, { title: `down ${i}` }, { secret })).body.alertId as string);
    }
    for (const alertId of alertIds) await waitForDeliveries(client, alertId, allSettled, "failed for good");
    // Let the run of failures outlast the span (1 s here), then a fourth: still too few events.
    await new Promise((done) => setTimeout(done, Math.max(0, startedAt + 1_200 - Date.now())));
    const fourth = await client.trigger(webhookUrl, { title: "down 3" }, { secret });
    await waitForDeliveries(client, fourth.body.alertId as string, allSettled, "fourth failed");
    // The policy counts a failure after its delivery is settled, then decides: wait until it has counted
    // the fourth, so that "still enabled" is checked after the policy looked (the reason below names
    // the count it was disabled at).
    await eventually(async () => ((await failedRun(failingChannel.id)) >= 4 ? true : undefined), {
      what: "the fourth failure counted",
    });
    expect((await channelOf(teamId, failingChannel.id)).enabled).toBe(true);

    const fifth = await client.trigger(webhookUrl, { title: "down 4" }, { secret });
    await waitForDeliveries(client, fifth.body.alertId as string, allSettled, "fifth failed");
    const disabled = await eventually(async () => {
      const channel = await channelOf(teamId, failingChannel.id);
      return channel.enabled ? undefined : channel;
    });
    expect(disabled.disabledReason).toMatch(/^every delivery failed for \d+ s \(5 events\)$/);
    // The Slack channel gets one notice, as a message for people.
    await other.waitFor(
      (requests) => requests.some((request) => String(request.json.text).includes("was disabled")),
      "the Slack notice",
    );
    expect(other.requests.filter((request) => String(request.json.text).includes("was disabled"))).toHaveLength(1);
  });
});

async function firstChannel(teamId: string): Promise<{ id: string }> {
  const channels = (await client.admin("GET", `/teams/${teamId}/channels`)).body.channels as { id: string }[];
  return channels[0] as { id: string };
}
