// `npm run screenshots`: the dashboard's main pages as PNGs in docs/dashboard/, taken in Debian's
// Chromium (playwright-core) from a real stack with demo data. Needs PostgreSQL and Redis, as the
// tests do (TEST_DATABASE_URL / TEST_REDIS_URL, default 127.0.0.1).
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { launchChromium, PAGE_WEIGHT, type PageWeight } from "../test/support/browser.ts";
import { Client } from "../test/support/client.ts";
import { Receiver } from "../test/support/receiver.ts";
import { Stack } from "../test/support/stack.ts";

const out = resolve(import.meta.dirname, "../docs/dashboard");
mkdirSync(out, { recursive: true });

const stack = await Stack.create({ databaseName: `pulsegate_screenshots_${process.pid}` });
const receiver = await Receiver.start((request) => (request.path.includes("flaky") ? 500 : 200));
const browser = await launchChromium();
try {
  const client = new Client(stack.info);
  const admin = (method: string, path: string, body?: unknown) => client.admin(method, path, body);

  // Demo data: a few teams; Payments with webhooks, monitors, channels and alerts in every state.
  const { teamId, secret } = await client.createTeam({ name: "Payments", alertQuotaMonthly: 5000 });
  await client.createTeam({ name: "Search" });
  await client.createTeam({ name: "Platform", heartbeatQuotaMonthly: 100_000 });
  const ci = await client.createWebhook(teamId, {
    name: "CI pipeline",
    defaultSeverity: "sev2",
    filterRules: [
      { field: "metadata.env", op: "==", value: "production" },
      { field: "metadata.region", op: "in", value: ["eu-west-1", "eu-central-1"] },
    ],
  });
  const grafana = await client.createWebhook(teamId, { name: "Grafana", defaultSeverity: "sev1" });
  await admin("POST", `/teams/${teamId}/channels`, { kind: "slack", name: "#payments-oncall", url: receiver.url() });
  await admin("POST", `/teams/${teamId}/channels`, {
    kind: "webhook",
    name: "Incident bot",
    url: receiver.url("/flaky/incident-bot"),
  });
  const production = { env: "production", region: "eu-west-1" };
  const send = (url: string, body: Record<string, unknown>) => client.trigger(url, body, { secret });
  const checkout = {
    title: "Checkout error rate above 5%",
    severity: "sev1",
    group_key: "checkout",
    metadata: production,
  };
  for (let i = 0; i < 4; i += 1) await send(ci.webhookUrl, checkout);
  await send(grafana.webhookUrl, {
    title: "p99 latency of /pay above 800 ms",
    severity: "sev2",
    group_key: "pay-latency",
  });
  await send(grafana.webhookUrl, { title: "Card processor timeouts", severity: "sev0", group_key: "psp-timeouts" });
  const ackMe = await send(grafana.webhookUrl, {
    title: "Disk 85% full on db-2",
    severity: "sev3",
    group_key: "disk-db-2",
  });
  await admin("POST", `/alerts/${ackMe.body.alertId}/acknowledge`);

  const backup = await client.createMonitor(teamId, {
    name: "Nightly backup",
    intervalSeconds: 86_400,
    graceSeconds: 3600,
  });
  const invoices = await client.createMonitor(teamId, { name: "Invoice export", intervalSeconds: 3600 });
  await client.createMonitor(teamId, { name: "Settlement reconciliation", intervalSeconds: 900 });
  const ledger = await client.createMonitor(teamId, { name: "Ledger compaction", intervalSeconds: 600 });
  await client.ping(backup.pingUrl, undefined, { secret });
  await client.ping(backup.pingUrl, { status: "down", reason: "disk full on /var/backups", host: "db-1" }, { secret });
  await client.ping(invoices.pingUrl, undefined, { secret });
  await client.ping(invoices.pingUrl, { status: "up", rows: 1842, durationMs: 5310 }, { secret });
  await client.ping(ledger.pingUrl, undefined, { secret });
  await admin("POST", `/monitors/${ledger.id}/pause`);
  // Let the notification deliveries settle (the incident bot's fail).
  await new Promise((done) => setTimeout(done, 8_000));

  const shoot = async (page: Page, path: string, name: string, prepare?: (page: Page) => Promise<void>) => {
    await page.goto(`${stack.info.baseUrl}${path}`);
    await prepare?.(page);
    await page.screenshot({ path: resolve(out, `${name}.png`) });
    console.log(`docs/dashboard/${name}.png`);
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on("dialog", (dialog) => dialog.accept());
  await shoot(page, "/dashboard/login", "login");
  await page.getByLabel("Admin token or team API key").fill(stack.info.adminToken);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/dashboard\/teams/);
  const team = `/dashboard/teams/${teamId}`;
  await shoot(page, "/dashboard/teams", "teams");
  await shoot(page, `${team}/alerts`, "alerts");
  const timing = (await page.evaluate(PAGE_WEIGHT)) as PageWeight;
  console.log(`alerts page on localhost: ${JSON.stringify(timing)}`);
  await shoot(page, `${team}/alerts/${(await send(ci.webhookUrl, checkout)).body.alertId}`, "alert");
  await shoot(page, `${team}/monitors`, "monitors");
  await shoot(page, `${team}/monitors/${backup.id}`, "monitor");
  await shoot(page, `${team}/webhooks/${ci.id}`, "webhook", (p) => p.locator("#snippet-curl").scrollIntoViewIfNeeded());
  await shoot(page, `${team}/channels`, "channels");
  await shoot(page, `${team}/access`, "access");
  await shoot(page, `${team}/settings`, "rotation", async (p) => {
    await p.getByRole("button", { name: "Rotate webhook secret" }).click();
    await p.getByRole("heading", { name: "New webhook secret" }).waitFor();
  });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.addCookies(await context.cookies());
  await shoot(await phone.newPage(), `${team}/alerts`, "phone-alerts");
} finally {
  await browser.close();
  await receiver.close();
  await stack.destroy();
}
