// Reading rendered manifests for the rules of scripts/check-k8s.sh: pod templates, a container's
// environment as the kubelet builds it, Kubernetes quantities. Pure functions over parsed YAML,
// read defensively (see Manifest in k8s-checks.ts).
import type { Manifest, Render } from "./k8s-checks.ts";

/** A list from a field that may be absent. */
export const list = (value: Manifest): Manifest[] => (Array.isArray(value) ? value : []);

/** The render's objects (documents that are objects). */
export const objectsOf = (render: Render): Manifest[] => render.objects.filter((o) => o && typeof o === "object");

/** Every workload with its pod template. */
export function podTemplates(render: Render): { w: Manifest; t: Manifest }[] {
  return objectsOf(render)
    .filter((o) => ["Deployment", "Job", "StatefulSet", "DaemonSet"].includes(o.kind))
    .map((w) => ({ w, t: w.spec?.template ?? {} }));
}

/** What a variable holds: a literal, or a key of a Secret (read at run time, never here). */
export type EnvValue = { value: string } | { secret: string; key: string } | { unknown: true };

/**
 * A container's environment as the kubelet builds it: `envFrom` ConfigMaps first, then `env` in
 * order (a later definition wins). ConfigMaps not in the render leave their variables out.
 */
export function containerEnv(render: Render, container: Manifest): Map<string, EnvValue> {
  const configMaps = new Map(
    objectsOf(render)
      .filter((o) => o.kind === "ConfigMap")
      .map((o) => [o.metadata?.name, o.data ?? {}]),
  );
  const env = new Map<string, EnvValue>();
  for (const source of list(container?.envFrom)) {
    const data = configMaps.get(source.configMapRef?.name);
    if (data) for (const [name, value] of Object.entries(data)) env.set(name, { value: String(value) });
  }
  for (const variable of list(container?.env)) {
    const from = variable.valueFrom;
    if (variable.value !== undefined) env.set(variable.name, { value: String(variable.value) });
    else if (from?.secretKeyRef) env.set(variable.name, { secret: from.secretKeyRef.name, key: from.secretKeyRef.key });
    else if (from?.configMapKeyRef) {
      const value = configMaps.get(from.configMapKeyRef.name)?.[from.configMapKeyRef.key];
      env.set(variable.name, value === undefined ? { unknown: true } : { value: String(value) });
    } else env.set(variable.name, { unknown: true });
  }
  return env;
}

/** The literal value of a variable, if it has one. */
export const literal = (env: Map<string, EnvValue>, name: string): string | undefined => {
  const found = env.get(name);
  return found && "value" in found ? found.value : undefined;
};

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
const DECIMAL: Record<string, number> = { k: 1e3, M: 1e6, G: 1e9, T: 1e12 };

/** A memory quantity ("384Mi", "1Gi", "500M", "1048576") in MiB, or undefined if unreadable. */
export function mebibytes(quantity: unknown): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(quantity ?? ""));
  if (!match) return undefined;
  const unit = match[2] ?? "";
  const factor = BINARY[unit] ?? DECIMAL[unit] ?? 1;
  return (Number(match[1]) * factor) / 2 ** 20;
}

/** A Redis memory size ("384mb", "1gb", "256m", "100000") in MiB: Redis reads k/m/g as 1000s, kb/mb/gb as 1024s. */
export function redisMebibytes(size: unknown): number | undefined {
  const match = /^(\d+)(k|kb|m|mb|g|gb)?$/i.exec(String(size ?? ""));
  if (!match) return undefined;
  const factors: Record<string, number> = { k: 1e3, kb: 2 ** 10, m: 1e6, mb: 2 ** 20, g: 1e9, gb: 2 ** 30 };
  return (Number(match[1]) * (factors[(match[2] ?? "").toLowerCase()] ?? 1)) / 2 ** 20;
}
