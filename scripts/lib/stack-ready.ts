import { request } from "node:http";

export type Readiness = { ready: boolean; detail: string; spoolDurability?: string };

/**
 * The stack `npm start` runs is ready when the gateway's /readyz answers 200
 * AND names auth, alerts and monitors "up": the gateway may be ready to serve
 * (pings while alerts is down) before every service it calls has started.
 * One connection per probe, closed after it: no kept-alive connection of
 * ours for the gateway to wait on when it drains.
 */
export function stackReadiness(baseUrl: string, timeoutMs = 2_000): Promise<Readiness> {
  return new Promise((resolve) => {
    const probe = request(`${baseUrl}/readyz`, { agent: false, timeout: timeoutMs }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () => {
        try {
          const body = JSON.parse(text) as { checks?: Record<string, string>; spool?: { durability?: string } | null };
          const checks = body.checks ?? {};
          const peersUp = ["auth", "alerts", "monitors"].every((name) => checks[name] === "up");
          resolve({
            ready: response.statusCode === 200 && peersUp,
            detail: `${response.statusCode} ${text}`,
            ...(body.spool?.durability ? { spoolDurability: body.spool.durability } : {}),
          });
        } catch {
          resolve({ ready: false, detail: `${response.statusCode} ${text}` });
        }
      });
    });
    probe.on("timeout", () => probe.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    probe.on("error", (error) => resolve({ ready: false, detail: error.message }));
    probe.end();
  });
}
