import { describe, expect, it } from "vitest";
import { replicaAddresses, replicasFrom, startAddresses } from "./start-addresses.ts";

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

describe("replicaAddresses", () => {
  const grpc = startAddresses({}).grpc;

  it("one replica: listens and dials the addresses as given", () => {
    const one = replicaAddresses(grpc, 1);
    expect(one.listen(0)).toEqual(grpc);
    expect(one.dial).toEqual(grpc);
  });

  it("N replicas: replica i listens 10·i ports up, and every client dials the list of all of them", () => {
    const three = replicaAddresses(grpc, 3);
    expect(three.listen(2)).toEqual({
      AUTH_GRPC_ADDR: "127.0.0.1:50071",
      ALERTS_GRPC_ADDR: "127.0.0.1:50072",
      MONITORS_GRPC_ADDR: "127.0.0.1:50073",
      AUTH_SIGNING_GRPC_ADDR: "127.0.0.1:50074",
    });
    expect(three.dial.ALERTS_GRPC_ADDR).toBe("ipv4:127.0.0.1:50052,127.0.0.1:50062,127.0.0.1:50072");
    expect(three.dial.AUTH_SIGNING_GRPC_ADDR).toBe("ipv4:127.0.0.1:50054,127.0.0.1:50064,127.0.0.1:50074");
  });

  it("refuses what an ipv4: list cannot name, and ports past 65535", () => {
    expect(() => replicaAddresses({ ...grpc, AUTH_GRPC_ADDR: "auth.local:50051" }, 2)).toThrow(/IPv4/);
    expect(() => replicaAddresses({ ...grpc, MONITORS_GRPC_ADDR: "127.0.0.1:65530" }, 2)).toThrow(/no port/);
  });
});

describe("replicasFrom", () => {
  it("reads --replicas N and --replicas=N, 1 without it", () => {
    expect(replicasFrom([])).toEqual({ replicas: 1 });
    expect(replicasFrom(["--embedded", "--replicas", "2"])).toEqual({ replicas: 2 });
    expect(replicasFrom(["--replicas=8"])).toEqual({ replicas: 8 });
  });

  it("says what it takes for anything else", () => {
    for (const args of [
      ["--replicas"],
      ["--replicas", "0"],
      ["--replicas=9"],
      ["--replicas", "two"],
      ["--replicas=1.5"],
    ]) {
      expect(replicasFrom(args)).toEqual({ error: expect.stringMatching(/whole number from 1 to 8/) });
    }
  });
});
