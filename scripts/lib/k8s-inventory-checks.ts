// Rules of scripts/check-k8s.sh about what a platform team finds on its first day: every object
// labelled as Pulsegate's, overlays that leave the Namespace alone, images pinned by digest,
// Ingresses with their certificate and without tokens in access logs, Redis memory that leaves
// room for an AOF rewrite, and monitoring a default kube-prometheus-stack picks up. Pure
// functions; each returns findings, none means valid.
import { type Finding, idOf, type Manifest, type Render } from "./k8s-checks.ts";
import { list, mebibytes, objectsOf, podTemplates, redisMebibytes } from "./k8s-manifest.ts";

export const PART_OF = "app.kubernetes.io/part-of";

/** Every rendered object carries app.kubernetes.io/part-of: pulsegate (select and prune by it). */
export function checkPartOf(render: Render): Finding[] {
  return objectsOf(render)
    .filter((o) => o.metadata?.labels?.[PART_OF] !== "pulsegate")
    .map((o) => ({ where: `${render.name} ${idOf(o)}`, message: `needs the label ${PART_OF}: pulsegate` }));
}

/**
 * An overlay does not own its Namespace: `kubectl delete -k` (or a prune) would delete it with
 * every Secret and volume in it, and a team without the right to create namespaces could not
 * apply. components/namespace is the opt-in.
 */
