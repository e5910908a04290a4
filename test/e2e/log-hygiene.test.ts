// Secrets, signatures and bodies never reach logs or exported traces: run a stack of our own that exports
// spans to a local OTLP receiver, drive it (including requests the database cannot store), and search
// everything it printed and exported.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, sign } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { freePort } from "../support/free-port.ts";
import { Stack } from "../support/stack.ts";

let stack: Stack;
let collector: Server;
/** Every OTLP/HTTP JSON export body, as received, whatever its path (only spans are expected). */
const exports: { path: string; body: string }[] = [];

beforeAll(async () => {
  const port = await freePort();
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      exports.push({ path: request.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((done) => collector.listen(port, "127.0.0.1", done));
  stack = await Stack.create({
    databaseName: `pulsegate_logs_${process.pid}`,
    env: {
      LOG_LEVEL: "debug",
      OTEL_SDK_DISABLED: "false",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_TRACES_SAMPLER: "parentbased_always_on",
    },
  });
});

afterAll(async () => {
  await stack?.destroy();
  collector?.close();
});

/** Where `needle` occurs in `haystack`, with a little context ("" when it does not), for a short failure message. */
function around(where: string, haystack: string, needle: string): string {
  const at = haystack.indexOf(needle);
  if (at < 0) return "";
  const context = haystack.slice(Math.max(0, at - 400), at + needle.length + 80);
  return `${where}: …${context.replaceAll(/"(start|end)TimeUnixNano":"\d+",?/g, "")}…`;
}

describe("log and trace hygiene", () => {
  it("prints and exports no secret, signature, admin token, channel URL, body or URL token", async () => {
    const client = new Client(stack.info);
    const { teamId, secret, webhookUrl } = await client.setup();
    const marker = "BODY-MARKER-7d1f0c";
    const body = JSON.stringify({ title: marker, metadata: { note: marker } });
    const signature = sign(secret, body);
    expect((await client.trigger(webhookUrl, body, { signature })).status).toBe(201);
    const badSignature = sign("e".repeat(64), body);
    expect((await client.trigger(webhookUrl, body, { signature: badSignature })).status).toBe(401);
    expect((await client.trigger(webhookUrl, `{"title": "${marker}"`, { secret })).status).toBe(400);
    // Text the database cannot store, with the marker beside it: refused, and quoted nowhere.
    const poisoned = String.raw`{"title":"t","metadata":{"k":"${marker}\u0000"}}`;
    expect((await client.trigger(webhookUrl, poisoned, { secret })).status).toBe(400);
    // A Slack URL is a credential; the channel is stored, and notified when the next alert is created.
    const slackToken = "SLACKTOKEN0d5e9a";
    const slackUrl = `http://127.0.0.1:9/services/T000/B000/${slackToken}`;
    expect(
      (await client.admin("POST", `/teams/${teamId}/channels`, { kind: "slack", name: "#ops", url: slackUrl })).status,
    ).toBe(201);
    expect((await client.trigger(webhookUrl, { title: marker, group_key: marker }, { secret })).status).toBe(201);
    const monitor = await client.createMonitor(teamId);
    const down = { status: "down", reason: marker, metadata: { note: marker } };
    expect((await client.ping(monitor.pingUrl, down, { secret })).status).toBe(200);
    const rotated = (await client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, {})).body
      .webhookSecret as string;
    // A team API key is a credential: created, used, tried with one character changed.
    const apiKey = await client.admin("POST", `/teams/${teamId}/api-keys`, { name: "ci", scope: "write" });
    const apiKeyToken = apiKey.body.token as string;
    expect((await client.admin("GET", `/teams/${teamId}`, undefined, apiKeyToken)).status).toBe(200);
    const wrongKey = `${apiKeyToken.slice(0, -1)}${apiKeyToken.endsWith("A") ? "B" : "A"}`;
    expect((await client.admin("GET", `/teams/${teamId}`, undefined, wrongKey)).status).toBe(401);
    // An Alertmanager webhook's bearer token: created, used, rotated, and the old one tried after.
    const alertmanagerHook = await client.admin("POST", `/teams/${teamId}/webhooks`, {
      name: "Alertmanager",
      source: "alertmanager",
    });
    const bearerToken = alertmanagerHook.body.bearerToken as string;
    const alertmanagerUrl = (alertmanagerHook.body.webhook as { triggerUrl: string }).triggerUrl;
    const alertmanagerPost = (token: string) =>
      fetch(alertmanagerUrl, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          version: "4",
          alerts: [
            { status: "firing", labels: { alertname: marker }, annotations: {}, fingerprint: "4d2a7c1e9b3f5a60" },
          ],
        }),
      });
    expect((await alertmanagerPost(bearerToken)).status).toBe(200);
    const webhookId = (alertmanagerHook.body.webhook as { id: string }).id;
    const rotatedBearer = (
      await client.admin("POST", `/webhooks/${webhookId}/bearer-token/rotate`, { graceSeconds: 0 })
    ).body.bearerToken as string;
    expect((await alertmanagerPost(bearerToken)).status).toBe(401);

    // Wait until the database work of these requests has been exported (so the search means something).
    const spansOf = () =>
      exports
        .filter((sent) => sent.path.startsWith("/v1/traces"))
        .map((sent) => sent.body)
        .join("\n");
    await eventually(async () => (spansOf().includes("db.query.text") ? true : undefined), {
      what: "exported pg spans",
    });
    // Awaited, not slept: stopping flushes every process's remaining spans to the collector, and its
    // output to the end, so the search below covers everything.
    await stack.stopAll();
    // Everything printed, and anything else exported, is searched as a log line.
    const output = [
      stack.output(),
      ...exports.filter((sent) => !sent.path.startsWith("/v1/traces")).map((sent) => sent.body),
    ].join("\n");
    const spans = spansOf();
    expect(output).toContain("/api/alerts/trigger/");
    expect(spans).toContain("INSERT");

    const secrets = [
      secret,
      rotated,
      signature,
      badSignature,
      stack.info.adminToken,
      slackToken,
      apiKeyToken,
      wrongKey,
      bearerToken,
      rotatedBearer,
    ];
    const leaks = [
      ...[...secrets, marker].flatMap((forbidden) => [
        around("logs", output, forbidden),
        around("spans", spans, forbidden),
      ]),
      // Spans name the route, not the token in the path.
      ...[webhookUrl, monitor.pingUrl, alertmanagerUrl.split("/").at(-1) ?? ""].map((token) =>
        around("spans", spans, token),
      ),
    ].filter((leak) => leak !== "");
    expect(leaks.join("\n\n")).toBe("");
    // Log lines go to stdout alone: nothing but spans leaves a process over OTLP (no log records, no metrics).
    expect([...new Set(exports.map((sent) => sent.path))]).toEqual(["/v1/traces"]);
  });
});
