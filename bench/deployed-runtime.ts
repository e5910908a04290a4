// What the production overlay gives each service's container: its NODE_OPTIONS (heap sizes) and memory limit,
// read from the rendered manifests (`kubectl kustomize deploy/k8s/overlays/production`), so the soak runs the
// processes with the heap the cluster would give them and holds their resident memory to the limit.
import { execFileSync } from "node:child_process";
import { parseAllDocuments } from "yaml";

export type DeployedRuntime = { nodeOptions: string | undefined; memoryLimitMiB: number | undefined };

type Container = {
  name: string;
  env?: { name: string; value?: string }[];
  resources?: { limits?: { memory?: string } };
};
type Manifest = {
  kind?: string;
  metadata?: { name?: string };
  spec?: { template?: { spec?: { containers?: Container[] } } };
};

const UNITS: Record<string, number> = {
  Ki: 1 / 1024,
  Mi: 1,
  Gi: 1024,
  K: 1000 / 2 ** 20,
  M: 1e6 / 2 ** 20,
  G: 1e9 / 2 ** 20,
};

export function mebibytes(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)([KMG]i?)?$/.exec(quantity);
  if (!match) throw new Error(`unreadable memory quantity ${quantity}`);
  return Number(match[1]) * (match[2] ? (UNITS[match[2]] ?? Number.NaN) : 1 / 2 ** 20);
}

/** Each Deployment's first container, by Deployment name; undefined when kubectl is not installed. */
export function deployedRuntime(overlay = "deploy/k8s/overlays/production"): Map<string, DeployedRuntime> | undefined {
  let rendered: string;
  try {
    rendered = execFileSync(process.env.KUBECTL ?? "kubectl", ["kustomize", overlay], { encoding: "utf8" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const runtimes = new Map<string, DeployedRuntime>();
  for (const document of parseAllDocuments(rendered)) {
    const manifest = document.toJS() as Manifest;
    const container = manifest.spec?.template?.spec?.containers?.[0];
    if (manifest.kind !== "Deployment" || !manifest.metadata?.name || !container) continue;
    const limit = container.resources?.limits?.memory;
    runtimes.set(manifest.metadata.name, {
      nodeOptions: container.env?.find((variable) => variable.name === "NODE_OPTIONS")?.value,
      memoryLimitMiB: limit === undefined ? undefined : mebibytes(limit),
    });
  }
  return runtimes;
}