export function checkNamespaceOwnership(render: Render): Finding[] {
  if (!/(^|\/)overlays\//.test(render.name)) return [];
  return objectsOf(render)
    .filter((o) => o.kind === "Namespace")
    .map((o) => ({
      where: `${render.name} ${idOf(o)}`,
      message: "an overlay must not own its Namespace (deleting the overlay would delete it): use components/namespace",
    }));
}

/**
 * Images in production renders: a tag is required (not `latest`), and a digest pins what runs
 * (a tag can be pushed again). Without a digest it is a warning, or an error when `requireDigest`
 * (the release pipeline, once `kustomize edit set image …@sha256:…` has run).
 */
export function checkImagePins(render: Render, requireDigest: boolean): { errors: Finding[]; warnings: Finding[] } {
  const errors: Finding[] = [];
  const warnings: Finding[] = [];
  if (!/production/.test(render.name)) return { errors, warnings };
  const users = new Map<string, string[]>();
  for (const { w, t } of podTemplates(render)) {
    for (const c of [...list(t.spec?.initContainers), ...list(t.spec?.containers)]) {
      const image = String(c.image ?? "");
      users.set(image, [...(users.get(image) ?? []), idOf(w)]);
    }
  }
  for (const [image, workloads] of users) {
    const where = `${render.name} ${workloads.join(", ")}`;
    const [name = "", digest] = image.split("@");
    const tag = /:([\w][\w.-]*)$/.exec(name.slice(name.lastIndexOf("/") + 1))?.[1];
    if (!digest && (!tag || tag === "latest")) {
      errors.push({ where, message: `image ${image} has no version: pin a tag and a digest` });
    } else if (!/^sha256:[0-9a-f]{64}$/.test(digest ?? "")) {
      (requireDigest ? errors : warnings).push({
        where,
        message: `image ${image} is pinned by tag only: a digest (@sha256:…) pins what runs`,
      });
    }
  }
  return { errors, warnings };
}

const CERT_MANAGER = ["cert-manager.io/cluster-issuer", "cert-manager.io/issuer"];
const routes = (i: Manifest): string[] =>
  list(i.spec?.rules).flatMap((r) => list(r.http?.paths).map((p) => String(p.path ?? "")));

/**
 * Ingresses: one that routes the admin API or the dashboard is served over TLS for every host
 * (the dashboard signs in over HTTPS only; the admin token is a bearer credential); every TLS
 * Secret is rendered, created out of band (`external`), or issued by cert-manager; and one that
 * routes /api, where ping and trigger tokens are path segments, keeps them out of access logs:
 * ingress-nginx's `enable-access-log: "false"`, or `pulsegate/access-log: path-redacted` where
 * the controller's log format has no path (or another controller is configured so).
 */
export function checkIngresses(render: Render, external: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = [];
  const secrets = new Set(
    objectsOf(render)
      .filter((o) => o.kind === "Secret")
      .map((o) => o.metadata?.name),
  );
  for (const i of objectsOf(render).filter((o) => o.kind === "Ingress")) {
    const where = `${render.name} ${idOf(i)}`;
    const annotations = i.metadata?.annotations ?? {};
    const tlsHosts = new Set(list(i.spec?.tls).flatMap((t) => list(t.hosts)));
    if (routes(i).some((p) => p.startsWith("/admin") || p.startsWith("/dashboard") || p === "/")) {
      for (const host of list(i.spec?.rules).map((r) => r.host)) {
        if (!tlsHosts.has(host))
          findings.push({ where, message: `serves the admin API on ${host} without TLS (spec.tls for that host)` });
      }
    }
    for (const tls of list(i.spec?.tls)) {
      const name = tls.secretName;
      if (!name) findings.push({ where, message: "a tls entry names no secretName" });
      else if (!secrets.has(name) && !external.has(name) && !CERT_MANAGER.some((a) => annotations[a])) {
        findings.push({
          where,
          message: `TLS Secret ${name} is not rendered, not in EXTERNAL_SECRETS, and no cert-manager issuer is named`,
        });
      }
    }
    if (routes(i).some((p) => p === "/api" || p.startsWith("/api/"))) {
      const nginxOff = annotations["nginx.ingress.kubernetes.io/enable-access-log"] === "false";
      const redacted = annotations["pulsegate/access-log"] === "path-redacted";
      const nginx = /nginx/.test(String(i.spec?.ingressClassName ?? annotations["kubernetes.io/ingress.class"] ?? ""));
      if (!redacted && !(nginx && nginxOff)) {
        findings.push({
          where,
          message: nginx
            ? 'routes /api, whose paths hold ping and trigger tokens: annotate nginx.ingress.kubernetes.io/enable-access-log: "false", or pulsegate/access-log: path-redacted once the controller logs no path'
            : "routes /api, whose paths hold ping and trigger tokens: configure the controller to log no path and annotate pulsegate/access-log: path-redacted",
        });
      }
    }
  }
  return findings;
}

/** Of Redis's container memory limit, maxmemory may take this share: an AOF rewrite forks, and the child's copy-on-write pages count too. */
export const REDIS_MAXMEMORY_SHARE = 0.6;

/** Redis runs with a maxmemory at most REDIS_MAXMEMORY_SHARE of its container's memory limit. */
export function checkRedisMemory(render: Render): Finding[] {
  const findings: Finding[] = [];
  for (const { w, t } of podTemplates(render)) {
    for (const c of list(t.spec?.containers).filter((c) => /(^|\/)redis:/.test(c.image ?? ""))) {
      const where = `${render.name} ${idOf(w)} container ${c.name}`;
      const args = [...list(c.command), ...list(c.args)].map(String);
      const at = args.indexOf("--maxmemory");
      const maxmemory = at >= 0 ? redisMebibytes(args[at + 1]) : undefined;
      const limit = mebibytes(c.resources?.limits?.memory);
      if (maxmemory === undefined || maxmemory === 0) {
        findings.push({ where, message: "redis must set --maxmemory (with noeviction) under its memory limit" });
      } else if (limit !== undefined && maxmemory > limit * REDIS_MAXMEMORY_SHARE) {
        findings.push({
          where,
          message: `--maxmemory ${args[at + 1]} is over ${REDIS_MAXMEMORY_SHARE * 100} % of limits.memory ${c.resources.limits.memory}: an AOF rewrite's fork needs the rest`,
        });
      }
    }
  }
  return findings;
}

/**
 * Monitoring objects a default kube-prometheus-stack selects and jobs no other Service shares:
 * ServiceMonitors and PrometheusRules carry a `release` label (its selectors' default), and
 * every ServiceMonitor endpoint relabels `job` to `pulsegate-…`.
 */
export function checkMonitoringDiscovery(render: Render): Finding[] {
  const findings: Finding[] = [];
  for (const o of objectsOf(render).filter((o) => o.kind === "ServiceMonitor" || o.kind === "PrometheusRule")) {
    if (!o.metadata?.labels?.release) {
      findings.push({
        where: `${render.name} ${idOf(o)}`,
        message:
          "needs the label `release` kube-prometheus-stack's Prometheus selects by (release: kube-prometheus-stack, or your release's name)",
      });
    }
  }
  for (const m of objectsOf(render).filter((o) => o.kind === "ServiceMonitor")) {
    for (const e of list(m.spec?.endpoints)) {
      const renamed = list(e.relabelings).some(
        (r) =>
          r.targetLabel === "job" &&
          String(r.replacement ?? "").startsWith("pulsegate-") &&
          (r.action ?? "replace") === "replace",
      );
      if (!renamed) {
        findings.push({
          where: `${render.name} ${idOf(m)}`,
          message: `endpoint ${e.port} must relabel job to pulsegate-… (the rules select it; a Service's name alone is shared by other teams')`,
        });
      }
    }
  }
  return findings;
}
