import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const closeOnSignalsPath = JSON.stringify(resolve(import.meta.dirname, "close-on-signals.ts"));
const preamble = `
import { closeOnSignals } from ${closeOnSignalsPath};
const line = (level) => (obj, msg) =>
  process.stdout.write(JSON.stringify({ level, ...obj, ...(obj.err ? { err: obj.err.message } : {}), msg }) + "\\n");
const log = { info: line("info"), warn: line("warn"), error: line("error") };
`;
const started = `
process.stdout.write("ready\\n");
setInterval(() => undefined, 1000);
`;
// A process that drains for 1.5 s on the first signal.
const draining = `${preamble}
closeOnSignals(log, [{ name: "drain", close: () => new Promise((done) => setTimeout(done, 1500)) }], { budgetMs: 10_000 });
${started}`;
// Three steps under a 1.5 s budget: one of 0.4 s, one that never ends (a collector that never
// answers), and a last one that holds 0.3 s back and prints what it was given.
const budgeted = `${preamble}
closeOnSignals(log, [
  { name: "quick", close: () => new Promise((done) => setTimeout(done, 400)) },
  { name: "stuck", close: () => new Promise(() => undefined) },
  { name: "last", reserveMs: 300, timeoutMs: 300, close: (ms) => log.info({ given: ms }, "last step") },
], { budgetMs: 1_500 });
${started}`;
async function run(script: string, signals: number): Promise<{ code: number | null; output: string; ms: number }> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.once("close", done));
  /** Until the child has printed `text`: each signal is sent once the one before was handled. */
  const printed = (text: string) =>
    new Promise<void>((done, fail) => {
      const check = () => {
        if (!output.includes(text)) return;
        child.stdout.off("data", check);
        child.off("close", gone);
        done();
      };
      const gone = () => fail(new Error(`exited before printing "${text}":\n${output}`));
      child.stdout.on("data", check);
      child.once("close", gone);
      check();
    });
  await printed("ready");
  const started = Date.now();
  const handled = ['"msg":"shutting down"', "signal ignored while in-flight work drains"];
  for (let index = 0; index < signals; index++) {
    child.kill("SIGTERM");
    if (index < signals - 1) await printed(handled[index] ?? "");
  }
  const code = await exited;
  return { code, output, ms: Date.now() - started };
}

describe("closeOnSignals", () => {
  it("drains to the end when a second signal arrives during the drain (logged, ignored)", async () => {
    const { code, output, ms } = await run(draining, 2);
    expect(code).toBe(0);
    expect(output).toContain('"closer":"drain","msg":"closed"');
    expect(output).toContain("signal ignored while in-flight work drains");
    expect(ms).toBeGreaterThanOrEqual(1_400);
  });

  it("exits 1 at once on a third signal", async () => {
    const { code, output, ms } = await run(draining, 3);
    expect(code).toBe(1);
    expect(output).toContain("forced exit");
    expect(output).not.toContain('"msg":"closed"');
    expect(ms).toBeLessThan(1_400);
  });

  it("shares one budget: each step gets what is left, a stuck one is abandoned, the last keeps its reserve", async () => {
    const { code, output, ms } = await run(budgeted, 1);
    expect(code).toBe(0);
    expect(output).toContain('"closer":"quick","msg":"closed"');
    // 1.5 s, less the quick step's 0.4 s, less the 0.3 s the last one holds back.
    expect(output).toMatch(/"closer":"stuck".*timed out after (7\d\d|800) ms \(shutdown budget 1500 ms\)/);
    const given = Number(/"given":(\d+)/.exec(output)?.[1]);
    expect(given).toBeGreaterThan(200);
    expect(given).toBeLessThanOrEqual(300);
    expect(ms).toBeGreaterThanOrEqual(1_100);
    expect(ms).toBeLessThan(2_500);
  });
});
