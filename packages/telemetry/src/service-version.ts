import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * The version a process reports as `service.version`: PULSEGATE_VERSION when
 * set (an image built for a release), else the `version` of the nearest
 * package.json above the entry script (services/<name>/package.json).
 */
export function serviceVersion(env: NodeJS.ProcessEnv, entry: string | undefined = process.argv[1]): string {
  if (env.PULSEGATE_VERSION) return env.PULSEGATE_VERSION;
  if (!entry) return "unknown";
  for (let dir = dirname(resolve(entry)); ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      try {
        const { version } = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown };
        if (typeof version === "string" && version !== "") return version;
      } catch {
        return "unknown";
      }
    }
    if (dirname(dir) === dir) return "unknown";
  }
}

/**
 * OTEL_RESOURCE_ATTRIBUTES with `service.version` added unless it names one
 * already. The SDK reads that variable (on Kubernetes it also carries the pod
 * and namespace, from the downward API: deploy/k8s), so an explicit value wins.
 */
export function withServiceVersion(attributes: string | undefined, version: string): string {
  const current = attributes?.trim() ?? "";
  if (/(^|,)\s*service\.version\s*=/.test(current)) return current;
  const entry = `service.version=${encodeURIComponent(version)}`;
  return current === "" ? entry : `${current},${entry}`;
}
