// The gateway's audit recorder against the stack's real auth: an entry auth refuses as invalid is
// set aside (counted, logged once) and the entries queued behind it are stored, in order.
import "../support/in-process-metrics.ts";
import type { auth } from "@pulsegate/proto";
import { createLogger } from "@pulsegate/runtime/logger";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createAuditRecorder } from "../../services/gateway/src/audit/audit-recorder.ts";
import { connectPeers } from "../../services/gateway/src/peers/connect-peers.ts";
import { Client } from "../support/client.ts";
import { inProcessCounter } from "../support/in-process-metrics.ts";

const stack = inject("stack");
const client = new Client(stack);
const peers = connectPeers(stack.grpc, 5_000);
afterAll(() => peers.close());

const SET_ASIDE = "pulsegate_queue_set_aside_total";

function capturingLog() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger("audit-set-aside-test", "info", {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { log, setAside: () => lines.filter((line) => line.msg === "queue entry set aside") };
}

const entry = (teamId: string, action: string, targetId = "team_target"): Omit<auth.AuditEntry, "id"> => ({
  teamId,
  at: new Date(),
  actorKind: 1,
  actorId: "",
  actorName: "",
  actorEmail: "",
  action,
  targetKind: "team",
  targetId,
  detailsJson: JSON.stringify({ note: "detail text" }),
});

async function actionsStored(teamId: string): Promise<string[]> {
  const answer = await client.admin("GET", `/teams/${teamId}/audit-log?limit=200`);
  return (answer.body.entries as { action: string }[]).map((stored) => stored.action).reverse();
}

describe("the audit recorder, when auth refuses an entry as invalid", () => {
  it("sets the refused entry aside, sends the ones queued behind it, counts and logs it once", async () => {
    const { teamId } = await client.createTeam();
    const { log, setAside } = capturingLog();
    const before = await inProcessCounter(SET_ASIDE, { queue: "audit" });
    const recorder = createAuditRecorder(peers, log, { retryMs: 50 });

    // An empty target id: auth answers INVALID_ARGUMENT "… needs an id, a team, an action and a target".
    await recorder.record(entry(teamId, "silence.delete", ""));
    for (const action of ["webhook.create", "webhook.update", "monitor.create"]) {
      await recorder.record(entry(teamId, action));
    }
    await recorder.flush(5_000);

    expect(recorder.pending()).toBe(0);
    expect(await actionsStored(teamId)).toEqual(["team.create", "webhook.create", "webhook.update", "monitor.create"]);
    expect(await inProcessCounter(SET_ASIDE, { queue: "audit" })).toBe(before + 1);
    expect(setAside()).toHaveLength(1);
    expect(setAside()[0]).toMatchObject({
      level: 40,
      queue: "audit",
      teamId,
      action: "silence.delete",
      reason: "INVALID_ARGUMENT invalid_request",
    });
    // Ids and codes only: never the entry's details.
    expect(JSON.stringify(setAside())).not.toContain("detail text");
  });

  it("finds refused entries anywhere in a batch and keeps the order of the rest", async () => {
    const { teamId } = await client.createTeam();
    const { log, setAside } = capturingLog();
    const before = await inProcessCounter(SET_ASIDE, { queue: "audit" });
    const recorder = createAuditRecorder(peers, log, { retryMs: 50 });
    const actions = Array.from({ length: 9 }, (_, index) => `webhook.update.${index}`);
    // Recorded while auth is being called for the first, so the rest go in one batch of nine.
    const queued = actions.map((action, index) =>
      recorder.record(entry(teamId, action, index === 2 || index === 7 ? "" : "team_target")),
    );
    await Promise.all(queued);
    await recorder.flush(5_000);

    expect(recorder.pending()).toBe(0);
    expect(await actionsStored(teamId)).toEqual([
      "team.create",
      ...actions.filter((_, index) => index !== 2 && index !== 7),
    ]);
    expect(await inProcessCounter(SET_ASIDE, { queue: "audit" })).toBe(before + 2);
    expect(setAside().map((line) => line.action)).toEqual(["webhook.update.2", "webhook.update.7"]);
  });
});
