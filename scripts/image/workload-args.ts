// A Kubernetes container spec as podman run arguments: what the smoke test needs to start a
// workload exactly as its manifest says. Pure functions; anything the manifests use that has no
// podman counterpart here is refused, so a new manifest feature cannot be skipped silently.

export type EnvVar = {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string };
    fieldRef?: { fieldPath: string };
  };
};

export type SecurityContext = {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type: string };
  fsGroup?: number;
};

export type Container = {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  securityContext?: SecurityContext;
  resources?: { limits?: { cpu?: string; memory?: string } };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
};

export type PodSpec = {
  containers: Container[];
  securityContext?: SecurityContext;
  volumes?: { name: string; emptyDir?: { sizeLimit?: string; medium?: string } }[];
  terminationGracePeriodSeconds?: number;
};

export type Resolved = { env: Record<string, string>; envFile: string };

/** The Secret named in the manifests; the smoke test plays its part. */
const SECRET_NAME = "pulsegate-secrets";

/**
 * The container's environment as the kubelet builds it: `envFrom` ConfigMaps first, then `env`
 * in order, `$(NAME)` expanded from variables defined before it.
 */
export function resolveEnv(
  container: Container,
  configMaps: Map<string, Record<string, string>>,
  secrets: Record<string, string>,
  pod: { podName: string; namespace: string },
): Resolved {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (!source.configMapRef) throw new Error(`${container.name}: envFrom other than configMapRef is not supported`);
    const data = configMaps.get(source.configMapRef.name);
    if (!data) throw new Error(`${container.name}: no ConfigMap ${source.configMapRef.name}`);
    Object.assign(env, data);
  }
  for (const variable of container.env ?? []) {
    const value = variableValue(variable, env, configMaps, secrets, pod, container.name);
    // An optional Secret key that is absent leaves the variable unset, as the kubelet does.
    if (value !== undefined) env[variable.name] = value;
  }
  for (const [name, value] of Object.entries(env)) {
    if (/[\n\r]/.test(value)) throw new Error(`${container.name}: ${name} holds a line break`);
  }
  return {
    env,
    envFile: `${Object.entries(env)
      .map(([name, value]) => `${name}=${value}`)
      .join("\n")}\n`,
  };
}

function variableValue(
  variable: EnvVar,
  defined: Record<string, string>,
  configMaps: Map<string, Record<string, string>>,
  secrets: Record<string, string>,
  pod: { podName: string; namespace: string },
  container: string,
): string | undefined {
  if (variable.value !== undefined) {
    // $(NAME) of a variable defined earlier; $$ is a literal $ (the kubelet's rules).
    return variable.value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (match, name?: string) =>
      name === undefined ? "$" : (defined[name] ?? match),
    );
  }
  const from = variable.valueFrom;
  if (from?.secretKeyRef) {
    const { name, key } = from.secretKeyRef;
    if (name !== SECRET_NAME)
      throw new Error(`${container}: ${variable.name} reads Secret ${name}, not ${SECRET_NAME}`);
    const value = secrets[key];
    if (value === undefined && !from.secretKeyRef.optional) {
      throw new Error(`${container}: ${variable.name} reads key ${key}, which the Secret lacks`);
    }
    return value;
  }
  if (from?.configMapKeyRef) {
    const value = configMaps.get(from.configMapKeyRef.name)?.[from.configMapKeyRef.key];
    if (value === undefined) throw new Error(`${container}: ${variable.name} reads a ConfigMap key that is not there`);
    return value;
  }
  if (from?.fieldRef) {
    if (from.fieldRef.fieldPath === "metadata.name") return pod.podName;
    if (from.fieldRef.fieldPath === "metadata.namespace") return pod.namespace;
    throw new Error(`${container}: ${variable.name} reads ${from.fieldRef.fieldPath}, not supported here`);
  }
  throw new Error(`${container}: ${variable.name} has no value`);
}

/** "64Mi" → "64m" (podman's units); plain bytes stay bytes. */
export function podmanSize(quantity: string): string {
  const match = /^([0-9]+)(Ki|Mi|Gi)?$/.exec(quantity);
  if (!match) throw new Error(`a size podman cannot take: ${quantity}`);
  const unit = { Ki: "k", Mi: "m", Gi: "g" }[match[2] as "Ki" | "Mi" | "Gi"] ?? "";
  return `${match[1]}${unit}`;
}

/** "500m" → "0.5", "1" → "1". */
export function podmanCpus(quantity: string): string {
  if (quantity.endsWith("m")) return String(Number(quantity.slice(0, -1)) / 1000);
  return String(Number(quantity));
}

export type RunOptions = {
  name: string;
  image: string;
  pod: PodSpec;
  container: Container;
  envFile: string;
  network: string;
  /** Names it answers to on the network (its Service's). */
  aliases: string[];
  /** name:address entries for /etc/hosts (names outside the network). */
  hosts: string[];
  detach: boolean;
};

/** `podman run …` for one container, as its manifest runs it. */
export function podmanRunArgs(options: RunOptions): string[] {
  const { pod, container } = options;
  const security = { ...pod.securityContext, ...container.securityContext };
  const args = ["run", "--name", options.name, "--network", options.network, "--env-file", options.envFile];
  if (options.detach) args.push("--detach");
  for (const alias of options.aliases) args.push("--network-alias", alias);
  for (const host of options.hosts) args.push("--add-host", host);
  if (security.runAsUser !== undefined) args.push("--user", `${security.runAsUser}:${security.runAsGroup ?? 0}`);
  if (security.fsGroup !== undefined) args.push("--group-add", String(security.fsGroup));
  if (security.readOnlyRootFilesystem) args.push("--read-only", "--read-only-tmpfs=false");
  for (const capability of security.capabilities?.drop ?? []) args.push("--cap-drop", capability);
  for (const capability of security.capabilities?.add ?? []) args.push("--cap-add", capability);
  if (security.allowPrivilegeEscalation === false) args.push("--security-opt", "no-new-privileges");
  if (security.seccompProfile && security.seccompProfile.type !== "RuntimeDefault") {
    throw new Error(`${container.name}: seccomp ${security.seccompProfile.type} is not supported here`);
  }
  for (const mount of container.volumeMounts ?? []) {
    const volume = pod.volumes?.find((v) => v.name === mount.name);
    if (!volume?.emptyDir) throw new Error(`${container.name}: volume ${mount.name} is not an emptyDir`);
    const size = volume.emptyDir.sizeLimit ? `,size=${podmanSize(volume.emptyDir.sizeLimit)}` : "";
    args.push("--tmpfs", `${mount.mountPath}:rw,mode=1777${size}`);
  }
  if (container.workingDir) args.push("--workdir", container.workingDir);
  const limits = container.resources?.limits ?? {};
  if (limits.memory) args.push("--memory", podmanSize(limits.memory));
  if (limits.cpu) args.push("--cpus", podmanCpus(limits.cpu));
  if (container.command) args.push("--entrypoint", JSON.stringify(container.command));
  args.push(options.image, ...(container.args ?? []));
  return args;
}
