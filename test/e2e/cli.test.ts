// `pulsegate` run as a process against the real stack — operators'
// commands with the admin token, callers' trigger, ping and run signed with the secret.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type CliResult, jsonOf, runCli } from "../support/cli.ts";
import { Client, uniqueName } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { freePort } from "../support/free-port.ts";
import { Receiver } from "../support/receiver.ts";
import { SmtpSink } from "../support/smtp-sink.ts";
import { Stack } from "../support/stack.ts";

const stack = inject("stack");
const client = new Client(stack);

const operator = { PULSEGATE_URL: stack.baseUrl, PULSEGATE_TOKEN: stack.adminToken };
const caller = (secret: string) => ({ PULSEGATE_URL: stack.baseUrl, PULSEGATE_SECRET: secret });

function ok(result: CliResult): CliResult {
  if (result.code !== 0) throw new Error(`exit ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** A team made through the CLI: its id and the secret it printed. */
async function cliTeam(name = uniqueName("CLI team")): Promise<{ teamId: string; secret: string }> {
  const created = jsonOf<{ team: { id: string }; webhookSecret: string }>(
    ok(await runCli(["teams", "create", name, "--json"], { env: operator })),
  );
  return { teamId: created.team.id, secret: created.webhookSecret };
}

type PingRow = { status: string; reason: string | null; metadata: Record<string, unknown> | null };

async function pingsOf(monitorId: string): Promise<PingRow[]> {
  const listed = await client.admin("GET", `/monitors/${monitorId}/pings`);
  return listed.body.pings as PingRow[];
}

describe("pulsegate CLI", () => {
  it("teams create --json shows the webhook secret once; teams show never does", async () => {
    const payments = uniqueName("Payments");
    const result = ok(await runCli(["teams", "create", payments, "--alert-quota", "500", "--json"], { env: operator }));
    const created = jsonOf<{ team: Record<string, unknown>; webhookSecret: string }>(result);
    expect(created.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(created.team).toMatchObject({ name: payments, alertQuotaMonthly: 500 });

    const shown = ok(await runCli(["teams", "show", created.team.id as string, "--json"], { env: operator }));
    expect(jsonOf<{ team: { id: string } }>(shown).team.id).toBe(created.team.id);
    expect(shown.stdout).not.toContain(created.webhookSecret);

    // Without --json: short lines for people, the secret among them once.
    const human = ok(await runCli(["teams", "create", uniqueName("Human")], { env: operator }));
    expect(human.stdout).toMatch(/webhook secret \(shown once, store it now\): [0-9a-f]{64}/);

    // Two teams at least by now: a page of one has a cursor.
    const page = jsonOf<{ teams: { id: string }[]; nextCursor: string | null }>(
      ok(await runCli(["teams", "list", "--limit", "1", "--json"], { env: operator })),
    );
    expect(page.teams).toHaveLength(1);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it("webhooks create, then trigger: created, then occurrence_added for the same group key", async () => {
    const { teamId, secret } = await cliTeam();
    const webhook = jsonOf<{
      webhook: { id: string; webhookUrl: string; triggerUrl: string; defaultSeverity: string };
    }>(
      ok(await runCli(["webhooks", "create", teamId, "CI", "--severity", "sev2", "--json"], { env: operator })),
    ).webhook;
    expect(webhook.defaultSeverity).toBe("sev2");

    const args = ["--title", "Checkout error rate above 5%", "--group-key", "checkout", "--meta", "env=production"];
    const first = jsonOf(ok(await runCli(["trigger", webhook.webhookUrl, ...args, "--json"], { env: caller(secret) })));
    expect(first).toMatchObject({
      status: "created",
      alertId: expect.any(String),
      occurrenceCount: 1,
      message: "Alert created and notifications triggered",
    });
    // The full trigger URL works as well as the token, without PULSEGATE_URL.
    const second = ok(await runCli(["trigger", webhook.triggerUrl, ...args], { env: { PULSEGATE_SECRET: secret } }));
    expect(second.stdout).toBe(`occurrence_added ${first.alertId} (occurrence 2)\n`);

    const alert = (await client.admin("GET", `/alerts/${first.alertId}`)).body.alert as Record<string, unknown>;
    expect(alert).toMatchObject({ occurrenceCount: 2, groupKey: "checkout", metadata: { env: "production" } });

    const listed = jsonOf<{ alerts: { id: string }[] }>(
      ok(await runCli(["alerts", "list", teamId, "--status", "open", "--json"], { env: operator })),
    );
    expect(listed.alerts.map((a) => a.id)).toEqual([first.alertId]);
    const acked = jsonOf<{ alert: { status: string } }>(
      ok(await runCli(["alerts", "ack", first.alertId as string, "--json"], { env: operator })),
    );
    expect(acked.alert.status).toBe("acknowledged");
  });

  it("webhooks create --source alertmanager prints the bearer token once; rotate-token gives a new one", async () => {
    const { teamId } = await cliTeam();
    const human = ok(
      await runCli(["webhooks", "create", teamId, "Alertmanager", "--source", "alertmanager"], { env: operator }),
    );
    const token = /bearer token \(shown once, store it now\): (pgam_[A-Za-z0-9_-]{43})\n/.exec(human.stdout)?.[1];
    expect(token, human.stdout).toHaveLength("pgam_".length + 43);
    expect(human.stdout).toMatch(/^source: +alertmanager$/m);
    expect(human.stdout).toMatch(/^triggerUrl: +http:\/\/\S+\/api\/alerts\/alertmanager\/\S+$/m);
    const id = /^id: +(\S+)$/m.exec(human.stdout)?.[1] as string;

    const rotated = jsonOf<{ bearerToken: string; previousValidUntil: string | null }>(
      ok(await runCli(["webhooks", "rotate-token", id, "--grace-seconds", "0", "--json"], { env: operator })),
    );
    expect(rotated.bearerToken).toMatch(/^pgam_/);
    expect(rotated.bearerToken).not.toBe(token);
    expect(rotated.previousValidUntil).toBeNull();
  });

  it("monitors create, ping up, then ping --down --reason", async () => {
    const { teamId, secret } = await cliTeam();
    const monitor = jsonOf<{ monitor: { id: string; pingUrl: string; status: string } }>(
      ok(
        await runCli(["monitors", "create", teamId, "Nightly backup", "--interval", "3600", "--json"], {
          env: operator,
        }),
      ),
    ).monitor;
    expect(monitor.status).toBe("idle");

    const up = jsonOf(ok(await runCli(["ping", monitor.pingUrl, "--json"], { env: caller(secret) })));
    expect(up).toMatchObject({
      message: "Ping received",
      pingStatus: "up",
      monitor: { name: "Nightly backup", status: "up", monitoringActive: true },
    });
    const down = ok(
      await runCli(["ping", monitor.pingUrl, "--down", "--reason", "disk full on /var/backups"], {
        env: caller(secret),
      }),
    );
    expect(down.stdout).toBe("down ping received: Nightly backup is down\n");

    const [latest] = await pingsOf(monitor.id);
    expect(latest).toMatchObject({ status: "down", reason: "disk full on /var/backups" });
    const shown = jsonOf<{ monitor: { status: string } }>(
      ok(await runCli(["monitors", "show", monitor.id, "--json"], { env: operator })),
    );
    expect(shown.monitor.status).toBe("down");
  });

  it("run: a command exiting 0 pings up; one exiting 3 pings down with `exit code 3` and its output, and exits 3", async () => {
    const { teamId, secret } = await cliTeam();
    const monitor = await client.createMonitor(teamId, { name: "Cron job" });

    const passed = await runCli(["run", monitor.pingUrl, "--", "sh", "-c", "echo all good"], { env: caller(secret) });
    expect(passed.code).toBe(0);
    expect(passed.stdout).toBe("all good\n");
    const [upPing] = await pingsOf(monitor.id);
    expect(upPing).toMatchObject({ status: "up", metadata: { exitCode: 0, command: "sh" } });

    const script = "echo copying files; echo 'rsync: write failed: No space left on device' >&2; exit 3";
    const failed = await runCli(["run", monitor.pingUrl, "--", "sh", "-c", script], { env: caller(secret) });
    expect(failed.code).toBe(3);
    expect(failed.stdout).toBe("copying files\n");
    expect(failed.stderr).toContain("No space left on device");
    const [downPing] = await pingsOf(monitor.id);
    expect(downPing).toMatchObject({
      status: "down",
      reason: "exit code 3",
      metadata: { exitCode: 3, signal: null, outputTruncated: false },
    });
    expect(downPing?.metadata?.outputTail).toContain("No space left on device");
    expect((await client.getMonitor(monitor.id)).status).toBe("down");
  });

  it("run --start: a start signal before the command, so the up ping after it closes a run with its duration", async () => {
    const { teamId, secret } = await cliTeam();
    const monitor = await client.createMonitor(teamId, { name: "Timed job" });
    const result = await runCli(["run", "--start", monitor.pingUrl, "--", "sh", "-c", "echo done"], {
      env: caller(secret),
    });
    expect(result.code, result.stderr).toBe(0);
    const [up, start] = await pingsOf(monitor.id);
    expect(start).toMatchObject({ status: "start" });
    expect(up).toMatchObject({ status: "up", durationMs: expect.any(Number) });
  });

  it("keys create shows the token once, list never; the key works as PULSEGATE_TOKEN until keys revoke; audit shows it all", async () => {
    const { teamId } = await cliTeam();
    type KeyJson = { id: string; teamId: string; name: string; scope: string; revokedAt: string | null };
    const created = jsonOf<{ apiKey: KeyJson; token: string }>(
      ok(await runCli(["keys", "create", teamId, "deploy-bot", "--scope", "write", "--json"], { env: operator })),
    );
    expect(created.token).toMatch(/^pgk_[A-Za-z0-9_-]{43}$/);
    expect(created.apiKey).toMatchObject({ teamId, name: "deploy-bot", scope: "write", revokedAt: null });

    const listed = ok(await runCli(["keys", "list", teamId, "--json"], { env: operator }));
    expect(jsonOf<{ apiKeys: KeyJson[] }>(listed).apiKeys.map((key) => key.id)).toEqual([created.apiKey.id]);
    expect(listed.stdout).not.toContain(created.token);
    const shown = ok(await runCli(["keys", "show", created.apiKey.id], { env: operator }));
    expect(shown.stdout).toContain("deploy-bot");

    // The key as the CLI's token: its own team, nothing else.
    const asKey = { ...operator, PULSEGATE_TOKEN: created.token };
    ok(await runCli(["webhooks", "create", teamId, "Deploys", "--json"], { env: asKey }));
    const elsewhere = await cliTeam("Another team");
    expect((await runCli(["teams", "show", elsewhere.teamId], { env: asKey })).code).toBe(2);

    const revoked = jsonOf<{ apiKey: KeyJson }>(
      ok(await runCli(["keys", "revoke", created.apiKey.id, "--json"], { env: operator })),
    );
    expect(revoked.apiKey.revokedAt).toEqual(expect.any(String));
    const refused = await runCli(["teams", "show", teamId, "--json"], { env: asKey });
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stderr)).toMatchObject({ status: 401 });

    // Entries are recorded after each change succeeded, off the request path.
    const actions = await eventually(async () => {
      const audit = jsonOf<{ entries: { action: string; actor: { kind: string } }[] }>(
        ok(await runCli(["audit", teamId, "--json"], { env: operator })),
      );
      const seen = audit.entries.map((entry) => `${entry.action} by ${entry.actor.kind}`);
      return seen.includes("api_key.revoke by admin") ? seen : undefined;
    });
    expect(actions).toEqual(
      expect.arrayContaining(["api_key.create by admin", "webhook.create by api_key", "api_key.revoke by admin"]),
    );
    const human = ok(await runCli(["audit", teamId], { env: operator }));
    expect(human.stdout).toMatch(/^AT +ACTOR +ACTION +TARGET/);
    expect(human.stdout).toContain("key deploy-bot");
  });

  it("channels create --kind pagerduty --key: alerts reach PagerDuty with that routing key; update --key replaces it", async () => {
    const receiver = await Receiver.start();
    try {
      const { teamId, secret, webhookUrl } = await client.setup();
      const destination = receiver.url(`/pd/${teamId}/v2/enqueue`);
      const create = ["channels", "create", teamId, "--kind", "pagerduty", "--name", "On-call"];
      const created = jsonOf<{ channel: { id: string; kind: string } }>(
        ok(
          await runCli([...create, "--destination", destination, "--key", "cli-routing-key-1", "--json"], {
            env: operator,
          }),
        ),
      );
      expect(created.channel.kind).toBe("pagerduty");
      const listed = ok(await runCli(["channels", "list", teamId], { env: operator }));
      expect(listed.stdout).toMatch(/pagerduty +On-call +true/);
      expect(listed.stdout).not.toContain("cli-routing-key");

      const routingKeys = () =>
        receiver.requests
          .filter((request) => request.path === `/pd/${teamId}/v2/enqueue`)
          .map((r) => r.json.routing_key);
      await client.trigger(webhookUrl, { title: "Checkout down", severity: "sev1" }, { secret });
      await eventually(async () => (routingKeys().length === 1 ? true : undefined));
      ok(await runCli(["channels", "update", created.channel.id, "--key", "cli-routing-key-2"], { env: operator }));
      await client.trigger(webhookUrl, { title: "Search down", severity: "sev1" }, { secret });
      await eventually(async () => (routingKeys().length === 2 ? true : undefined));
      expect(routingKeys()).toEqual(["cli-routing-key-1", "cli-routing-key-2"]);

      // The API's own refusals come through: no key for pagerduty; email on a stack without an SMTP relay.
      const noKey = await runCli([...create, "--destination", destination, "--json"], { env: operator });
      expect(noKey.code).toBe(2);
      expect(JSON.parse(noKey.stderr)).toMatchObject({ status: 400, details: [{ field: "key" }] });
      const email = [
        "channels",
        "create",
        teamId,
        "--kind",
        "email",
        "--name",
        "m",
        "--destination",
        "mailto:a@example.com",
      ];
      const noRelay = await runCli(email, { env: operator });
      expect(noRelay.code).toBe(2);
      expect(noRelay.stderr).toContain("SMTP_URL");
    } finally {
      await receiver.close();
    }
  });

  it("answers --help on every level with usage and exit 0", async () => {
    for (const args of [
      ["--help"],
      ["teams", "--help"],
      ["teams", "create", "--help"],
      ["webhooks", "update", "--help"],
      ["alerts", "list", "--help"],
      ["channels", "create", "--help"],
      ["trigger", "--help"],
      ["run", "--help"],
      ["help", "ping"],
    ]) {
      const result = await runCli(args);
      expect(result.code, args.join(" ")).toBe(0);
      expect(result.stdout).toMatch(/^Usage: pulsegate/);
    }
    expect((await runCli(["--help"])).stdout).toContain("Exit codes:");
  });

  it("exits 2 on a 404 and on an invalid token, 1 on a usage error, 3 when nothing answers", async () => {
    const missing = await runCli(["teams", "show", "team_doesnotexist"], { env: operator });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^pulsegate: .*\(HTTP 404, team_not_found, request [\w-]+\)\n$/);

    const badToken = await runCli(["teams", "show", "team_x", "--json"], {
      env: { ...operator, PULSEGATE_TOKEN: "not-the-token" },
    });
    expect(badToken.code).toBe(2);
    expect(JSON.parse(badToken.stderr)).toMatchObject({ status: 401, code: "unauthorized" });

    const unknownPing = await runCli(["ping", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"], { env: caller("0".repeat(64)) });
    expect(unknownPing.code).toBe(2);

    for (const args of [
      ["teams", "show"],
      ["teams", "frobnicate"],
      ["monitors", "create", "t", "n", "--interval", "x"],
    ]) {
      const usage = await runCli(args, { env: operator });
      expect(usage.code, args.join(" ")).toBe(1);
    }
    const noSecret = await runCli(["ping", "abc"], { env: { PULSEGATE_URL: stack.baseUrl } });
    expect([noSecret.code, noSecret.stderr]).toEqual([
      1,
      "pulsegate: No webhook secret: set PULSEGATE_SECRET or pass --secret.\n",
    ]);

    const closed = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await runCli(["teams", "show", "team_x", "--url", closed, "--retries", "1"], { env: operator });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain("retrying");
  });

  it("node_modules/.bin/pulsegate runs from the repo root whatever node comes first on PATH", async () => {
    const bin = await runCli(["--version"], { command: ["node_modules/.bin/pulsegate"] });
    expect([bin.code, bin.stdout]).toEqual([0, "0.1.0\n"]);
    // With only the system's directories on PATH the launcher finds the pinned Node itself if it must.
    const systemPath = await runCli(["teams", "show", "team_doesnotexist"], {
      command: ["node_modules/.bin/pulsegate"],
      env: { ...operator, PATH: "/usr/local/bin:/usr/bin:/bin" },
    });
    expect(systemPath.code).toBe(2);
  });
});

describe("pulsegate channels create --kind email, against a stack whose alerts service has an SMTP relay", () => {
  let sink: SmtpSink;
  let mailStack: Stack;
  beforeAll(async () => {
    sink = await SmtpSink.start();
    mailStack = await Stack.create({
      databaseName: `pulsegate_e2e_cli_email_${process.pid}`,
      serviceEnv: (name) =>
        name === "alerts" ? { SMTP_URL: sink.url, SMTP_FROM: "Pulsegate <alerts@pulsegate.test>" } : {},
    });
  }, 90_000);
  afterAll(async () => {
    await mailStack?.destroy();
    await sink?.close();
  });

  it("mails the team's alerts to the --destination mailto: addresses, shown masked", async () => {
    const mailClient = new Client(mailStack.info);
    const env = { PULSEGATE_URL: mailStack.info.baseUrl, PULSEGATE_TOKEN: mailStack.info.adminToken };
    const { teamId, secret, webhookUrl } = await mailClient.setup();
    const created = jsonOf<{ channel: Record<string, unknown> }>(
      ok(
        await runCli(
          [
            ...["channels", "create", teamId, "--kind", "email", "--name", "On-call mail"],
            ...["--destination", "mailto:oncall@example.com,lead@example.com", "--json"],
          ],
          { env },
        ),
      ),
    );
    expect(created.channel).toMatchObject({ kind: "email", maskedUrl: "mailto:o…@example.com (+1)" });

    await mailClient.trigger(webhookUrl, { title: "Disk full on db-1", severity: "sev1" }, { secret });
    const [mail] = await eventually(async () => (sink.mails.length >= 1 ? sink.mails : undefined));
    expect(mail?.to).toEqual(["oncall@example.com", "lead@example.com"]);
    expect(mail?.data).toContain("Subject: [SEV1] Alert created: Disk full on db-1");
  });
});
