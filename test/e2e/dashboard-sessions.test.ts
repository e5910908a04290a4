// Dashboard sessions and failed credentials across two gateway replicas sharing one Redis: a session
// made on one gateway works on the other, one principal's sign-ins never evict another's session,
// Redis holds no usable credential, and failed credentials are throttled per client address.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../support/client.ts";
import { signedIn, signIn, signOut } from "../support/dashboard-session.ts";
import { Stack } from "../support/stack.ts";

const PREFIX = `pulsegate-test:sessions-${process.pid}-${randomBytes(4).toString("hex")}`;
const FAILURE_LIMIT = 5;
const BLOCK_SECONDS = 2;

let stack: Stack;
let client: Client;
let redis: Redis;
/** The two replicas' base URLs. */
let gateways: [string, string];

beforeAll(async () => {
  stack = await Stack.create({
    databaseName: `pulsegate_e2e_sessions_${process.pid}`,
    // Two stacks and a replica on a shared 2-core machine: starting may take a while.
    readyTimeoutMs: 120_000,
    serviceEnv: (name) =>
      name === "gateway"
        ? {
            REDIS_KEY_PREFIX: PREFIX,
            AUTH_FAILURE_LIMIT: String(FAILURE_LIMIT),
            AUTH_FAILURE_BLOCK_SECONDS: String(BLOCK_SECONDS),
            // The tests play several client addresses through X-Forwarded-For.
            TRUST_PROXY: "true",
          }
        : {},
  });
  client = new Client(stack.info);
  gateways = [stack.info.baseUrl, await stack.startGatewayReplica("gateway-2", {}, 120_000)];
  redis = new Redis(stack.info.redisUrl);
}, 300_000);

afterAll(async () => {
  if (redis) {
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
  await stack?.destroy();
});

/** A documentation address (RFC 5737) of its own for each test: counts never mix. */
let addressesUsed = 0;
const freshAddress = () => `198.51.100.${++addressesUsed}`;

async function adminCall(baseUrl: string, token: string, address: string) {
  const response = await fetch(`${baseUrl}/admin/v1/teams?limit=1`, {
    headers: { authorization: `Bearer ${token}`, "x-forwarded-for": address },
  });
  const body = (await response.json()) as { code?: string; error?: string };
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body };
}

async function readKeyOfNewTeam(): Promise<string> {
  const { teamId } = await client.createTeam({ name: "Tenant with a read key" });
  const created = await client.admin("POST", `/teams/${teamId}/api-keys`, { name: "viewer", scope: "read" });
  expect(created.status).toBe(201);
  return created.body.token as string;
}

/** Every key, and every value (strings, sets, hashes, lists), this stack's gateways keep in Redis. */
async function redisDump(): Promise<{ keys: string[]; stringKeys: number; bytes: Buffer }> {
  const keys = await redis.keys(`${PREFIX}*`);
  const parts: Buffer[] = [];
  let stringKeys = 0;
  for (const key of keys) {
    parts.push(Buffer.from(key));
    const type = await redis.type(key);
    if (type === "string") {
      stringKeys++;
      parts.push((await redis.getBuffer(key)) ?? Buffer.alloc(0));
    } else if (type === "zset") parts.push(...(await redis.zrangeBuffer(key, "0", "-1", "WITHSCORES")));
    else if (type === "set") parts.push(...(await redis.smembersBuffer(key)));
    else if (type === "hash") parts.push(...Object.values(await redis.hgetallBuffer(key)));
    else if (type === "list") parts.push(...(await redis.lrangeBuffer(key, "0", "-1")));
    else parts.push((await redis.dumpBuffer(key)) ?? Buffer.alloc(0));
  }
  return { keys, stringKeys, bytes: Buffer.concat(parts) };
}

/** The forms a secret could be stored in: as sent, and its bytes or text in hex and base64. */
function encodingsOf(secret: string): Buffer[] {
  const text = Buffer.from(secret);
  const forms = [text, Buffer.from(text.toString("hex")), Buffer.from(text.toString("base64"))];
  if (/^[A-Za-z0-9_-]{43}$/.test(secret)) {
    const raw = Buffer.from(secret, "base64url");
    forms.push(raw, Buffer.from(raw.toString("hex")), Buffer.from(raw.toString("base64")));
  }
  return forms;
}

