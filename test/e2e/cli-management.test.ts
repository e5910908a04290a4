// The commands that cover the rest of the admin API, run as processes against the real stack:
// monitor schedules and edits, dry runs, start pings, resolve, silences, the policy, usage, deletes.
import { describe, expect, inject, it } from "vitest";
import { type CliResult, jsonOf, runCli } from "../support/cli.ts";
import { uniqueName } from "../support/client.ts";

const stack = inject("stack");
const operator = { PULSEGATE_URL: stack.baseUrl, PULSEGATE_TOKEN: stack.adminToken };
const caller = (secret: string) => ({ PULSEGATE_URL: stack.baseUrl, PULSEGATE_SECRET: secret });

function ok(result: CliResult): CliResult {
  if (result.code !== 0) throw new Error(`exit ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}
const admin = async <T = Record<string, unknown>>(...args: string[]) =>
  jsonOf<T>(ok(await runCli([...args, "--json"], { env: operator })));

describe("pulsegate CLI management commands", () => {
  it("creates a scheduled monitor, edits it, pings it (dry run, start, up) and deletes it", async () => {
    const { team, webhookSecret } = await admin<{ team: { id: string }; webhookSecret: string }>(
      "teams",
      "create",
      uniqueName("CLI mgmt"),
    );
    const { monitor } = await admin<{ monitor: Record<string, unknown> & { id: string; pingUrl: string } }>(
      "monitors",
      "create",
      team.id,
      "backup",
      "--schedule",
      "15 3 * * *",
      "--timezone",
      "Europe/Berlin",
      "--max-duration",
      "3600",
      "--repeat-interval",
      "3600",
      "--require-timestamp",
    );
    expect(monitor).toMatchObject({
      schedule: "15 3 * * *",
      timezone: "Europe/Berlin",
      maxDurationSeconds: 3600,
      requireTimestamp: true,
    });

    const edited = await admin<{ monitor: Record<string, unknown> }>(
      "monitors",
      "edit",
      monitor.id,
      "--interval",
      "60",
      "--schedule",
      "none",
      "--no-require-timestamp",
      "--max-duration",
      "0",
    );
    expect(edited.monitor).toMatchObject({ schedule: null, intervalSeconds: 60, requireTimestamp: false });

    const env = caller(webhookSecret);
    const dry = ok(await runCli(["ping", monitor.pingUrl, "--start", "--dry-run", "--json"], { env }));
    expect(jsonOf(dry)).toMatchObject({ dryRun: true });
    const { pings: none } = await admin<{ pings: unknown[] }>("monitors", "pings", monitor.id);
    expect(none).toEqual([]);
    ok(await runCli(["ping", monitor.pingUrl, "--start"], { env }));
    ok(await runCli(["ping", monitor.pingUrl], { env }));
    const { pings } = await admin<{ pings: { status: string }[] }>("monitors", "pings", monitor.id);
    expect(pings.map((p) => p.status)).toEqual(["up", "start"]);

    ok(await runCli(["monitors", "delete", monitor.id], { env: operator }));
    const gone = await runCli(["ping", monitor.pingUrl], { env });
    expect(gone.code).toBe(2);
  }, 60_000);

  async function cliTeam() {
    return admin<{ team: { id: string }; webhookSecret: string }>("teams", "create", uniqueName("CLI mgmt"));
  }

  it("dry-runs a trigger (nothing stored), then resolves the alert it raised", async () => {
    const { team, webhookSecret } = await cliTeam();
    const { webhook } = await admin<{ webhook: { id: string; webhookUrl: string } }>(
      "webhooks",
      "create",
      team.id,
      "checkout",
    );
    const env = caller(webhookSecret);
    const trigger = ["trigger", webhook.webhookUrl, "--title", "t", "--group-key", "g"];
    expect(jsonOf(ok(await runCli([...trigger, "--dry-run", "--json"], { env })))).toMatchObject({ dryRun: true });
    expect((await admin<{ alerts: unknown[] }>("alerts", "list", team.id)).alerts).toEqual([]);
    ok(await runCli(trigger, { env }));
    ok(await runCli(["resolve", webhook.webhookUrl, "--group-key", "g"], { env }));
    const { alerts } = await admin<{ alerts: { status: string }[] }>("alerts", "list", team.id);
    expect(alerts.map((a) => a.status)).toEqual(["resolved"]);

    ok(await runCli(["webhooks", "delete", webhook.id], { env: operator }));
    expect((await runCli(trigger, { env })).code).toBe(2);
  }, 60_000);

  it("creates, lists and deletes a silence; sets, shows and deletes the policy", async () => {
    const { team } = await cliTeam();
    const { silence } = await admin<{ silence: { id: string } }>(
      "silences",
      "create",
      team.id,
      "maintenance",
      "--starts-at",
      "2030-01-01T02:00:00Z",
      "--ends-at",
      "2030-01-01T03:00:00Z",
      "--recurrence",
      "daily",
      "--group-key-prefix",
      "db-",
    );
    const listed = await admin<{ silences: { id: string }[] }>("silences", "list", team.id);
    expect(listed.silences.map((s) => s.id)).toEqual([silence.id]);
    ok(await runCli(["silences", "delete", team.id, silence.id], { env: operator }));
    expect((await admin<{ silences: unknown[] }>("silences", "list", team.id)).silences).toEqual([]);

    const { channel } = await admin<{ channel: { id: string } }>(
      "channels",
      "create",
      team.id,
      "--kind",
      "webhook",
      "--name",
      "hook",
      "--destination",
      "https://example.com/hook",
    );
    const routes = [{ severities: ["sev0"], channelIds: [channel.id] }];
    await admin("policy", "set", team.id, "--routes", JSON.stringify(routes));
    expect((await admin<{ policy: { routes: unknown[] } }>("policy", "show", team.id)).policy.routes).toEqual(routes);
    ok(await runCli(["policy", "delete", team.id], { env: operator }));
    expect((await admin<{ policy: unknown }>("policy", "show", team.id)).policy).toBeNull();
  }, 60_000);

  it("shows a team's usage, then deletes the team", async () => {
    const { team } = await cliTeam();
    expect(JSON.stringify(await admin("teams", "usage", team.id))).toContain("alert");
    ok(await runCli(["teams", "delete", team.id], { env: operator }));
    expect((await runCli(["teams", "show", team.id], { env: operator })).code).toBe(2);
  }, 60_000);
});
