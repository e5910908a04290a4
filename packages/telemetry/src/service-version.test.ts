import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { serviceVersion, withServiceVersion } from "./service-version.ts";

describe("service.version", () => {
  it("is PULSEGATE_VERSION, else the version of the entry script's package", () => {
    expect(serviceVersion({ PULSEGATE_VERSION: "1.4.2" })).toBe("1.4.2");
    const entry = resolve(import.meta.dirname, "../../../services/alerts/src/main.ts");
    expect(serviceVersion({}, entry)).toMatch(/^\d+\.\d+\.\d+/);
    expect(serviceVersion({}, "/nowhere/main.ts")).toBe("unknown");
  });

  it("is added to OTEL_RESOURCE_ATTRIBUTES unless it names one (Kubernetes' pod and namespace stay)", () => {
    expect(withServiceVersion(undefined, "0.1.0")).toBe("service.version=0.1.0");
    expect(withServiceVersion("k8s.pod.name=gw-1,k8s.namespace.name=pulsegate", "0.1.0")).toBe(
      "k8s.pod.name=gw-1,k8s.namespace.name=pulsegate,service.version=0.1.0",
    );
    expect(withServiceVersion("service.version=9.9.9,k8s.pod.name=x", "0.1.0")).toBe(
      "service.version=9.9.9,k8s.pod.name=x",
    );
  });
});
