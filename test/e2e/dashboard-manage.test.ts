// The dashboard's management pages, in Debian's Chromium through playwright-core against the real
// stack: a monitor edited (a refusal shown with each message once) and deleted after a confirmation
// page, a webhook deleted, a team deleted by the admin only once its name is typed, silences listed,
// created and deleted, a test notification per channel, a monitor's run duration and badge, and the
// favicon. Every confirmation is a page of its own: no JavaScript needed.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium } from "../support/browser.ts";
import { Client, uniqueName } from "../support/client.ts";
import { Receiver } from "../support/receiver.ts";
import { createChannel } from "./notifications-helpers.ts";
import { signedRequest } from "./signed-post.ts";

const stack = inject("stack");
const client = new Client(stack);
const base = stack.baseUrl;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let receiver: Receiver;
/** The team the tests below work in, made through the API. */
const team = { id: "", name: "", secret: "", webhookId: "", webhookUrl: "", monitorId: "", pingUrl: "" };

const teamPage = (path: string) => `${base}/dashboard/teams/${team.id}${path}`;

async function signIn(target: Page, token: string) {
  await target.goto(`${base}/dashboard/login`);
  await target.getByLabel("Admin token or team API key").fill(token);
  await target.getByRole("button", { name: "Sign in" }).click();
  await target.waitForURL(/\/dashboard\/teams/);
}

/** Every control on the page has a label, and the page one h1 (as the dashboard's other pages). */
async function labelled(target: Page): Promise<{ h1: number; unlabelled: string[] }> {
  return (await target.evaluate(`(() => ({
    h1: document.querySelectorAll("h1").length,
    unlabelled: [...document.querySelectorAll("input:not([type=hidden]), select, textarea, button")]
      .filter((el) => !(el.labels?.length || el.getAttribute("aria-label") || el.textContent.trim()))
      .map((el) => el.outerHTML),
  }))()`)) as { h1: number; unlabelled: string[] };
}

beforeAll(async () => {
  team.name = uniqueName("Dashboard management");
  const created = await client.admin("POST", "/teams", { name: team.name });
  team.id = (created.body.team as { id: string }).id;
  team.secret = created.body.webhookSecret as string;
  const webhook = await client.createWebhook(team.id, { name: "Deploys" });
  team.webhookId = webhook.id;
  team.webhookUrl = webhook.webhookUrl;
  const monitor = await client.createMonitor(team.id, { name: "Nightly backup", intervalSeconds: 3600 });
  team.monitorId = monitor.id;
  team.pingUrl = monitor.pingUrl;
  receiver = await Receiver.start();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await signIn(page, stack.adminToken);
});

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

