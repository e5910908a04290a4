import { describe, expect, it } from "vitest";
import { durabilityOf, durabilityWarning } from "./spool-durability.ts";

describe("durabilityOf", () => {
  it("is durable only with AOF fsynced on every write", () => {
    expect(durabilityOf({ appendonly: "yes", appendfsync: "always" })).toBe("durable");
    expect(durabilityOf({ appendonly: "yes", appendfsync: "everysec" })).toBe("aof_not_fsynced");
    expect(durabilityOf({ appendonly: "yes", appendfsync: "no" })).toBe("aof_not_fsynced");
    expect(durabilityOf({ appendonly: "no", appendfsync: "always" })).toBe("not_durable");
    expect(durabilityOf(null)).toBe("unknown");
  });

  it("warns about every spool that can lose acknowledged pings, and about nothing else", () => {
    const status = (durability: ReturnType<typeof durabilityOf>, appendfsync = "everysec") => ({
      durability,
      appendonly: "yes",
      appendfsync,
      depth: 0,
      spooling: false,
    });
    expect(durabilityWarning(status("not_durable"))).toMatch(/NOT durable/);
    expect(durabilityWarning(status("aof_not_fsynced"))).toMatch(/once a second/);
    expect(durabilityWarning(status("unknown"))).toMatch(/does not report/);
    expect(durabilityWarning(status("durable", "always"))).toBeNull();
    expect(durabilityWarning(status("none"))).toBeNull();
  });
});
