import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEAD_ADDRESS, REDIS_URL } from "./testing/build-test-app.ts";

// The real entry point as its own process, with the real logger at trace level.
const NODE = fileURLToPath(new URL("../../../node_modules/.bin/node", import.meta.url));
const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));

const SIGNATURE = "f00dfacef00dface".repeat(4);
const BODY_MARKER = "body-marker-should-never-be-logged";
const ADMIN_TOKEN = "admin-token-should-never-be-logged";

describe("gateway process", () => {
  let child: ChildProcess;
  let output = "";
  let baseUrl = "";

  beforeAll(async () => {
    child = spawn(NODE, ["--conditions=@pulsegate/source", MAIN], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "trace",
        PORT: "0",
        HOST: "127.0.0.1",
        ADMIN_TOKEN,
        AUTH_GRPC_ADDR: DEAD_ADDRESS,
        ALERTS_GRPC_ADDR: DEAD_ADDRESS,
        MONITORS_GRPC_ADDR: DEAD_ADDRESS,
        REDIS_URL,
        OTEL_SDK_DISABLED: "true",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const collect = (chunk: Buffer) => {
      output += chunk.toString("utf8");
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 15_000);
      const poll = setInterval(() => {
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1]) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve(match[1]);
        }
      }, 20);
      child.once("exit", (code) => reject(new Error(`gateway exited with ${code}:\n${output}`)));
    });
  }, 20_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });

  it("never logs signatures, bodies or the admin token, and drains on SIGTERM", async () => {
    const trigger = await fetch(`${baseUrl}/api/alerts/trigger/webhook-token`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-webhook-signature": SIGNATURE },
      body: JSON.stringify({ title: BODY_MARKER, metadata: { secret: BODY_MARKER } }),
    });
    expect(trigger.status).toBe(503);
    const requestId = trigger.headers.get("x-request-id");
    expect(requestId).toBeTruthy();

    const admin = await fetch(`${baseUrl}/admin/v1/teams`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ name: BODY_MARKER }),
    });
    expect(admin.status).toBe(503);

    const unauthorized = await fetch(`${baseUrl}/admin/v1/teams`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}-wrong` },
      body: JSON.stringify({ name: BODY_MARKER }),
    });
    expect(unauthorized.status).toBe(401);

    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);

    // The requests were logged (with their ids)...
    expect(output).toContain(`"reqId":"${requestId}"`);
    expect(output).toContain("request completed");
    expect(output).toContain('"path":"/api/alerts/trigger/webhook-token"');
    // ...but nothing a caller sent beyond method and URL.
    expect(output).not.toContain(SIGNATURE);
    expect(output).not.toContain(BODY_MARKER);
    expect(output).not.toContain(ADMIN_TOKEN);
    expect(output).toContain('"closer":"http"');
  }, 20_000);
});
