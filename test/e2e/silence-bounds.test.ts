// A silence's matchers are read and matched by every trigger batch of its team: each part has a bound, and so has the team's sum.
import { SILENCE_LIMITS } from "@pulsegate/contract/limits";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client, type JsonResponse } from "../support/client.ts";
import { metadataOfBytes } from "../support/silence-metadata.ts";

const stack = inject("stack");
const client = new Client(stack);
const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => db.end());

const HOUR = 3_600_000;
// Names are unique within a team: each silence gets its own.
let made = 0;
const silenceBody = (matchers: Record<string, unknown>) => ({
  name: `Bounds ${++made}`,
  startsAt: new Date(Date.now() - 60_000).toISOString(),
  endsAt: new Date(Date.now() + HOUR).toISOString(),
  matchers,
});

const refusesAbove = (response: JsonResponse, field: string, max: number) => {
  expect(response.status).toBe(400);
  expect(response.body.code).toBe("invalid_request");
  expect(response.body.details).toEqual(
    expect.arrayContaining([{ field, message: expect.stringContaining(String(max)) }]),
  );
};

/** `{"a": {"a": … {"a": 1}}}`, `depth` objects deep (`{}` is level 1, as for a trigger's metadata). */
function nestedMetadata(depth: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value as Record<string, unknown>;
}

const storedMatcherBytes = async (teamId: string) =>
  Number(
    (
      await db.query<{ bytes: string }>(
        "SELECT coalesce(sum(octet_length(matchers::text)), 0) AS bytes FROM alerts.silences WHERE team_id = $1",
        [teamId],
      )
    ).rows[0]?.bytes,
  );

describe("silence bounds", () => {
  const create = async (teamId: string, matchers: Record<string, unknown>) =>
    client.admin("POST", `/teams/${teamId}/silences`, silenceBody(matchers));

  it("accepts matchers.metadata of its maximum size and refuses one byte more", async () => {
    const { teamId } = await client.createTeam();
    const max = SILENCE_LIMITS.metadataMaxBytes;
    expect(Buffer.byteLength(JSON.stringify(metadataOfBytes(max)))).toBe(max);
    expect((await create(teamId, { metadata: metadataOfBytes(max) })).status).toBe(201);
    refusesAbove(await create(teamId, { metadata: metadataOfBytes(max + 1) }), "matchers.metadata", max);
  });

  it("refuses the oversize metadata that degraded every team (~0.9 MB in one value)", async () => {
    const { teamId } = await client.createTeam();
    const response = await create(teamId, { metadata: { k: "x".repeat(900_000) } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "invalid_request", error: expect.any(String) });
    expect((await client.admin("GET", `/teams/${teamId}/silences`)).body.silences).toEqual([]);
  });

  it("accepts matchers.metadata with its maximum number of keys and refuses one more", async () => {
    const { teamId } = await client.createTeam();
    const max = SILENCE_LIMITS.metadataMaxKeys;
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    expect((await create(teamId, { metadata: keys(max) })).status).toBe(201);
    refusesAbove(await create(teamId, { metadata: keys(max + 1) }), "matchers.metadata", max);
  });

  it("accepts a metadata key of its maximum length and refuses one character more", async () => {
    const { teamId } = await client.createTeam();
    const max = SILENCE_LIMITS.metadataKeyMaxLength;
    expect((await create(teamId, { metadata: { ["k".repeat(max)]: 1 } })).status).toBe(201);
    refusesAbove(await create(teamId, { metadata: { ["k".repeat(max + 1)]: 1 } }), "matchers.metadata", max);
  });

  it("accepts a metadata value of its maximum size and refuses one byte more, naming the key", async () => {
    const { teamId } = await client.createTeam();
    const max = SILENCE_LIMITS.metadataValueMaxBytes;
    // A string's JSON is its characters and two quotes.
    expect((await create(teamId, { metadata: { env: "v".repeat(max - 2) } })).status).toBe(201);
    refusesAbove(await create(teamId, { metadata: { env: "v".repeat(max - 1) } }), "matchers.metadata.env", max);
  });

  it("accepts matchers.metadata nested to its maximum depth and refuses one level more", async () => {
    const { teamId } = await client.createTeam();
    const max = SILENCE_LIMITS.metadataMaxDepth;
    expect((await create(teamId, { metadata: nestedMetadata(max) })).status).toBe(201);
    refusesAbove(await create(teamId, { metadata: nestedMetadata(max + 1) }), "matchers.metadata", max);
  });

  it("keeps the matchers of a team's silences within their total, and a deleted silence frees its share", async () => {
    const { teamId } = await client.createTeam();
    const max = SILENCE_LIMITS.matchersMaxBytesPerTeam;
    // The largest source ids a silence may have (about 20 KB of matchers each).
    const sourceIds = Array.from({ length: SILENCE_LIMITS.maxSourceIds }, (_, i) =>
      `${i}-`.padEnd(SILENCE_LIMITS.sourceIdMaxLength, "s"),
    );
    const created: string[] = [];
    let refused: JsonResponse | undefined;
    for (let i = 0; i < SILENCE_LIMITS.maxPerTeam && !refused; i++) {
      const response = await create(teamId, { sourceIds });
      if (response.status === 201) created.push((response.body.silence as { id: string }).id);
      else refused = response;
    }
    if (!refused) throw new Error("the total was never reached");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: "invalid_request",
      details: [{ field: "matchers", message: expect.stringContaining(String(max)) }],
    });
    const stored = await storedMatcherBytes(teamId);
    expect(stored).toBeLessThanOrEqual(max);
    expect(stored + stored / created.length).toBeGreaterThan(max);
    // A small one still fits in what is left; a large one fits again once another is deleted.
    expect((await create(teamId, { groupKeyPrefix: "db-" })).status).toBe(201);
    expect((await client.admin("DELETE", `/teams/${teamId}/silences/${created[0]}`)).status).toBe(204);
    expect((await create(teamId, { sourceIds })).status).toBe(201);
  });

  it("holds the count per team when creates race: exactly the room left is taken", async () => {
    const { teamId } = await client.createTeam();
    const max = SILENCE_LIMITS.maxPerTeam;
    const room = 10;
    for (let i = 0; i < max - room; i++) expect((await create(teamId, {})).status).toBe(201);
    const raced = await Promise.all(Array.from({ length: 3 * room }, () => create(teamId, {})));
    expect(raced.filter((response) => response.status === 201)).toHaveLength(room);
    for (const response of raced.filter((one) => one.status !== 201)) {
      expect(response.body).toMatchObject({
        code: "invalid_request",
        details: [{ field: "teamId", message: `A team has at most ${max} silences.` }],
      });
    }
    expect((await client.admin("GET", `/teams/${teamId}/silences`)).body.silences).toHaveLength(max);
  });
});
