// One team's silences must not slow or stop another's triggers: trigger batches mix teams and read silences per batch.
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
/** Room for a flood: the per-webhook rate limit is not what these tests are about. */
const FLOOD_WEBHOOK = { rateLimitPerMinute: 10_000 };

const silencedByOf = async (answer: JsonResponse) =>
  ((await client.admin("GET", `/alerts/${answer.body.alertId as string}`)).body.alert as { silencedBy: string | null })
    .silencedBy;

let silencesMade = 0;

async function createSilence(teamId: string, matchers: Record<string, unknown>): Promise<JsonResponse> {
  return client.admin("POST", `/teams/${teamId}/silences`, {
    // Names are unique within a team.
    name: `Maintenance ${++silencesMade}`,
    startsAt: new Date(Date.now() - 60_000).toISOString(),
    endsAt: new Date(Date.now() + HOUR).toISOString(),
    matchers,
  });
}

describe("silences across teams", () => {
  it("a team's oversized silences stored before the bounds (100 of ~0.9 MB) push no other team's triggers into errors", async () => {
    const a = await client.setup({}, FLOOD_WEBHOOK);
    const b = await client.setup({}, FLOOD_WEBHOOK);
    // What the attacker stored while nothing bounded matchers.metadata, written as the service wrote it then.
    await db.query(
      `INSERT INTO alerts.silences (id, team_id, name, starts_at, ends_at, recurrence, matchers, created_at)
       SELECT 'sil_stored_' || $1 || '_' || n, $1, 'Stored before the bounds ' || n, now() - interval '1 minute',
              now() + interval '1 hour', NULL,
              jsonb_build_object('sourceIds', '[]'::jsonb, 'groupKeyPrefix', '',
                                 'metadata', jsonb_build_object('k', repeat('x', 900000))),
              now() - interval '1 minute' + n * interval '1 millisecond'
         FROM generate_series(1, ${SILENCE_LIMITS.maxPerTeam}) AS n`,
      [a.teamId],
    );
    // Team A's triggers name the silences' key, so each is compared with every silence; B's are sent among them,
    // so the gateway's batches mix the two teams.
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 3 === 2
          ? client.trigger(b.webhookUrl, { title: `b${i}`, group_key: `b-${i}` }, { secret: b.secret })
          : client.trigger(a.webhookUrl, { title: `a${i}`, metadata: { k: "y" } }, { secret: a.secret }),
      ),
    );
    const fromB = answers.filter((_, i) => i % 3 === 2);
    const fromA = answers.filter((_, i) => i % 3 !== 2);
    expect(fromB.map((answer) => answer.status)).toEqual(fromB.map(() => 201));
    expect(fromA.map((answer) => answer.status)).toEqual(fromA.map(() => 201));
    expect(await silencedByOf(fromB[0] as JsonResponse)).toBeNull();
    // Still responsive for both afterwards.
    const again = await client.trigger(b.webhookUrl, { title: "after" }, { secret: b.secret });
    expect(again.status).toBe(201);
  });

  it("a team at its full allowance of largest silences changes no verdict and no answer of another team's triggers", async () => {
    const a = await client.setup({}, FLOOD_WEBHOOK);
    const b = await client.setup({}, FLOOD_WEBHOOK);
    // Team A: silences of the largest metadata until the team's total refuses the next.
    const silencesOfA: { id: string; metadata: Record<string, string> }[] = [];
    for (let i = 0; ; i++) {
      const metadata = metadataOfBytes(SILENCE_LIMITS.metadataMaxBytes, { env: `env-${i}` });
      const response = await createSilence(a.teamId, { metadata });
      if (response.status !== 201) {
        expect(response.body).toMatchObject({ code: "invalid_request", details: [{ field: "matchers" }] });
        break;
      }
      silencesOfA.push({ id: (response.body.silence as { id: string }).id, metadata });
    }
    expect(silencesOfA.length).toBeGreaterThan(10);
    const quietOfB = (await createSilence(b.teamId, { groupKeyPrefix: "b-quiet-" })).body.silence as { id: string };

    const pick = (i: number) => silencesOfA[(i * 7) % silencesOfA.length] as (typeof silencesOfA)[number];
    const [fromA, fromB] = await Promise.all([
      Promise.all(
        Array.from({ length: 40 }, (_, i) => {
          // Even: exactly one silence's metadata (silenced by it); odd: one value off (silenced by none).
          const metadata = i % 2 === 0 ? pick(i).metadata : { ...pick(i).metadata, f1: "off" };
          return client.trigger(a.webhookUrl, { title: `a${i}`, metadata }, { secret: a.secret });
        }),
      ),
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          client.trigger(
            b.webhookUrl,
            { title: `b${i}`, group_key: i % 2 === 0 ? `b-quiet-${i}` : `b-loud-${i}` },
            { secret: b.secret },
          ),
        ),
      ),
    ]);
    expect(fromB.map((answer) => answer.status)).toEqual(fromB.map(() => 201));
    expect(fromA.map((answer) => answer.status)).toEqual(fromA.map(() => 201));
    const verdictsOfB = await Promise.all(fromB.map(silencedByOf));
    expect(verdictsOfB).toEqual(fromB.map((_, i) => (i % 2 === 0 ? quietOfB.id : null)));
    const verdictsOfA = await Promise.all(fromA.map(silencedByOf));
    expect(verdictsOfA).toEqual(fromA.map((_, i) => (i % 2 === 0 ? pick(i).id : null)));
  });
});
