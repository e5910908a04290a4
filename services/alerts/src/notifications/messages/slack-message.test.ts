import { describe, expect, it } from "vitest";
import type { NotificationEvent } from "./notification-event.ts";
import { metadataSummary, slackMessage } from "./slack-message.ts";

const event = (overrides: Partial<NotificationEvent["alert"]> = {}, type = "alert.created"): NotificationEvent => ({
  type,
  occurredAt: "2026-03-01T10:00:00.000Z",
  alert: {
    id: "alert_1",
    title: "Disk full on db-1",
    description: "Only 2% left on /var",
    severity: "sev1",
    occurrenceCount: 3,
    status: "open",
    groupKey: "disk-db-1",
    source: "webhook",
    metadata: { env: "production", host: "db-1" },
    ...overrides,
  },
});

describe("slackMessage", () => {
  it("carries severity, title, description, occurrence count, metadata and the event", () => {
    const message = slackMessage(event());
    expect(message).toEqual({
      text: "[SEV1] Alert created: Disk full on db-1",
      blocks: [
        {
          type: "header",
          text: { type: "plain_text", text: ":large_orange_circle: SEV1 · Alert created", emoji: true },
        },
        { type: "section", text: { type: "mrkdwn", text: "*Disk full on db-1*\nOnly 2% left on /var" } },
        {
          type: "section",
          fields: [
            { type: "mrkdwn", text: "*Severity*\nSEV1" },
            { type: "mrkdwn", text: "*Occurrences*\n3" },
            { type: "mrkdwn", text: "*Event*\nalert.created" },
            { type: "mrkdwn", text: "*Status*\nopen" },
            { type: "mrkdwn", text: "*Source*\nwebhook" },
            { type: "mrkdwn", text: "*Group key*\n`disk-db-1`" },
          ],
        },
        { type: "context", elements: [{ type: "mrkdwn", text: "Metadata: `env`: `production` · `host`: `db-1`" }] },
        {
          type: "context",
          elements: [{ type: "mrkdwn", text: "Pulsegate alert `alert_1` · 2026-03-01T10:00:00.000Z" }],
        },
      ],
      unfurl_links: false,
      unfurl_media: false,
    });
  });

  it("marks a resolved alert as such", () => {
    const message = slackMessage(event({ status: "resolved" }, "alert.resolved"));
    expect(message.text).toBe("[SEV1] Alert resolved: Disk full on db-1");
    expect(JSON.stringify(message.blocks[0])).toContain(":white_check_mark: SEV1 · Alert resolved");
  });

  it("says who resolved it, escaped, when that was recorded", () => {
    const fieldsOf = (message: ReturnType<typeof slackMessage>) =>
      (message.blocks[2] as { fields: { text: string }[] }).fields.map((field) => field.text);
    const by = slackMessage(event({ status: "resolved", resolvedBy: "Alice <alice@example.com>" }, "alert.resolved"));
    expect(fieldsOf(by)).toContain("*Resolved by*\nAlice &lt;alice@example.com&gt;");
    const bySource = slackMessage(event({ status: "resolved" }, "alert.resolved"));
    expect(fieldsOf(bySource).filter((field) => field.startsWith("*Resolved by*"))).toEqual([]);
  });

  it("says who acknowledged it, on an acknowledgement", () => {
    const message = slackMessage(
      event({ status: "acknowledged", acknowledgedBy: "Bob <bob@example.com>" }, "alert.acknowledged"),
    );
    expect(message.text).toBe("[SEV1] Alert acknowledged: Disk full on db-1");
    expect(JSON.stringify(message.blocks[0])).toContain(":eyes: SEV1 · Alert acknowledged");
    const fields = (message.blocks[2] as { fields: { text: string }[] }).fields.map((field) => field.text);
    expect(fields).toContain("*Acknowledged by*\nBob &lt;bob@example.com&gt;");
  });

  it("lets no caller text become a mention or a link", () => {
    const message = slackMessage(
      event({
        title: "<!channel> wake up <https://evil.example|click>",
        description: "a & b > c",
        metadata: { link: "<https://evil.example|here>", "`x`": "`y`" },
      }),
    );
    const all = JSON.stringify(message);
    expect(all).not.toContain("<!channel>");
    expect(all).not.toContain("<https://");
    expect(message.text).toBe("[SEV1] Alert created: &lt;!channel&gt; wake up &lt;https://evil.example|click&gt;");
    expect(JSON.stringify(message.blocks[1])).toContain("a &amp; b &gt; c");
    expect(JSON.stringify(message.blocks[3])).toContain("`link`: `&lt;https://evil.example|here&gt;`");
    expect(JSON.stringify(message.blocks[3])).toContain("`'x'`: `'y'`");
  });

  it("stays within Slack's limits for the longest allowed alert", () => {
    const message = slackMessage(event({ title: "T".repeat(200), description: "D".repeat(2_000) }));
    const header = message.blocks[0] as { text: { text: string } };
    const section = message.blocks[1] as { text: { text: string } };
    expect([...header.text.text].length).toBeLessThanOrEqual(150);
    expect([...section.text.text].length).toBeLessThanOrEqual(3_000);
    expect(section.text.text).toContain("D".repeat(2_000));
  });

  it("omits metadata and group key when there are none", () => {
    const message = slackMessage(event({ metadata: null, groupKey: null }));
    expect(JSON.stringify(message)).not.toContain("Metadata");
    expect(JSON.stringify(message)).not.toContain("Group key");
  });
});

describe("metadataSummary", () => {
  it("shows the first ten entries, clips long values and counts the rest", () => {
    const metadata = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i === 0 ? "v".repeat(100) : i]));
    const summary = metadataSummary(metadata);
    expect(summary.startsWith(`\`k0\`: \`${"v".repeat(79)}…\``)).toBe(true);
    expect(summary).toContain("`k9`: `9`");
    expect(summary).not.toContain("k10");
    expect(summary.endsWith(" · and 2 more")).toBe(true);
  });

  it("renders nested values as JSON", () => {
    expect(metadataSummary({ tags: ["a", "b"], n: { x: 1 } })).toBe('`tags`: `["a","b"]` · `n`: `{"x":1}`');
  });
});
