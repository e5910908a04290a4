import { describe, expect, it } from "vitest";
import { type Container, type PodSpec, podmanCpus, podmanRunArgs, podmanSize, resolveEnv } from "./workload-args.ts";

const container: Container = {
  name: "gateway",
  image: "pulsegate",
  command: ["node", "--import", "@pulsegate/telemetry/register", "services/gateway/src/main.ts"],
  workingDir: "/app",
  envFrom: [{ configMapRef: { name: "shared" } }, { configMapRef: { name: "own" } }],
  env: [
    { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
    { name: "ATTRS", value: "k8s.pod.name=$(POD_NAME),cost=$$5,missing=$(NOPE)" },
    { name: "ADMIN_TOKEN", valueFrom: { secretKeyRef: { name: "pulsegate-secrets", key: "ADMIN_TOKEN" } } },
  ],
  securityContext: {
    readOnlyRootFilesystem: true,
    allowPrivilegeEscalation: false,
    capabilities: { drop: ["ALL"] },
    seccompProfile: { type: "RuntimeDefault" },
  },
  resources: { limits: { cpu: "500m", memory: "384Mi" } },
  volumeMounts: [{ name: "tmp", mountPath: "/tmp" }],
};
const pod: PodSpec = {
  containers: [container],
  securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000 },
  volumes: [{ name: "tmp", emptyDir: { sizeLimit: "64Mi" } }],
};
const configMaps = new Map<string, Record<string, string>>([
  ["shared", { LOG_LEVEL: "info", PORT: "1" }],
  ["own", { PORT: "8080" }],
]);

describe("resolveEnv", () => {
  it("builds the environment as the kubelet does: ConfigMaps in order, then env with $(VAR) expanded", () => {
    const { env, envFile } = resolveEnv(container, configMaps, { ADMIN_TOKEN: "t" }, { podName: "p", namespace: "n" });
    expect(env).toEqual({
      LOG_LEVEL: "info",
      PORT: "8080",
      POD_NAME: "p",
      ATTRS: "k8s.pod.name=p,cost=$5,missing=$(NOPE)",
      ADMIN_TOKEN: "t",
    });
    expect(envFile.split("\n")).toContain("PORT=8080");
  });

  it("refuses what it cannot give: a Secret key the Secret lacks, another Secret, a missing ConfigMap", () => {
    const pod2 = { podName: "p", namespace: "n" };
    expect(() => resolveEnv(container, configMaps, {}, pod2)).toThrow(/reads key ADMIN_TOKEN, which the Secret lacks/);
    const other = { ...container, env: [{ name: "X", valueFrom: { secretKeyRef: { name: "other", key: "k" } } }] };
    expect(() => resolveEnv(other, configMaps, {}, pod2)).toThrow(/reads Secret other/);
    expect(() => resolveEnv(container, new Map(), { ADMIN_TOKEN: "t" }, pod2)).toThrow(/no ConfigMap shared/);
  });

  it("leaves a variable unset when its optional Secret key is absent, as the kubelet does", () => {
    const pod2 = { podName: "p", namespace: "n" };
    const optional = {
      ...container,
      env: [
        {
          name: "OIDC_CLIENT_SECRET",
          valueFrom: { secretKeyRef: { name: "pulsegate-secrets", key: "OIDC_CLIENT_SECRET", optional: true } },
        },
      ],
    };
    expect(resolveEnv(optional, configMaps, {}, pod2).env).not.toHaveProperty("OIDC_CLIENT_SECRET");
    expect(resolveEnv(optional, configMaps, { OIDC_CLIENT_SECRET: "s" }, pod2).env).toMatchObject({
      OIDC_CLIENT_SECRET: "s",
    });
  });
});

describe("podmanRunArgs", () => {
  it("runs the container as its manifest says: user, read-only root, tmpfs volumes, capabilities, limits, command", () => {
    const args = podmanRunArgs({
      name: "c",
      image: "img",
      pod,
      container,
      envFile: "/e",
      network: "net",
      aliases: ["gateway"],
      hosts: ["otel:10.0.0.1"],
      detach: true,
    });
    expect(args.join(" ")).toBe(
      [
        "run --name c --network net --env-file /e --detach --network-alias gateway --add-host otel:10.0.0.1",
        "--user 1000:1000 --group-add 1000 --read-only --read-only-tmpfs=false --cap-drop ALL",
        "--security-opt no-new-privileges --tmpfs /tmp:rw,mode=1777,size=64m --workdir /app --memory 384m --cpus 0.5",
        `--entrypoint ${JSON.stringify(container.command)} img`,
      ].join(" "),
    );
  });

  it("refuses a volume or a seccomp profile it cannot reproduce", () => {
    const options = { name: "c", image: "i", envFile: "/e", network: "n", aliases: [], hosts: [], detach: false };
    const configVolume = { ...pod, volumes: [{ name: "tmp" }] };
    expect(() => podmanRunArgs({ ...options, pod: configVolume, container })).toThrow(/not an emptyDir/);
    const unconfined = { ...container, securityContext: { seccompProfile: { type: "Unconfined" } } };
    expect(() => podmanRunArgs({ ...options, pod, container: unconfined })).toThrow(/seccomp Unconfined/);
  });

  it("converts Kubernetes quantities", () => {
    expect([podmanSize("64Mi"), podmanSize("1Gi"), podmanSize("512")]).toEqual(["64m", "1g", "512"]);
    expect(() => podmanSize("1.5Gi")).toThrow(/cannot take/);
    expect([podmanCpus("500m"), podmanCpus("2")]).toEqual(["0.5", "2"]);
  });
});