describe("dashboard management", () => {
  it("serves a favicon every page links, named by its content and kept for a year", async () => {
    await page.goto(teamPage("/monitors"));
    const href = await page.locator('link[rel="icon"]').getAttribute("href");
    expect(href).toMatch(/^\/dashboard\/assets\/favicon\.[0-9a-f]{12}\.svg$/);
    const icon = await fetch(`${base}${href}`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(icon.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await icon.text()).toContain("<svg");
  });

  it("shows a monitor's run duration and its badge", async () => {
    await signedRequest(base, `/api/ping/${team.pingUrl}/start`, team.secret);
    await new Promise((done) => setTimeout(done, 1_200));
    expect((await client.ping(team.pingUrl, undefined, { secret: team.secret })).status).toBe(200);
    await page.goto(teamPage(`/monitors/${team.monitorId}`));
    const facts = page.locator("dl.facts").first();
    await facts.getByText(/last run took 1\.\d s/).waitFor();
    const badge = page.getByRole("img", { name: "Status badge of Nightly backup" });
    expect(await badge.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    const badgeUrl = (await page.locator("#badge-url").innerText()).trim();
    expect(badgeUrl).toMatch(new RegExp(`^${base}/badge/[A-Za-z0-9_-]{32}\\.svg$`));
    expect((await page.locator("#badge-markdown").innerText()).trim()).toBe(`![Nightly backup](${badgeUrl})`);
    expect(await labelled(page)).toEqual({ h1: 1, unlabelled: [] });
  });

  it("edits a monitor, showing a refusal with each message once and keeping what was typed", async () => {
    await page.goto(teamPage(`/monitors/${team.monitorId}`));
    await page.getByLabel("Schedule (cron, instead)").fill("15 3 * * *");
    await page.getByLabel("Time zone of the schedule").fill("+02:00");
    await page.getByRole("button", { name: "Save monitor" }).click();
    const refusal = page.getByRole("alert");
    await refusal.waitFor();
    const message = "timezone must be an IANA time zone name";
    expect((await page.content()).split(message).length - 1).toBe(1);
    expect(await refusal.locator("code").allInnerTexts()).toEqual(["timezone"]);
    expect(await page.getByLabel("Schedule (cron, instead)").inputValue()).toBe("15 3 * * *");

    await page.getByLabel("Time zone of the schedule").fill("Europe/Berlin");
    await page.getByLabel("Name", { exact: true }).fill("Nightly backup (db)");
    await page.getByLabel("Maximum run (seconds)").fill("600");
    await page.getByLabel("Remind every (seconds)").fill("3600");
    await page.getByRole("button", { name: "Save monitor" }).click();
    await page.getByText("Monitor Nightly backup (db) saved.").waitFor();
    expect(await client.getMonitor(team.monitorId)).toMatchObject({
      name: "Nightly backup (db)",
      schedule: "15 3 * * *",
      timezone: "Europe/Berlin",
      maxDurationSeconds: 600,
      repeatIntervalSeconds: 3600,
    });
    // Emptied fields are none; an empty schedule is an interval monitor again.
    await page.getByLabel("Schedule (cron, instead)").fill("");
    await page.getByLabel("Time zone of the schedule").fill("");
    await page.getByLabel("Expected every (seconds)").fill("900");
    await page.getByLabel("Remind every (seconds)").fill("");
    await page.getByRole("button", { name: "Save monitor" }).click();
    await page.getByText("Monitor Nightly backup (db) saved.").waitFor();
    expect(await client.getMonitor(team.monitorId)).toMatchObject({
      schedule: null,
      intervalSeconds: 900,
      repeatIntervalSeconds: null,
      maxDurationSeconds: 600,
    });
  });

  it("sends a test notification to a channel and says how it went", async () => {
    await createChannel(client, team.id, { kind: "webhook", name: "On-call hook", url: receiver.url("/hook") });
    const refusing = await Receiver.start(() => 410);
    try {
      await createChannel(client, team.id, { kind: "webhook", name: "Gone hook", url: refusing.url("/gone") });
      await page.goto(teamPage("/channels"));
      await page.getByRole("button", { name: "Send a test notification to On-call hook" }).click();
      await page.getByText(/^Test notification delivered to On-call hook \(HTTP 200, \d+ ms\)\.$/).waitFor();
      expect(receiver.requests.map((request) => request.json.type)).toEqual(["channel.test"]);
      await page.getByRole("button", { name: "Send a test notification to Gone hook" }).click();
      await page.getByText("Test notification to Gone hook not delivered: HTTP 410.").waitFor();
      // A test is no delivery: the channel is not disabled by it.
      const channels = page.getByRole("table", { name: /alerts are sent$/ });
      expect(await channels.getByRole("row").filter({ hasText: "Gone hook" }).innerText()).toContain("enabled");
    } finally {
      await refusing.close();
    }
  });

  it("lists, creates and deletes silences", async () => {
    await page.goto(teamPage("/silences"));
    await page.getByText("No silences.").waitFor();
    expect(await labelled(page)).toEqual({ h1: 1, unlabelled: [] });
    await page.getByLabel("Name", { exact: true }).fill("Database upgrade");
    await page.getByLabel("Only alerts from").selectOption({ label: "Deploys (webhook)" });
    await page.getByLabel("Metadata equals (JSON)").fill("not json");
    await page.getByRole("button", { name: "Create silence" }).click();
    await page.getByRole("alert").getByText("matchers.metadata", { exact: true }).waitFor();
    await page.getByLabel("Metadata equals (JSON)").fill('{"env": "production"}');
    await page.getByRole("button", { name: "Create silence" }).click();
    await page.getByText("Silence Database upgrade created.").waitFor();
    const row = page.getByRole("row").filter({ hasText: "Database upgrade" });
    expect(await row.innerText()).toContain("active");
    expect(await row.innerText()).toContain("from Deploys");
    const [silence] = (await client.admin("GET", `/teams/${team.id}/silences`)).body.silences as {
      id: string;
      matchers: unknown;
    }[];
    expect(silence?.matchers).toEqual({
      sourceIds: [team.webhookId],
      groupKeyPrefix: null,
      metadata: { env: "production" },
    });
    // A matching trigger is recorded, silenced.
    const trigger = await client.trigger(
      team.webhookUrl,
      { title: "During the upgrade", metadata: { env: "production" } },
      { secret: team.secret },
    );
    const alert = await client.admin("GET", `/alerts/${trigger.body.alertId}`);
    expect((alert.body.alert as { silencedBy: string }).silencedBy).toBe(silence?.id);

    await page.getByRole("link", { name: "Delete Database upgrade" }).click();
    await page.getByRole("heading", { name: "Delete silence Database upgrade?" }).waitFor();
    expect(await labelled(page)).toEqual({ h1: 1, unlabelled: [] });
    await page.getByRole("button", { name: "Delete silence" }).click();
    await page.getByText("Silence deleted: matching alerts notify again.").waitFor();
    expect((await client.admin("GET", `/teams/${team.id}/silences`)).body.silences).toEqual([]);
  });

  it("deletes a monitor after a confirmation page; Cancel leads back and deletes nothing", async () => {
    await page.goto(teamPage(`/monitors/${team.monitorId}`));
    await page.getByRole("link", { name: "Delete Nightly backup (db)" }).click();
    await page.getByRole("heading", { name: "Delete monitor Nightly backup (db)?" }).waitFor();
    expect(await page.getByRole("listitem").filter({ hasText: "answer 404 from now on" }).count()).toBe(1);
    expect(await labelled(page)).toEqual({ h1: 1, unlabelled: [] });
    await page.getByRole("link", { name: "Cancel" }).click();
    await page.waitForURL(teamPage(`/monitors/${team.monitorId}`));
    expect((await client.admin("GET", `/monitors/${team.monitorId}`)).status).toBe(200);

    await page.getByRole("link", { name: "Delete Nightly backup (db)" }).click();
    await page.getByRole("button", { name: "Delete monitor" }).click();
    await page.getByText("Monitor Nightly backup (db) deleted.").waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/teams/${team.id}/monitors`);
    expect((await client.ping(team.pingUrl, undefined, { secret: team.secret })).status).toBe(404);
  });

  it("deletes a webhook after a confirmation page", async () => {
    await page.goto(teamPage(`/webhooks/${team.webhookId}`));
    await page.getByRole("link", { name: "Delete Deploys" }).click();
    await page.getByRole("heading", { name: "Delete webhook Deploys?" }).waitFor();
    expect(await labelled(page)).toEqual({ h1: 1, unlabelled: [] });
    await page.getByRole("button", { name: "Delete webhook" }).click();
    await page.getByText("Webhook Deploys deleted.").waitFor();
    expect((await client.trigger(team.webhookUrl, { title: "x" }, { secret: team.secret })).status).toBe(404);
  });

  it("lets a write key edit but not delete its team; the admin deletes it once its name is typed", async () => {
    const key = await client.admin("POST", `/teams/${team.id}/api-keys`, { name: "writer", scope: "write" });
    const keyContext = await browser.newContext();
    const keyPage = await keyContext.newPage();
    keyPage.setDefaultTimeout(15_000);
    try {
      await signIn(keyPage, key.body.token as string);
      await keyPage.goto(teamPage("/settings"));
      expect(await keyPage.getByRole("link", { name: "Delete team…" }).count()).toBe(0);
      // Even sent by hand, the admin API refuses it: the page says so.
      await keyPage.goto(teamPage("/delete"));
      await keyPage.getByLabel(`Type ${team.name} to confirm`).fill(team.name);
      await keyPage.getByRole("button", { name: "Delete team" }).click();
      await keyPage.getByText("Only the admin token can delete a team.").waitFor();
    } finally {
      await keyContext.close();
    }

    await page.goto(teamPage("/settings"));
    await page.getByRole("link", { name: "Delete team…" }).click();
    await page.getByRole("heading", { name: `Delete team ${team.name}?` }).waitFor();
    expect(await labelled(page)).toEqual({ h1: 1, unlabelled: [] });
    await page.getByLabel(`Type ${team.name} to confirm`).fill("not its name");
    await page.getByRole("button", { name: "Delete team" }).click();
    await page.getByText("Type the team's name exactly to confirm.").waitFor();
    expect((await client.admin("GET", `/teams/${team.id}`)).status).toBe(200);

    await page.getByLabel(`Type ${team.name} to confirm`).fill(team.name);
    await page.getByRole("button", { name: "Delete team" }).click();
    await page.getByText(`Team ${team.name} deleted.`).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard/teams");
    expect((await client.admin("GET", `/teams/${team.id}`)).status).toBe(404);
    expect((await page.goto(teamPage("/alerts")))?.status()).toBe(404);
  });
});