describe("dashboard sessions in Redis, across gateway replicas", () => {
  it("a session made on one gateway is valid on the other, and signing out on either ends it on both", async () => {
    const [a, b] = gateways;
    const session = await signIn(a, stack.info.adminToken);
    expect(session.status).toBe(303);
    expect(await signedIn(a, session.sessionId)).toBe(true);
    expect(await signedIn(b, session.sessionId)).toBe(true);

    // A form posted on the other replica carries the same CSRF token: the whole session is shared.
    expect(await signOut(b, session.sessionId)).toBe(303);
    expect(await signedIn(a, session.sessionId)).toBe(false);
    expect(await signedIn(b, session.sessionId)).toBe(false);
  });

  it("10,050 sign-ins with one tenant's read-only key keep the admin signed in; the key keeps only its newest 50", async () => {
    const [a, b] = gateways;
    const admin = await signIn(a, stack.info.adminToken);
    expect(admin.status).toBe(303);
    const readKey = await readKeyOfNewTeam();

    // All on the admin's replica: the bound that used to evict was per process.
    const bulk = 10_000;
    const sessions: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < bulk) {
          next++;
          const signedInAsKey = await signIn(a, readKey);
          if (signedInAsKey.status !== 303 || !signedInAsKey.sessionId) {
            throw new Error(`read key sign-in answered ${signedInAsKey.status}`);
          }
          sessions.push(signedInAsKey.sessionId);
        }
      }),
    );
    // The last ones one at a time, so which are the newest is known.
    const newest: string[] = [];
    for (let i = 0; i < 50; i++) {
      const signedInAsKey = await signIn(a, readKey);
      expect(signedInAsKey.status).toBe(303);
      newest.push(signedInAsKey.sessionId as string);
    }

    expect(await signedIn(a, admin.sessionId)).toBe(true);
    expect(await signedIn(b, admin.sessionId)).toBe(true);
    // The key's own oldest sessions made room; its newest 50 are all live, on either replica.
    expect(await signedIn(a, sessions[0])).toBe(false);
    expect(await signedIn(b, sessions[sessions.length - 1])).toBe(false);
    for (const [index, sessionId] of newest.entries()) {
      expect(await signedIn(gateways[index % 2] as string, sessionId)).toBe(true);
    }

    // A dump of Redis: a record per live session (the admin's and the key's 50), none of them usable.
    const dump = await redisDump();
    expect(dump.stringKeys).toBeGreaterThanOrEqual(51);
    for (const secret of [stack.info.adminToken, readKey, admin.sessionId as string, ...newest]) {
      for (const form of encodingsOf(secret)) expect(dump.bytes.includes(form)).toBe(false);
    }
  }, 240_000);

  it("revoking a key deletes its sessions from Redis, and the admin's stay", async () => {
    const [a, b] = gateways;
    const admin = await signIn(b, stack.info.adminToken);
    const { teamId } = await client.createTeam({ name: "Tenant whose key is revoked" });
    const created = await client.admin("POST", `/teams/${teamId}/api-keys`, { name: "ci", scope: "write" });
    const key = created.body.apiKey as { id: string };
    const keySessions = [await signIn(a, created.body.token as string), await signIn(b, created.body.token as string)];
    const before = (await redisDump()).stringKeys;

    const revoked = await fetch(`${a}/admin/v1/api-keys/${key.id}/revoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.info.adminToken}` },
    });
    expect(revoked.status).toBe(200);
    // Deleted at revocation, not merely refused at the next page.
    expect((await redisDump()).stringKeys).toBe(before - keySessions.length);
    for (const session of keySessions) expect(await signedIn(b, session.sessionId)).toBe(false);
    expect(await signedIn(a, admin.sessionId)).toBe(true);
  });
});

describe("failed credentials are throttled per client address, on every replica", () => {
  it(`after ${FAILURE_LIMIT} failed bearer tokens an address gets 429 before its token is checked, on both replicas; others are not affected`, async () => {
    const [a, b] = gateways;
    const attacker = freshAddress();
    const neighbour = freshAddress();
    for (let i = 0; i < FAILURE_LIMIT; i++) {
      const wrong = await adminCall(i % 2 === 0 ? a : b, `wrong-${i}`, attacker);
      expect(wrong.status).toBe(401);
    }
    for (const gateway of gateways) {
      const refused = await adminCall(gateway, "wrong-again", attacker);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("too_many_failures");
      expect(refused.body.error).toEqual(expect.stringMatching(/failed/i));
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(BLOCK_SECONDS);
      // Before the token is checked: the right one is refused too while the block lasts.
      expect((await adminCall(gateway, stack.info.adminToken, attacker)).status).toBe(429);
    }
    expect((await adminCall(b, stack.info.adminToken, neighbour)).status).toBe(200);

    // The block is short: once the Retry-After the gateway gave has passed, the address is let in.
    const retryAfter = Number((await adminCall(a, stack.info.adminToken, attacker)).retryAfter);
    await new Promise((done) => setTimeout(done, retryAfter * 1000 + 100));
    expect((await adminCall(a, stack.info.adminToken, attacker)).status).toBe(200);
  });

  it("successful requests do not count", async () => {
    const [a, b] = gateways;
    const address = freshAddress();
    for (let i = 0; i < FAILURE_LIMIT - 1; i++) expect((await adminCall(a, "wrong", address)).status).toBe(401);
    for (let i = 0; i < 3 * FAILURE_LIMIT; i++) {
      expect((await adminCall(i % 2 === 0 ? a : b, stack.info.adminToken, address)).status).toBe(200);
    }
    expect((await adminCall(b, "wrong", address)).status).toBe(401);
    expect((await adminCall(a, "wrong", address)).status).toBe(429);
  });

  it("failed dashboard sign-ins count too: the sign-in page answers 429 with Retry-After on both replicas", async () => {
    const [a, b] = gateways;
    const address = freshAddress();
    for (let i = 0; i < FAILURE_LIMIT; i++) {
      const failed = await signIn(i % 2 === 0 ? a : b, `not-a-token-${i}`, address);
      expect(failed.status).toBe(401);
      expect(failed.text).toContain("That is not a valid admin token or team API key.");
    }
    for (const gateway of gateways) {
      const refused = await signIn(gateway, stack.info.adminToken, address);
      expect(refused.status).toBe(429);
      expect(refused.sessionId).toBeUndefined();
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(refused.text).toContain("Too many failed sign-ins");
    }
    // One count per address, whichever door the failures came through.
    expect((await adminCall(b, stack.info.adminToken, address)).status).toBe(429);
  });
});
