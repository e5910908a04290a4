// Names are unique: a team's among every team, a webhook's, monitor's, channel's, silence's and API
// key's among its team's of that kind. A create or rename to a name in use is 409 name_taken; the
// unique index decides, so of concurrent creates with one name exactly one gets its 201.
import { describe, expect, inject, it } from "vitest";
import { Client, uniqueName } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);

const silenceWindow = () => {
  const startsAt = new Date(Date.now() + 3_600_000);
  return { startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + 3_600_000).toISOString() };
};

type Kind = {
  /** Creates one named `name` in the team; the answer. */
  create: (teamId: string, name: string) => ReturnType<Client["admin"]>;
  /** Renames the created one (its answer); absent where there is no rename. */
  rename?: (created: Record<string, unknown>, name: string) => ReturnType<Client["admin"]>;
  /** The created resource in a create answer. */
  key: string;
};

const kinds: Record<string, Kind> = {
  webhook: {
    create: (teamId, name) => client.admin("POST", `/teams/${teamId}/webhooks`, { name }),
    rename: (webhook, name) => client.admin("PATCH", `/webhooks/${webhook.id}`, { name }),
    key: "webhook",
  },
  monitor: {
    create: (teamId, name) => client.admin("POST", `/teams/${teamId}/monitors`, { name }),
    rename: (monitor, name) => client.admin("PATCH", `/monitors/${monitor.id}`, { name }),
    key: "monitor",
  },
  channel: {
    create: (teamId, name) =>
      client.admin("POST", `/teams/${teamId}/channels`, { kind: "webhook", name, url: "https://example.com/hook" }),
    rename: (channel, name) => client.admin("PATCH", `/channels/${channel.id}`, { name }),
    key: "channel",
  },
  silence: {
    create: (teamId, name) => client.admin("POST", `/teams/${teamId}/silences`, { name, ...silenceWindow() }),
    key: "silence",
  },
  "API key": {
    create: (teamId, name) => client.admin("POST", `/teams/${teamId}/api-keys`, { name, scope: "read" }),
    key: "apiKey",
  },
};

describe("names unique within a team", () => {
  it.each(Object.entries(kinds))(
    "%s: a second one of that name is 409 name_taken, in another team it is fine",
    async (kind, { create, key }) => {
      const { teamId } = await client.createTeam();
      expect((await create(teamId, "Payments")).status).toBe(201);
      const again = await create(teamId, " Payments ");
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        code: "name_taken",
        error: `The team already has ${kind === "API key" ? "an" : "a"} ${kind} with that name; names are unique within a team.`,
        requestId: expect.any(String),
      });
      // Case counts: another name.
      expect((await create(teamId, "payments")).status).toBe(201);
      const other = await client.createTeam();
      const elsewhere = await create(other.teamId, "Payments");
      expect(elsewhere.status).toBe(201);
      expect((elsewhere.body[key] as { name: string }).name).toBe("Payments");
    },
  );

  it.each(Object.entries(kinds).filter(([, kind]) => kind.rename))(
    "%s: renaming to a name in use is 409 name_taken and changes nothing; to its own name is fine",
    async (_, kind) => {
      const { teamId } = await client.createTeam();
      const first = (await kind.create(teamId, "First")).body[kind.key] as Record<string, unknown>;
      const second = (await kind.create(teamId, "Second")).body[kind.key] as Record<string, unknown>;
      const taken = await kind.rename?.(second, "First");
      expect(taken?.status).toBe(409);
      expect(taken?.body.code).toBe("name_taken");
      expect((await kind.rename?.(second, "Second"))?.status).toBe(200);
      expect((await kind.rename?.(first, "Third"))?.status).toBe(200);
      // The name left behind is free.
      expect((await kind.rename?.(second, "First"))?.status).toBe(200);
    },
  );

  it.each(Object.entries(kinds))(
    "%s: of ten concurrent creates with one name, one is 201 and nine are 409",
    async (_, { create }) => {
      const { teamId } = await client.createTeam();
      const answers = await Promise.all(Array.from({ length: 10 }, () => create(teamId, "Raced")));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([201, ...Array(9).fill(409)]);
      expect(answers.filter((answer) => answer.status === 409).every((a) => a.body.code === "name_taken")).toBe(true);
    },
  );

  it("frees a deleted channel's and a revoked key's name, a deleted webhook's and monitor's too", async () => {
    const { teamId } = await client.createTeam();
    const channel = (await kinds.channel?.create(teamId, "Ops"))?.body.channel as { id: string };
    expect((await client.admin("DELETE", `/channels/${channel.id}`)).status).toBe(204);
    expect((await kinds.channel?.create(teamId, "Ops"))?.status).toBe(201);
    const key = (await kinds["API key"]?.create(teamId, "CI"))?.body.apiKey as { id: string };
    expect((await client.admin("POST", `/api-keys/${key.id}/revoke`, {})).status).toBe(200);
    expect((await kinds["API key"]?.create(teamId, "CI"))?.status).toBe(201);
    const silence = (await kinds.silence?.create(teamId, "Deploy"))?.body.silence as { id: string };
    expect((await client.admin("DELETE", `/teams/${teamId}/silences/${silence.id}`)).status).toBe(204);
    expect((await kinds.silence?.create(teamId, "Deploy"))?.status).toBe(201);
    for (const kind of ["webhook", "monitor"] as const) {
      const created = (await kinds[kind]?.create(teamId, "Gone"))?.body[kind] as { id: string };
      expect((await client.admin("DELETE", `/${kind}s/${created.id}`)).status).toBe(204);
      expect((await kinds[kind]?.create(teamId, "Gone"))?.status).toBe(201);
    }
  });
});

describe("team names unique", () => {
  it("a second team of that name is 409 name_taken, on create and on rename", async () => {
    const name = uniqueName("Acme");
    expect((await client.admin("POST", "/teams", { name })).status).toBe(201);
    const again = await client.admin("POST", "/teams", { name: `  ${name}` });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: "name_taken",
      error: "A team with that name already exists; team names are unique.",
    });
    const { teamId } = await client.createTeam();
    const renamed = await client.admin("PATCH", `/teams/${teamId}`, { name });
    expect(renamed.status).toBe(409);
    expect(renamed.body.code).toBe("name_taken");
  });

  it("of ten concurrent creates with one name, one is 201 and nine are 409", async () => {
    const name = uniqueName("Raced team");
    const answers = await Promise.all(Array.from({ length: 10 }, () => client.admin("POST", "/teams", { name })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array(9).fill(409)]);
  });
});
