// POST /channels/{id}/test waits for the channel's receiver, so what a team may have in flight is
// bounded, across replicas (leases in alerts.channel_test_leases): one test per channel, 3 per
// team; beyond, 429 channel_test_in_progress with Retry-After. Two gateways, each on its own alerts
// replica, share the bound. A test slower than the gateway's GRPC_TIMEOUT_MS is still answered.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type JsonResponse } from "../support/client.ts";
import { signIn } from "../support/dashboard-session.ts";
import { Stack } from "../support/stack.ts";
import { createChannel } from "./notifications-helpers.ts";

const SENTENCE =
  "A test notification is already being sent through this channel, or the team has 3 in flight; retry after Retry-After seconds.";
/** Alerts' attempt timeout here (the gateway's config is told the same): a lease lasts 4 × it + 5 s. */
const ATTEMPT_TIMEOUT_MS = 4_000;
const LEASE_SECONDS = (4 * ATTEMPT_TIMEOUT_MS + 5_000) / 1_000;

/** A receiver that holds every request until told to answer it (200), in the order they came. */
class HeldReceiver {
  readonly #held: ServerResponse[] = [];
  readonly #server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      this.#held.push(response);
      this.arrivals += 1;
      for (const waiter of [...this.#waiters]) waiter();
    });
  });
  readonly #waiters = new Set<() => void>();
  arrivals = 0;

  static async start(): Promise<HeldReceiver> {
    const receiver = new HeldReceiver();
    await new Promise<void>((done) => receiver.#server.listen(0, "127.0.0.1", done));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `count` requests have come in all told. */
  arrived(count: number): Promise<void> {
    return new Promise((done, fail) => {
      const check = () => {
        if (this.arrivals < count) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        done();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        fail(new Error(`held receiver: ${this.arrivals} request(s), waited for ${count}`));
      }, 15_000);
      this.#waiters.add(check);
      check();
    });
  }

  /** Answers the n-th request held (0-based) with 200. */
  answer(index: number): void {
    this.#held[index]?.writeHead(200, { "content-type": "text/plain" }).end("ok");
  }

  answerAll(): void {
    for (const response of this.#held) if (!response.writableEnded) response.writeHead(200).end("ok");
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((done) => this.#server.close(done));
  }
}

let stack: Stack;
/** Through the stack's gateway and alerts. */
let one: Client;
/** Through a second gateway whose alerts is a second alerts replica. */
let two: Client;
let db: pg.Pool;
const receivers: HeldReceiver[] = [];

beforeAll(async () => {
  stack = await Stack.create({
    databaseName: `pulsegate_channel_test_bounds_${process.pid}`,
    env: { NOTIFY_ATTEMPT_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS), DB_POOL_MAX: "3" },
  });
  one = new Client(stack.info);
  const alertsTwo = await stack.startReplica("alerts", "alerts-2");
  two = new Client({
    ...stack.info,
    baseUrl: await stack.startGatewayReplica("gateway-2", { ALERTS_GRPC_ADDR: alertsTwo }),
  });
  db = new pg.Pool({ connectionString: stack.info.databaseUrl, max: 2 });
}, 120_000);

afterAll(async () => {
  for (const receiver of receivers) receiver.answerAll();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await db?.end();
  await stack?.destroy();
});

async function heldReceiver(): Promise<HeldReceiver> {
  const receiver = await HeldReceiver.start();
  receivers.push(receiver);
  return receiver;
}

const testChannel = (client: Client, id: string) => client.admin("POST", `/channels/${id}/test`, {});

/** The refusal: 429, the code, the sentence, and a Retry-After within the lease's length. */
function expectInProgress(answer: JsonResponse): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ error: SENTENCE, code: "channel_test_in_progress", requestId: expect.any(String) });
  const retryAfter = Number(answer.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= LEASE_SECONDS).toBe(true);
}

const delivered = (answer: JsonResponse) => [answer.status, (answer.body.test as { delivered: boolean }).delivered];

const leasesOf = async (channelId: string) =>
  (
    await db.query<{ lease_id: string }>("SELECT lease_id FROM alerts.channel_test_leases WHERE channel_id = $1", [
      channelId,
    ])
  ).rows.map((row) => row.lease_id);

