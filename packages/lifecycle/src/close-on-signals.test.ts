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
