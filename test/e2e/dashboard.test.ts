// The web dashboard, driven in Debian's Chromium through playwright-core against the real
// stack: sign-in, a team and its secret shown once, a webhook and a monitor, signed triggers and pings
// appearing live, acknowledge and resolve, a failed delivery retried, rotation with a grace window,
// a read-only team key, CSRF and cookie properties.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium, PAGE_WEIGHT, type PageWeight } from "../support/browser.ts";
import { Client } from "../support/client.ts";
import { Receiver } from "../support/receiver.ts";

const stack = inject("stack");
const client = new Client(stack);
const base = stack.baseUrl;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let receiver: Receiver;

/** What the tests below build up, in order. */
const state = { teamId: "", secret: "", webhookUrl: "", pingUrl: "", alertTitle: "", readKey: "" };

/** Runs a snippet as a user would paste it, with the team's secret in PULSEGATE_SECRET; its stdout. */
function runSnippet(command: string, args: string[]): string {
  const run = spawnSync(command, args, {
    env: { ...process.env, PULSEGATE_SECRET: state.secret },
    encoding: "utf8",
    timeout: 15_000,
  });
  if (run.status !== 0) throw new Error(`${command} exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

/** A tab of the team's navigation. */
const tab = (name: string) => page.getByRole("navigation", { name: "Team" }).getByRole("link", { name });

async function signIn(target: Page, token: string) {
  await target.goto(`${base}/dashboard`);
  await target.getByLabel("Admin token or team API key").fill(token);
  await target.getByRole("button", { name: "Sign in" }).click();
  await target.waitForURL(/\/dashboard\/teams/);
}

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  page = await context.newPage();
  // Under the test timeout, so a step that never comes names its locator.
  page.setDefaultTimeout(15_000);
  page.on("dialog", (dialog) => dialog.accept());
  // Fails the first 8 attempts (every attempt of the first delivery), then accepts.
  receiver = await Receiver.start((_request, index) => (index < 8 ? 500 : 200));
});

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

describe("dashboard", () => {
  it("signs in with the admin token into an HttpOnly, SameSite=Strict session, small, with no token in the URL or storage", async () => {
    await page.goto(`${base}/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/dashboard/login");
    await page.getByLabel("Admin token or team API key").fill("not-a-token");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("That is not a valid admin token or team API key.").waitFor();

    await signIn(page, stack.adminToken);
    expect(page.url()).not.toContain(stack.adminToken);
    const [cookie, ...others] = await context.cookies();
    expect(others).toEqual([]);
    expect(cookie).toMatchObject({ name: "pulsegate_session", httpOnly: true, sameSite: "Strict", path: "/dashboard" });
    expect(cookie?.value).not.toContain(stack.adminToken);
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    // htmx notes the current path in sessionStorage; no page snapshot (history is off), no token.
    expect(stored).not.toContain(stack.adminToken);
    expect(stored).not.toContain("htmx-history-cache");
    await page.getByText("No teams yet").or(page.getByRole("table")).first().waitFor();

    // Small, not timed (timed tests flake on a shared machine; docs/dashboard.md has the measurement):
    // the page and everything it loads, scripts and styles included, under 100 KB.
    const sizes = (await page.evaluate(PAGE_WEIGHT)) as PageWeight;
    expect(sizes.page).toBeGreaterThan(0);
    expect(sizes.page + sizes.assets).toBeLessThan(100_000);
  });

  it("escapes what users typed: a hostile team name is shown as text", async () => {
    const hostile = `<img src=x onerror="document.title='pwned'">"'&`;
    const { teamId } = await client.createTeam({ name: hostile });
    await page.goto(`${base}/dashboard/teams/${teamId}/settings`);
    await page.getByText(hostile).first().waitFor();
    expect(await page.locator("main img, nav img").count()).toBe(0);
    expect(await page.title()).not.toBe("pwned");
    await page.goto(`${base}/dashboard/teams`);
  });

  it("creates a team and shows its webhook secret once, with a working copy button", async () => {
    await page.getByLabel("Name", { exact: true }).fill("Payments");
    await page.getByRole("button", { name: "Create team" }).click();
    await page.waitForURL(/\/settings$/);
    state.teamId = decodeURIComponent(new URL(page.url()).pathname.split("/")[3] ?? "");
    await page.getByText("it is shown this once and never again").waitFor();
    state.secret = (await page.locator("#secret-value").innerText()).trim();
    expect(state.secret).toMatch(/^[0-9a-f]{64}$/);

    await page.getByRole("button", { name: "Copy the secret" }).click();
    await page.getByRole("button", { name: "Copy the secret" }).filter({ hasText: "Copied" }).waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(state.secret);

    await page.reload();
    expect(await page.locator("#secret-value").count()).toBe(0);
    expect(await page.content()).not.toContain(state.secret);
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(stored).not.toContain(state.secret);
  });

  it("creates a webhook through the rule editor, refusing a bad rule with the API's own message", async () => {
    await tab("Webhooks").click();
    await page.getByText("No webhooks yet").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("CI");
    await page.getByLabel("Default severity").selectOption("sev1");
    await page.getByLabel("Rule 1 field").fill("metadata.env");
    await page.getByLabel("Rule 1 operator").selectOption("==");
    await page.getByLabel("Rule 1 value").fill("production");
    await page.getByLabel("Rule 2 field").fill("metadata.region");
    await page.getByLabel("Rule 2 operator").selectOption("in");
    await page.getByLabel("Rule 2 value").fill("5");
    await page.getByRole("button", { name: "Create webhook" }).click();
    await page.getByRole("alert").getByText("filterRules[1].value", { exact: true }).waitFor();
    // What was typed is kept; the bad rule is fixed in place.
    expect(await page.getByLabel("Rule 1 value").inputValue()).toBe('"production"');
    await page.getByLabel("Rule 2 value").fill('["eu-west-1", "eu-central-1"]');
    await page.getByRole("button", { name: "Create webhook" }).click();
    await page.waitForURL(/\/webhooks\/[^/]+$/);

    const triggerUrl = (await page.locator("#trigger-url").innerText()).trim();
    expect(triggerUrl.startsWith(`${base}/api/alerts/trigger/`)).toBe(true);
    state.webhookUrl = triggerUrl.split("/").at(-1) ?? "";
    const curl = await page.locator("#snippet-curl").innerText();
    expect(curl).toContain("openssl dgst -sha256 -hmac");
    expect(curl).toContain(triggerUrl);
    expect(await page.locator("#snippet-node").textContent()).toContain('createHmac("sha256"');
    expect(await page.locator("#snippet-python").textContent()).toContain("hmac.new(");
    // Each snippet, run as pasted, is verified (the rules then filter it: 200, never 401).
    expect(runSnippet("bash", ["-c", curl])).toContain('"status":"filtered"');
    const dir = mkdtempSync(join(tmpdir(), "pulsegate-snippets-"));
    writeFileSync(join(dir, "trigger.mjs"), (await page.locator("#snippet-node").textContent()) ?? "");
    expect(runSnippet(process.execPath, [join(dir, "trigger.mjs")])).toMatch(/^200 /);
    expect(runSnippet("python3", ["-c", (await page.locator("#snippet-python").textContent()) ?? ""])).toMatch(/^200 /);

    const webhook = (await client.admin("GET", `/teams/${state.teamId}/webhooks`)).body.webhooks as {
      defaultSeverity: string;
      filterRules: unknown[];
    }[];
    expect(webhook[0]).toMatchObject({
      defaultSeverity: "sev1",
      filterRules: [
        { field: "metadata.env", op: "==", value: "production" },
        { field: "metadata.region", op: "in", value: ["eu-west-1", "eu-central-1"] },
      ],
    });
  });

  it("adds a webhook channel and shows its URL masked", async () => {
    await tab("Channels").click();
    await page.getByLabel("Kind").selectOption("webhook");
    await page.getByLabel("Name", { exact: true }).fill("On-call hook");
    await page.getByLabel("URL").fill(receiver.url("/pulsegate/secret-path-token"));
    await page.getByRole("button", { name: "Add channel" }).click();
    await page.getByText("Channel On-call hook added.").waitFor();
    expect(await page.content()).not.toContain("secret-path-token");
    // Routing: everything but sev4 to this channel.
    await page.getByRole("checkbox", { name: "Send sev4 to On-call hook" }).uncheck();
    await page.getByRole("button", { name: "Save routing" }).click();
    await page.getByText("Routing saved.").waitFor();
    expect(await page.getByRole("checkbox", { name: "Send sev4 to On-call hook" }).isChecked()).toBe(false);
    expect(await page.getByRole("checkbox", { name: "Send sev1 to On-call hook" }).isChecked()).toBe(true);
    const policy = (await client.admin("GET", `/teams/${state.teamId}/notification-policy`)).body.policy as {
      routes: { severities: string[] }[];
    };
    expect(policy.routes.flatMap((route) => route.severities).sort()).toEqual(["sev0", "sev1", "sev2", "sev3"]);
  });

  it("shows a signed trigger in the open alerts without a reload, then acknowledges and resolves it", async () => {
    await tab("Alerts").click();
    await page.getByText("Nothing open.").waitFor();
    state.alertTitle = "Checkout error rate above 5%";
    const body = {
      title: state.alertTitle,
      group_key: "checkout",
      metadata: { env: "production", region: "eu-west-1" },
    };
    expect((await client.trigger(state.webhookUrl, body, { secret: state.secret })).status).toBe(201);
    expect((await client.trigger(state.webhookUrl, body, { secret: state.secret })).body.occurrenceCount).toBe(2);
    // No navigation: the live region polls.
    const row = page.getByRole("row").filter({ hasText: state.alertTitle });
    await row.waitFor({ timeout: 12_000 });
    expect(await row.innerText()).toMatch(/sev1\s+open\s+2\s+webhook/);

    await row.getByRole("button", { name: "Acknowledge" }).click();
    await page.getByText("Alert acknowledged.").waitFor();
    await page.getByRole("link", { name: "acknowledged", exact: true }).click();
    await page.getByRole("link", { name: state.alertTitle }).click();
    await page.getByRole("heading", { name: state.alertTitle }).waitFor();
    await page.getByRole("caption").getByText("Occurrences, newest first").waitFor();
    expect(await page.getByRole("row").filter({ hasText: "eu-west-1" }).count()).toBe(2);

    // The first delivery fails every attempt; retry sends it again under the same id.
    const deliveryRow = page.getByRole("row").filter({ hasText: "On-call hook" }).filter({ hasText: "failed" });
    await deliveryRow.waitFor({ timeout: 20_000 });
    await deliveryRow.getByRole("button", { name: "Retry" }).click();
    await page.getByText("Delivery queued again").waitFor();
    // The alert.created delivery; the acknowledgement's, behind it in order, is delivered after it.
    await page
      .getByRole("row")
      .filter({ hasText: "On-call hook" })
      .filter({ hasText: "alert.created" })
      .filter({ hasText: "delivered" })
      .waitFor({ timeout: 15_000 });

    await page.getByRole("button", { name: "Resolve" }).click();
    await page.getByText("Alert resolved.").waitFor();
    expect(await page.locator(".actions .badge").first().innerText()).toBe("resolved");
  });

  it("creates a monitor, and shows a real down ping and its reason live", async () => {
    await tab("Monitors").click();
    await page.getByText("No monitors yet").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Nightly backup");
    await page.getByLabel("Expected every (seconds)").fill("86400");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await page.waitForURL(/\/monitors\/[^/]+$/);
    await page.getByRole("heading", { name: /Nightly backup\s+idle/ }).waitFor();
    const pingEndpoint = (await page.locator("#ping-url").innerText()).trim();
    state.pingUrl = pingEndpoint.split("/").at(-1) ?? "";
    expect(await page.locator("#snippet-cron").textContent()).toContain(pingEndpoint);

    const down = { status: "down", reason: "disk full on /var/backups", host: "db-1" };
    expect((await client.ping(state.pingUrl, down, { secret: state.secret })).status).toBe(200);
    await page.getByRole("heading", { name: /Nightly backup\s+down/ }).waitFor({ timeout: 12_000 });
    const pingRow = page.getByRole("row").filter({ hasText: "disk full on /var/backups" });
    expect(await pingRow.innerText()).toContain('"host":"db-1"');
    // The curl snippet, as pasted: an up ping, then a down ping with its reason.
    runSnippet("bash", ["-c", (await page.locator("#snippet-ping-curl").textContent()) ?? ""]);
    await page.getByRole("row").filter({ hasText: "backup failed: disk full" }).waitFor({ timeout: 12_000 });

    await page.getByRole("button", { name: "Pause Nightly backup" }).click();
    await page.getByRole("status").getByText("Nightly backup paused").waitFor();
    expect((await client.ping(state.pingUrl, undefined, { secret: state.secret })).status).toBe(404);
    await tab("Monitors").click();
    expect(await page.getByRole("row").filter({ hasText: "Nightly backup" }).innerText()).toContain("paused");
    await page.getByRole("button", { name: "Resume Nightly backup" }).click();
    await page.getByRole("status").getByText("Nightly backup resumed").waitFor();
  });

  it("rotates the secret: the new one is shown once, the old one still verifies in the grace window", async () => {
    await tab("Settings").click();
    await page.getByLabel("Grace window (seconds)").fill("3600");
    await page.getByRole("button", { name: "Rotate webhook secret" }).click();
    await page.getByRole("heading", { name: "New webhook secret" }).waitFor();
    const fresh = (await page.locator("#secret-value").innerText()).trim();
    expect(fresh).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh).not.toBe(state.secret);

    const body = { title: "Old secret, inside the grace window", metadata: { env: "production", region: "eu-west-1" } };
    expect((await client.trigger(state.webhookUrl, body, { secret: state.secret })).status).toBe(201);
    expect((await client.trigger(state.webhookUrl, { ...body, title: "New secret" }, { secret: fresh })).status).toBe(
      201,
    );
    await page.reload();
    expect(await page.locator("#secret-value").count()).toBe(0);
    const lastUsed = page
      .locator("dt", { hasText: "Previous secret last used" })
      .locator("xpath=following-sibling::dd[1]");
    expect(await lastUsed.innerText()).toMatch(/ago|just now/);

    // This month's use of the quotas: three accepted pings (the paused one was refused), and the
    // alerts created or reopened so far, as the admin API counts them.
    const usage = (await client.admin("GET", `/teams/${state.teamId}/usage`)).body.usage as {
      alerts: { used: number; quota: number };
      heartbeats: { used: number; quota: number };
    };
    expect(usage.heartbeats.used).toBe(3);
    expect(usage.alerts.used).toBeGreaterThanOrEqual(3);
    const fact = (name: string) => page.locator("dt", { hasText: name }).locator("xpath=following-sibling::dd[1]");
    expect(await fact("Heartbeats").innerText()).toMatch(/^3 (of .* used this month|this month)/);
    expect(await fact("Alerts").innerText()).toMatch(new RegExp(`^${usage.alerts.used} (of|this month)`));
  });

  it("refuses a POST without the session's CSRF token, and from another origin", async () => {
    const withoutToken = await page.request.post(`${base}/dashboard/teams/${state.teamId}/settings/rotate`, {
      form: { graceSeconds: "0" },
      maxRedirects: 0,
    });
    expect(withoutToken.status()).toBe(403);
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const crossOrigin = await page.request.post(`${base}/dashboard/teams/${state.teamId}/settings/rotate`, {
      form: { graceSeconds: "0", _csrf: csrf },
      headers: { origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect(crossOrigin.status()).toBe(403);
    // Neither rotated: the previous secret is still the one from the dashboard's rotation.
    const team = (await client.admin("GET", `/teams/${state.teamId}`)).body.team as {
      previousSecretValidUntil: string;
    };
    expect(Date.parse(team.previousSecretValidUntil)).toBeGreaterThan(Date.now() + 3_000_000);
  });

  it("answers a settings form the API refuses with the settings page, the refusal and its status", async () => {
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    for (const [path, form] of [
      ["/settings", { name: "Payments", alertQuotaMonthly: "lots", _csrf: csrf }],
      ["/settings/rotate", { graceSeconds: "-1", _csrf: csrf }],
    ] as const) {
      const refused = await page.request.post(`${base}/dashboard/teams/${state.teamId}${path}`, {
        form,
        headers: { origin: base },
        maxRedirects: 0,
      });
      expect(refused.status(), path).toBe(400);
      const body = await refused.text();
      expect(body).toContain("<h1>Settings</h1>");
      expect(body).toContain('<div class="error" role="alert">');
      expect(body).toContain("Team id");
    }
  });

  it("disables and enables a channel", async () => {
    await tab("Channels").click();
    await page.getByRole("button", { name: "Disable On-call hook" }).click();
    await page.getByText("Channel On-call hook disabled.").waitFor();
    expect(await page.getByRole("row").filter({ hasText: "webhook" }).innerText()).toContain("disabled");
    await page.getByRole("button", { name: "Enable On-call hook" }).click();
    await page.getByText("Channel On-call hook enabled.").waitFor();
  });

  it("creates a read-only API key (token shown once) and lists the team's audit log", async () => {
    await tab("Access").click();
    await page.getByLabel("Name", { exact: true }).fill("wallboard");
    await page.getByLabel("Scope").selectOption("read");
    await page.getByRole("button", { name: "Create API key" }).click();
    await page.getByRole("heading", { name: "API key wallboard (read)" }).waitFor();
    state.readKey = (await page.locator("#secret-value").innerText()).trim();
    expect(state.readKey).toMatch(/^pgk_[A-Za-z0-9_-]{43}$/);
    const audit = page.getByRole("table").filter({ has: page.getByRole("caption").getByText("The latest 50 changes") });
    // Entries are written off the request path: the earlier actions, not this second's key.
    for (const action of ["team.rotate_secret", "alert.acknowledge", "webhook.create"]) {
      await audit.getByText(action, { exact: true }).first().waitFor();
    }
    await page.reload();
    expect(await page.content()).not.toContain(state.readKey);
    await page.getByRole("button", { name: "Revoke wallboard" }).waitFor();
  });

  it("signs out, then a read-only team key sees its own team only, without write actions", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/dashboard\/login$/);
    await page.goto(`${base}/dashboard/teams/${state.teamId}/alerts`);
    expect(new URL(page.url()).pathname).toBe("/dashboard/login");

    const token = state.readKey;
    await page.goto(`${base}/dashboard`);
    await page.getByLabel("Admin token or team API key").fill(token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(new RegExp(`/dashboard/teams/${state.teamId}/alerts`));
    expect(await page.getByRole("link", { name: "All teams" }).count()).toBe(0);
    await page.getByRole("link", { name: "resolved", exact: true }).click();
    await page.getByRole("link", { name: state.alertTitle }).waitFor();
    expect(await page.getByRole("button", { name: /Acknowledge|Resolve/ }).count()).toBe(0);
    await tab("Settings").click();
    expect(await page.getByRole("button", { name: "Rotate webhook secret" }).count()).toBe(0);
    await tab("Access").click();
    expect(await page.getByRole("button", { name: /Revoke|Create API key/ }).count()).toBe(0);

    const other = await client.createTeam({ name: "Someone else" });
    const foreign = await page.goto(`${base}/dashboard/teams/${other.teamId}/alerts`);
    expect(foreign?.status()).toBe(404);
    expect((await page.goto(`${base}/dashboard/teams`))?.url()).toContain(`/dashboard/teams/${state.teamId}/alerts`);
  });

  it("is usable from the keyboard, and labels every control on every page", async () => {
    const keyboard = await browser.newContext();
    const tabPage = await keyboard.newPage();
    tabPage.setDefaultTimeout(15_000);
    await tabPage.goto(`${base}/dashboard/login`);
    // The token field has the focus; Enter submits.
    await tabPage.keyboard.type(stack.adminToken);
    await tabPage.keyboard.press("Enter");
    await tabPage.waitForURL(/\/dashboard\/teams$/);
    const pages = [
      "alerts",
      "alerts?status=resolved",
      "monitors",
      "webhooks",
      "channels",
      "silences",
      "access",
      "settings",
    ];
    const { webhooks } = (await client.admin("GET", `/teams/${state.teamId}/webhooks`)).body as {
      webhooks: { id: string }[];
    };
    const { monitors } = (await client.admin("GET", `/teams/${state.teamId}/monitors`)).body as {
      monitors: { id: string }[];
    };
    pages.push(`webhooks/${webhooks[0]?.id}`, `monitors/${monitors[0]?.id}`);
    for (const path of pages) {
      await tabPage.goto(`${base}/dashboard/teams/${state.teamId}/${path}`);
      const audit = (await tabPage.evaluate(`(() => ({
        lang: document.documentElement.lang,
        h1: document.querySelectorAll("h1").length,
        unlabelled: [...document.querySelectorAll("input:not([type=hidden]), select, textarea, button")]
          .filter((el) => !(el.labels?.length || el.getAttribute("aria-label") || el.textContent.trim()))
          .map((el) => el.outerHTML),
      }))()`)) as { lang: string; h1: number; unlabelled: string[] };
      expect(audit, path).toEqual({ lang: "en", h1: 1, unlabelled: [] });
    }
    // The skip link is the first stop, and takes the focus to the content.
    await tabPage.keyboard.press("Tab");
    expect(await tabPage.evaluate("document.activeElement.textContent")).toBe("Skip to content");
    await keyboard.close();
  });

  it("is not part of the OpenAPI document", async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/dashboard"))).toEqual([]);
  });
});
