import { describe, expect, it } from "vitest";
import { startAddresses } from "./start-addresses.ts";

describe("startAddresses", () => {
  it("listens on this machine only when the environment says nothing: the gateway and every gRPC listener", () => {
    expect(startAddresses({})).toEqual({
      host: "127.0.0.1",
      reachAt: "127.0.0.1",
      grpc: {
        AUTH_GRPC_ADDR: "127.0.0.1:50051",
        ALERTS_GRPC_ADDR: "127.0.0.1:50052",
        MONITORS_GRPC_ADDR: "127.0.0.1:50053",
        AUTH_SIGNING_GRPC_ADDR: "127.0.0.1:50054",
      },
    });
  });

  it("takes HOST and the gRPC addresses from the environment, and reaches the gateway where it listens", () => {
    const addresses = startAddresses({ HOST: "0.0.0.0", AUTH_GRPC_ADDR: "0.0.0.0:6001" });
    expect(addresses).toMatchObject({ host: "0.0.0.0", reachAt: "127.0.0.1" });
    expect(addresses.grpc).toMatchObject({ AUTH_GRPC_ADDR: "0.0.0.0:6001", ALERTS_GRPC_ADDR: "127.0.0.1:50052" });
    expect(startAddresses({ HOST: "::" }).reachAt).toBe("127.0.0.1");
    expect(startAddresses({ HOST: "192.0.2.7" }).reachAt).toBe("192.0.2.7");
    expect(startAddresses({ HOST: "::1" }).reachAt).toBe("[::1]");
  });
});
