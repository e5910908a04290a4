import { describe, expect, it } from "vitest";
import { OutputTail } from "../output-tail.ts";
import { shellExitCode, type WrappedOutcome } from "../run-wrapped.ts";
import { pingForOutcome } from "./run.ts";

function outcome(fields: Partial<WrappedOutcome>, output = ""): WrappedOutcome {
  const tail = new OutputTail(16);
  tail.push(Buffer.from(output));
  return { exitCode: null, signal: null, startError: null, interruptedBy: null, durationMs: 1200, tail, ...fields };
}

describe("pingForOutcome", () => {
  it("pings up on exit code 0, with the duration but not the output", () => {
    expect(pingForOutcome(outcome({ exitCode: 0 }, "fine"), "backup.sh", "nightly")).toEqual({
      status: "up",
      groupKey: "nightly",
      metadata: { command: "backup.sh", durationMs: 1200, exitCode: 0 },
    });
  });

  it("pings down with `exit code N` and the tail of the output", () => {
    const ping = pingForOutcome(outcome({ exitCode: 3 }, "0123456789 disk full\n"), "backup.sh");
    expect(ping).toMatchObject({
      status: "down",
      reason: "exit code 3",
      metadata: { exitCode: 3, signal: null, outputTail: "56789 disk full\n", outputTruncated: true },
    });
    expect(ping).not.toHaveProperty("groupKey");
  });

  it("names the signal that ended the command, or why it could not start", () => {
    expect(pingForOutcome(outcome({ signal: "SIGKILL" }), "x").reason).toBe("signal SIGKILL");
    const error = Object.assign(new Error("spawn x ENOENT"), { code: "ENOENT" });
    expect(pingForOutcome(outcome({ startError: error }), "x").reason).toBe("could not start: ENOENT");
  });

  it("names the signal this process was sent, even when the command then exited 0", () => {
    expect(pingForOutcome(outcome({ exitCode: 0, interruptedBy: "SIGTERM" }), "x")).toMatchObject({
      status: "down",
      reason: "signal SIGTERM",
      metadata: { exitCode: 0, signal: null },
    });
    expect(pingForOutcome(outcome({ signal: "SIGKILL", interruptedBy: "SIGINT" }), "x").reason).toBe("signal SIGINT");
  });
});

describe("shellExitCode", () => {
  it("exits as a shell would: the code, 128 + signal number, 127 not found, 126 not runnable", () => {
    expect(shellExitCode({ exitCode: 3, signal: null, startError: null, interruptedBy: null })).toBe(3);
    expect(shellExitCode({ exitCode: null, signal: "SIGTERM", startError: null, interruptedBy: null })).toBe(143);
    expect(
      shellExitCode({
        exitCode: null,
        signal: null,
        startError: Object.assign(new Error(), { code: "ENOENT" }),
        interruptedBy: null,
      }),
    ).toBe(127);
    expect(
      shellExitCode({
        exitCode: null,
        signal: null,
        startError: Object.assign(new Error(), { code: "EACCES" }),
        interruptedBy: null,
      }),
    ).toBe(126);
    // The signal this process was sent first wins over how the command ended.
    expect(shellExitCode({ exitCode: 0, signal: null, startError: null, interruptedBy: "SIGINT" })).toBe(130);
  });
});
