import { describe, expect, it } from "vitest";
import { booleanField, defined, endOfDayField, integerField } from "./form-values.ts";
import { html, renderDocument } from "./html.ts";
import { rulesFromForm } from "./rule-editor.ts";
import { alertmanagerSnippet, pingSnippets, standardWebhooksSnippets, triggerSnippets } from "./snippets.ts";

describe("rule editor rows", () => {
  it("reads JSON values, keeps other text as a string, drops rows without a field, omits empty values", () => {
    const form = new URLSearchParams();
    for (const [field, op, value] of [
      ["metadata.env", "==", '"production"'],
      ["metadata.region", "in", '["eu", "us"]'],
      ["title", "contains", "disk full"],
      ["metadata.retries", ">", "3"],
      ["metadata.owner", "exists", ""],
      ["", "==", "ignored"],
    ]) {
      form.append("ruleField", field ?? "");
      form.append("ruleOp", op ?? "");
      form.append("ruleValue", value ?? "");
    }
    expect(rulesFromForm(form)).toEqual([
      { field: "metadata.env", op: "==", value: "production" },
      { field: "metadata.region", op: "in", value: ["eu", "us"] },
      { field: "title", op: "contains", value: "disk full" },
      { field: "metadata.retries", op: ">", value: 3 },
      { field: "metadata.owner", op: "exists" },
    ]);
  });
});

describe("form fields", () => {
  it("passes what is not a number on as typed, for the API to refuse with its own message", () => {
    const form = new URLSearchParams({ a: "120", b: "", c: "12s", d: "-1" });
    expect([
      integerField(form, "a"),
      integerField(form, "b"),
      integerField(form, "c"),
      integerField(form, "d"),
    ]).toEqual([120, undefined, "12s", -1]);
  });

  it("reads a checkbox behind a hidden false, a date as the end of that UTC day, and drops absent fields", () => {
    expect(booleanField(new URLSearchParams("enabled=false&enabled=true"), "enabled")).toBe(true);
    expect(booleanField(new URLSearchParams("enabled=false"), "enabled")).toBe(false);
    expect(booleanField(new URLSearchParams(""), "enabled")).toBeUndefined();
    expect(endOfDayField(new URLSearchParams("d=2027-01-31"), "d")).toBe("2027-01-31T23:59:59.000Z");
    expect(endOfDayField(new URLSearchParams("d="), "d")).toBeNull();
    expect(defined({ a: 1, b: undefined, c: null })).toEqual({ a: 1, c: null });
  });
});

describe("rendering", () => {
  it("escapes text and attributes", () => {
    const hostile = `<script>alert("x")</script>'&`;
    const page = renderDocument(html`<p title=${hostile}>${hostile}</p>`);
    expect(page).not.toContain("<script>");
    expect(page).toContain("&lt;script>");
    expect(page).toContain('title="&lt;script>alert(&quot;x&quot;)&lt;/script>\'&amp;"');
  });
});

describe("snippets", () => {
  it("put the URL in, never a secret, and read the secret from PULSEGATE_SECRET", () => {
    const trigger = triggerSnippets("https://pulsegate.example/api/alerts/trigger/abc");
    for (const text of Object.values(trigger)) {
      expect(text).toContain("https://pulsegate.example/api/alerts/trigger/abc");
      expect(text).toContain("PULSEGATE_SECRET");
    }
    const ping = pingSnippets("https://pulsegate.example/api/ping/xyz");
    expect(ping.curl).toContain("'https://pulsegate.example/api/ping/xyz'");
    // cron treats % as a newline: the cron line must have none.
    const cronLine = ping.cron.split("\n").find((line) => line.startsWith("*/5"));
    expect(cronLine).toMatch(/^\*\/5 \* \* \* \* .*https:\/\/pulsegate\.example\/api\/ping\/xyz/);
    expect(cronLine).not.toContain("%");
  });

  it("give an Alertmanager webhook its receiver: the trigger URL, resolves sent, the token read from a file", () => {
    const receiver = alertmanagerSnippet("https://pulsegate.example/api/alerts/alertmanager/abc");
    expect(receiver).toContain('- url: "https://pulsegate.example/api/alerts/alertmanager/abc"');
    expect(receiver).toContain("send_resolved: true");
    expect(receiver).toContain("max_alerts: 500");
    expect(receiver).toMatch(/credentials_file: \S+/);
    expect(receiver).not.toMatch(/pgam_[A-Za-z0-9_-]/);
  });

  it("for Standard Webhooks, sign with the library and the whsec_ key from PULSEGATE_WHSEC", () => {
    const standard = standardWebhooksSnippets("https://pulsegate.example/api/ping/xyz", { status: "up" });
    for (const text of Object.values(standard)) {
      expect(text).toContain("https://pulsegate.example/api/ping/xyz");
      expect(text).toContain("PULSEGATE_WHSEC");
      expect(text).toContain("webhook-id");
      expect(text).not.toContain("PULSEGATE_SECRET");
    }
    expect(standard.node).toContain('from "standardwebhooks"');
    expect(standard.node).toContain(".sign(id, now, body)");
    expect(standard.python).toContain(".sign(msg_id, now, body)");
  });
});