describe("channel tests in flight", () => {
  it("one per channel, through either gateway: a second is 429 with Retry-After; the first is answered after the gateway's GRPC_TIMEOUT_MS; then the channel is free", async () => {
    const { teamId } = await one.createTeam();
    const hook = await heldReceiver();
    const channel = await createChannel(one, teamId, { kind: "webhook", url: hook.url });
    const started = Date.now();
    const first = testChannel(one, channel.id);
    await hook.arrived(1);
    expectInProgress(await testChannel(two, channel.id));
    expectInProgress(await testChannel(one, channel.id));
    // Held longer than the gateway's own deadline for calls (GRPC_TIMEOUT_MS, 2 s): still answered.
    await new Promise((done) => setTimeout(done, 2_500));
    hook.answer(0);
    const answer = await first;
    expect(delivered(answer)).toEqual([200, true]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
    expect(await leasesOf(channel.id)).toEqual([]);
    // Its slot is free again.
    const again = testChannel(two, channel.id);
    await hook.arrived(2);
    hook.answer(1);
    expect(delivered(await again)).toEqual([200, true]);
    expect(hook.arrivals).toBe(2);
  });

  it("3 per team across replicas: a 4th channel's test is 429 while another team's goes through; an ended test frees its slot", async () => {
    const { teamId } = await one.createTeam();
    const other = await one.createTeam();
    const hook = await heldReceiver();
    const channels = [];
    for (const name of ["a", "b", "c", "d"]) {
      channels.push(await createChannel(one, teamId, { kind: "webhook", url: hook.url, name }));
    }
    const [a, b, c, d] = channels as [
      (typeof channels)[0],
      (typeof channels)[0],
      (typeof channels)[0],
      (typeof channels)[0],
    ];
    const running = [testChannel(one, a.id), testChannel(two, b.id), testChannel(one, c.id)];
    await hook.arrived(3);
    expectInProgress(await testChannel(two, d.id));
    expectInProgress(await testChannel(one, d.id));

    const otherHook = await heldReceiver();
    const otherChannel = await createChannel(one, other.teamId, { kind: "webhook", url: otherHook.url });
    const otherTest = testChannel(two, otherChannel.id);
    await otherHook.arrived(1);
    otherHook.answer(0);
    expect(delivered(await otherTest)).toEqual([200, true]);

    // One of the three ends (whichever came first to the receiver): the 4th channel gets its slot.
    hook.answer(0);
    expect(delivered(await Promise.race(running))).toEqual([200, true]);
    const fourth = testChannel(two, d.id);
    await hook.arrived(4);
    hook.answerAll();
    expect((await Promise.all([...running, fourth])).map(delivered)).toEqual([
      [200, true],
      [200, true],
      [200, true],
      [200, true],
    ]);
  });

  it("an expired lease (a replica that crashed) no longer holds the channel; the test that held it gives back only its own", async () => {
    const { teamId } = await one.createTeam();
    const hook = await heldReceiver();
    const channel = await createChannel(one, teamId, { kind: "webhook", url: hook.url });
    const first = testChannel(one, channel.id);
    await hook.arrived(1);
    const [firstLease] = await leasesOf(channel.id);
    expect(firstLease).toMatch(/^[0-9a-f-]{36}$/);
    await db.query(
      "UPDATE alerts.channel_test_leases SET expires_at = now() - interval '1 second' WHERE channel_id = $1",
      [channel.id],
    );
    const second = testChannel(two, channel.id);
    await hook.arrived(2);
    const [secondLease] = await leasesOf(channel.id);
    expect(secondLease).toMatch(/^[0-9a-f-]{36}$/);
    expect(secondLease).not.toBe(firstLease);

    hook.answer(0);
    expect(delivered(await first)).toEqual([200, true]);
    // The first test ended after its lease was taken again: the second's lease stays.
    expect(await leasesOf(channel.id)).toEqual([secondLease]);
    expectInProgress(await testChannel(one, channel.id));
    hook.answer(1);
    expect(delivered(await second)).toEqual([200, true]);
    expect(await leasesOf(channel.id)).toEqual([]);
  });

  it("the dashboard's 'send a test notification' shows the sentence while the channel's test is in flight", async () => {
    const { teamId } = await one.createTeam();
    const hook = await heldReceiver();
    const channel = await createChannel(one, teamId, { kind: "webhook", url: hook.url });
    const first = testChannel(one, channel.id);
    await hook.arrived(1);

    const { sessionId } = await signIn(stack.info.baseUrl, stack.info.adminToken);
    const cookie = `pulsegate_session=${sessionId}`;
    const channelsPage = `${stack.info.baseUrl}/dashboard/teams/${teamId}/channels`;
    const before = await (await fetch(channelsPage, { headers: { cookie } })).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(before)?.[1] ?? "";
    expect(csrf).not.toBe("");
    const sent = await fetch(`${channelsPage}/${channel.id}/test`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    });
    await sent.arrayBuffer();
    expect([sent.status, sent.headers.get("location")]).toEqual([303, `/dashboard/teams/${teamId}/channels`]);
    const after = await (await fetch(channelsPage, { headers: { cookie } })).text();
    expect(after).toContain(SENTENCE);

    hook.answer(0);
    expect(delivered(await first)).toEqual([200, true]);
    expect(hook.arrivals).toBe(1);
  });
});
