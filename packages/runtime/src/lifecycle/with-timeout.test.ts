import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { withTimeout } from "./with-timeout.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("withTimeout", () => {
  it("answers with the work when it settles in time, and leaves no timer behind", async () => {
    await expect(withTimeout(Promise.resolve(7), 100)).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error("refused")), 100)).rejects.toThrow("refused");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects once the time is up, naming it, while the work goes on", async () => {
    let finish: (value: string) => void = () => undefined;
    const work = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const answer = withTimeout(work, 2_000);
    const outcome = answer.then(
      () => "answered",
      (error: Error) => error.message,
    );
    await vi.advanceTimersByTimeAsync(1_999);
    finish("late");
    await expect(outcome).resolves.toBe("answered");
    const slow = withTimeout(new Promise<string>(() => undefined), 2_000, "timed out after 2000 ms");
    const refused = slow.catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(refused).resolves.toBe("timed out after 2000 ms");
  });

  it("says how long it waited by default", async () => {
    const refused = withTimeout(new Promise<never>(() => undefined), 250).catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(250);
    await expect(refused).resolves.toBe("no answer within 250 ms");
  });
});
