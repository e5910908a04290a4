// A per-monitor SVG status badge behind an unguessable, read-only token.
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";

const stack = inject("stack");
const client = new Client(stack);

type BadgeMonitor = { id: string; pingUrl: string; badgeUrl: string };

describe("status badges", () => {
  it("every monitor has a badge URL; the badge shows its name and status, without credentials", async () => {
    const { secret, monitor } = await client.setupMonitor();
    const { badgeUrl, pingUrl } = monitor as unknown as BadgeMonitor;
    expect(badgeUrl).toMatch(new RegExp(`^${stack.baseUrl}/badge/[A-Za-z0-9_-]{32,}\\.svg$`));
    expect(badgeUrl).not.toContain(pingUrl);

    const idle = await fetch(badgeUrl);
    expect(idle.status).toBe(200);
    expect(idle.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(idle.headers.get("cache-control")).toBe("no-cache, max-age=0");
    // An image, never a document: nothing in it may run, load or be framed.
    expect(idle.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(idle.headers.get("x-frame-options")).toBe("DENY");
    expect(idle.headers.get("x-content-type-options")).toBe("nosniff");
    const svg = await idle.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain("<title>Nightly backup: idle</title>");

    await client.ping(pingUrl, { status: "down", reason: "x" }, { secret });
    // Badge look-ups are kept WEBHOOK_CACHE_MS (200 ms in tests).
    await eventually(async () =>
      (await (await fetch(badgeUrl)).text()).includes(": down</title>") ? true : undefined,
    );
  });

  it("escapes the monitor's name", async () => {
    const { teamId } = await client.createTeam();
    const monitor = (await client.createMonitor(teamId, { name: 'a<b>&"c' })) as unknown as BadgeMonitor;
    const svg = await (await fetch(monitor.badgeUrl)).text();
    expect(svg).toContain("<title>a&#60;b&#62;&#38;&#34;c: idle</title>");
    expect(svg).not.toContain("<b>");
  });

  it("an unknown token, another suffix or another method: 404", async () => {
    const { monitor } = await client.setupMonitor();
    const { badgeUrl } = monitor as unknown as BadgeMonitor;
    const unknown = await fetch(`${stack.baseUrl}/badge/${"A".repeat(32)}.svg`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "badge_not_found" });
    expect((await fetch(badgeUrl.replace(/\.svg$/, ".png"))).status).toBe(404);
    expect((await fetch(badgeUrl, { method: "POST" })).status).toBe(404);
  });
});
