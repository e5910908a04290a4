import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

// A process that drains for 1.5 s on the first signal.
const script = `
import { closeOnSignals } from ${JSON.stringify(resolve(import.meta.dirname, "close-on-signals.ts"))};
const line = (level) => (obj, msg) => process.stdout.write(JSON.stringify({ level, ...obj, msg }) + "\\n");
closeOnSignals({ info: line("info"), warn: line("warn"), error: line("error") }, [
  { name: "drain", close: () => new Promise((done) => setTimeout(done, 1500)) },
]);
process.stdout.write("ready\\n");
setInterval(() => undefined, 1000);
`;

async function run(signals: number): Promise<{ code: number | null; output: string; ms: number }> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.once("close", done));
  while (!output.includes("ready")) await new Promise((done) => setTimeout(done, 20));
  const started = Date.now();
  for (let index = 0; index < signals; index++) {
    child.kill("SIGTERM");
    await new Promise((done) => setTimeout(done, 150));
  }
  const code = await exited;
  return { code, output, ms: Date.now() - started };
}

describe("closeOnSignals", () => {
  it("drains to the end when a second signal arrives during the drain (logged, ignored)", async () => {
    const { code, output, ms } = await run(2);
    expect(code).toBe(0);
    expect(output).toContain('"closer":"drain","msg":"closed"');
    expect(output).toContain("signal ignored while in-flight work drains");
    expect(ms).toBeGreaterThanOrEqual(1_400);
  });

  it("exits 1 at once on a third signal", async () => {
    const { code, output, ms } = await run(3);
    expect(code).toBe(1);
    expect(output).toContain("forced exit");
    expect(output).not.toContain('"msg":"closed"');
    expect(ms).toBeLessThan(1_400);
  });
});
