// Signing in to the dashboard through a real OpenID Provider (oidc-provider, its own process), in
// Chromium: roles from groups (alice is an admin, bob a viewer of Payments), the audit log names the
// person, signing out ends the session, and a person disabled at the provider is signed out at their
// next request after OIDC_CHECK_SECONDS.
import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/browser.ts";
import { Client, uniqueName } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { OidcProvider } from "../support/oidc-provider.ts";
import { Receiver } from "../support/receiver.ts";
import { Stack } from "../support/stack.ts";
import { createChannel } from "./notifications-helpers.ts";

const CHECK_SECONDS = 2;

let provider: OidcProvider;
let stack: Stack;
let client: Client;
let base: string;
let browser: Browser;
let receiver: Receiver;
const teams = { payments: "", paymentsName: "", search: "", searchName: "" };
const alert = { id: "", title: "Card payments failing" };

/** A browser of its own per person: its own cookies. */
async function personPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on("dialog", (dialog) => dialog.accept());
  return { context, page };
}

/** Through the sign-in page's SSO button, the provider's sign-in and consent, back to the dashboard. */
async function signInThroughProvider(page: Page, login: string): Promise<void> {
  await page.goto(`${base}/dashboard`);
  await page.getByRole("link", { name: "Sign in with SSO" }).click();
  await page.waitForURL(new RegExp(`^${provider.issuer}/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(new RegExp(`^${base}/dashboard/teams`));
}

beforeAll(async () => {
  provider = await OidcProvider.reserve({
    alice: { name: "Alice Admin", email: "alice@example.com", groups: ["platform"] },
    bob: { name: "Bob Viewer", email: "bob@example.com", groups: ["payments-ro"] },
    carol: { name: "Carol Nobody", email: "carol@example.com", groups: ["marketing"] },
  });
  teams.paymentsName = uniqueName("Payments");
  teams.searchName = uniqueName("Search");
  stack = await Stack.create({
    databaseName: `pulsegate_e2e_oidc_${process.pid}`,
    readyTimeoutMs: 120_000,
    serviceEnv: (name) =>
      name === "gateway"
        ? {
            REDIS_KEY_PREFIX: `pulsegate-test:oidc-${process.pid}-${randomBytes(4).toString("hex")}`,
            OIDC_ISSUER: provider.issuer,
            OIDC_CLIENT_ID: provider.clientId,
            OIDC_CLIENT_SECRET: provider.clientSecret,
            OIDC_GROUPS: `platform=admin,payments-ro=viewer:${teams.paymentsName}`,
            OIDC_SCOPES: "openid profile email groups offline_access",
            OIDC_CHECK_SECONDS: String(CHECK_SECONDS),
          }
        : {},
  });
  base = stack.info.baseUrl;
  await provider.start(`${base}/dashboard/oidc/callback`);
  client = new Client(stack.info);
  const payments = await client.setup({ name: teams.paymentsName });
  teams.payments = payments.teamId;
  teams.search = (await client.createTeam({ name: teams.searchName })).teamId;
  receiver = await Receiver.start();
  await createChannel(client, teams.payments, { kind: "webhook", url: receiver.url() });
  const triggered = await client.trigger(payments.webhookUrl, { title: alert.title }, { secret: payments.secret });
  expect(triggered.status).toBe(201);
  alert.id = triggered.body.alertId as string;
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.destroy();
  await provider?.stop();
});

describe("dashboard sign-in through an OpenID provider", () => {
  it("signs alice (group platform) in as an admin: every team, and she acknowledges; the audit log and the notification name her", async () => {
    const { context, page } = await personPage();
    await signInThroughProvider(page, "alice");
    expect(new URL(page.url()).pathname).toBe("/dashboard/teams");
    await page.getByRole("link", { name: teams.paymentsName }).waitFor();
    await page.getByRole("link", { name: teams.searchName }).waitFor();
    await page.getByText("Alice Admin (admin)").waitFor();
    const [cookie, ...others] = (await context.cookies()).filter((c) => c.name.startsWith("pulsegate_"));
    expect(others).toEqual([]);
    expect(cookie).toMatchObject({ name: "pulsegate_session", httpOnly: true, sameSite: "Strict", path: "/dashboard" });

    await page.goto(`${base}/dashboard/teams/${teams.payments}/alerts`);
    const row = page.getByRole("row").filter({ hasText: alert.title });
    await row.getByRole("button", { name: "Acknowledge" }).click();
    await page.getByText("Alert acknowledged.").waitFor();
    await page.goto(`${base}/dashboard/teams/${teams.payments}/alerts/${alert.id}`);
    await page.getByText("by Alice Admin <alice@example.com>").waitFor();
    const acknowledged = (await client.admin("GET", `/alerts/${alert.id}`)).body.alert;
    expect(acknowledged).toMatchObject({ status: "acknowledged", acknowledgedBy: "Alice Admin <alice@example.com>" });
    // The team's channel hears of it, and from whom.
    const requests = await receiver.waitFor(
      (received) => received.some((request) => request.json.type === "alert.acknowledged"),
      "the alert.acknowledged notification",
    );
    const notice = requests.find((request) => request.json.type === "alert.acknowledged");
    expect(notice?.json.alert).toMatchObject({ id: alert.id, acknowledgedBy: "Alice Admin <alice@example.com>" });

    const entry = await eventually(async () => {
      const log = await client.admin("GET", `/teams/${teams.payments}/audit-log`);
      const entries = log.body.entries as { action: string; actor: unknown }[];
      const found = entries.find((candidate) => candidate.action === "alert.acknowledge");
      if (!found) throw new Error("no alert.acknowledge entry yet");
      return found;
    });
    expect(entry.actor).toEqual({ kind: "user", id: "alice", name: "Alice Admin", email: "alice@example.com" });
    await page.goto(`${base}/dashboard/teams/${teams.payments}/access`);
    await page.getByRole("cell", { name: "Alice Admin <alice@example.com>" }).first().waitFor();
    await context.close();
  });

  it("signs bob (group payments-ro) in as a viewer of Payments: no other team, no buttons, a forged POST is 403", async () => {
    const { context, page } = await personPage();
    await page.goto(`${base}/dashboard`);
    await page.getByRole("link", { name: "Sign in with SSO" }).click();
    await page.locator('input[name="login"]').fill("bob");
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(new RegExp(`/dashboard/teams/${teams.payments}/alerts`));
    await page.getByText("Bob Viewer (viewer)").waitFor();
    expect(await page.getByRole("link", { name: "All teams" }).count()).toBe(0);
    await page.getByRole("link", { name: "acknowledged", exact: true }).click();
    await page.getByRole("link", { name: alert.title }).waitFor();
    expect(await page.getByRole("button", { name: /Acknowledge|Resolve/ }).count()).toBe(0);

    const foreign = await page.goto(`${base}/dashboard/teams/${teams.search}/alerts`);
    expect(foreign?.status()).toBe(404);

    // The page's own CSRF token, sent with a POST the page does not offer: the admin API refuses it.
    await page.goto(`${base}/dashboard/teams/${teams.payments}/alerts`);
    const csrf = await page.locator('input[name="_csrf"]').first().getAttribute("value");
    const forged = await page.request.post(`${base}/dashboard/teams/${teams.payments}/alerts/${alert.id}/resolve`, {
      form: { _csrf: csrf ?? "" },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect((await client.admin("GET", `/alerts/${alert.id}`)).body.alert).toMatchObject({ status: "acknowledged" });
    await context.close();
  });

  it("resolves as alice: the resolve notification names her", async () => {
    const { context, page } = await personPage();
    await signInThroughProvider(page, "alice");
    await page.goto(`${base}/dashboard/teams/${teams.payments}/alerts/${alert.id}`);
    await page.getByRole("button", { name: "Resolve" }).click();
    await page.getByText("Alert resolved.").waitFor();
    const requests = await receiver.waitFor(
      (received) => received.some((request) => request.json.type === "alert.resolved"),
      "the alert.resolved notification",
    );
    const resolved = requests.find((request) => request.json.type === "alert.resolved");
    expect(resolved?.json.alert).toMatchObject({ id: alert.id, resolvedBy: "Alice Admin <alice@example.com>" });
    await context.close();
  });

  it("refuses carol, whose groups grant nothing: a page that says so, and no session", async () => {
    const { context, page } = await personPage();
    await page.goto(`${base}/dashboard`);
    await page.getByRole("link", { name: "Sign in with SSO" }).click();
    await page.locator('input[name="login"]').fill("carol");
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { name: "No access to Pulsegate" }).waitFor();
    await page.getByText("none of your groups (marketing) gives access to Pulsegate").waitFor();
    // The provider's own cookies aside.
    expect((await context.cookies()).map((c) => c.name).filter((name) => name.startsWith("pulsegate_"))).toEqual([]);
    await context.close();
  });

  it("ends the session on sign-out: the cookie no longer opens anything", async () => {
    const { context, page } = await personPage();
    await signInThroughProvider(page, "alice");
    const session = (await context.cookies()).find((c) => c.name === "pulsegate_session")?.value ?? "";
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/dashboard\/login$/);
    const replayed = await fetch(`${base}/dashboard/teams`, {
      redirect: "manual",
      headers: { cookie: `pulsegate_session=${session}` },
    });
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get("location")).toBe("/dashboard/login");
    await context.close();
  });

  it("still signs in with the admin token (break-glass), and the admin API refuses a pass made up outside", async () => {
    const { context, page } = await personPage();
    await page.goto(`${base}/dashboard/login`);
    await page.getByLabel("Admin token or team API key").fill(stack.info.adminToken);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/dashboard\/teams$/);
    await page.getByText("Admin", { exact: true }).waitFor();
    await context.close();
    const madeUp = Buffer.from(
      JSON.stringify({
        user: { kind: "user", subject: "eve", name: "Eve", email: "", role: { kind: "admin" } },
        until: Date.now() + 60_000,
      }),
    ).toString("base64url");
    const refused = await client.admin("GET", "/teams", undefined, `pgu.${madeUp}.not-a-signature`);
    expect(refused.status).toBe(401);
    // The sign-in routes are the dashboard's, not the API's.
    const openapi = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths).filter((path) => path.startsWith("/dashboard"))).toEqual([]);
  });

  it("signs bob out at his next request once the provider disables him", async () => {
    const { context, page } = await personPage();
    await signInThroughProvider(page, "bob");
    provider.disable("bob");
    await new Promise((done) => setTimeout(done, (CHECK_SECONDS + 0.5) * 1000));
    await page.goto(`${base}/dashboard/teams/${teams.payments}/alerts`);
    expect(new URL(page.url()).pathname).toBe("/dashboard/login");
    await context.close();
  });
});
