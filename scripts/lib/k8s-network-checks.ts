// Rules of scripts/check-k8s.sh about who reaches what: egress NetworkPolicies for Pulsegate's
// pods (the calls the ingress policies admit, DNS, public addresses only for the internet), the
// gateway's HTTP port admitting the ingress controller's namespace only, Redis behind a password,
// and the proxies the gateway believes. Pure functions; each returns findings, none means valid.
import { type Finding, idOf, type Manifest, type Render } from "./k8s-checks.ts";
import { containerEnv, list, literal, objectsOf, podTemplates } from "./k8s-manifest.ts";

/** Pulsegate's own workloads (`app` labels), whose egress production restricts. */
export const PULSEGATE_APPS = ["gateway", "auth", "alerts", "monitors", "migrate"];

const selects = (selector: Manifest, labels: Manifest): boolean =>
  Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels?.[k] === v) &&
  list(selector?.matchExpressions).every((e) =>
    e.operator === "In"
      ? list(e.values).includes(labels?.[e.key])
      : e.operator === "NotIn"
        ? !list(e.values).includes(labels?.[e.key])
        : e.operator === "Exists"
          ? labels?.[e.key] !== undefined
          : labels?.[e.key] === undefined,
  );
const policyTypes = (np: Manifest): string[] =>
  list(np.spec?.policyTypes).length ? list(np.spec.policyTypes) : np.spec?.egress ? ["Ingress", "Egress"] : ["Ingress"];

// ---- IPv4 ranges --------------------------------------------------------------------------------
const v4 = (cidr: string): [number, number] | undefined => {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)(?:\/(\d+))?$/.exec(cidr);
  if (!m) return undefined;
  const start = m.slice(1, 5).reduce((n, octet) => n * 256 + Number(octet), 0);
  const bits = Number(m[5] ?? 32);
  const size = 2 ** (32 - bits);
  return [start - (start % size), start - (start % size) + size - 1];
};
const within = (inner: string, outer: string): boolean => {
  const a = v4(inner);
  const b = v4(outer);
  return !!a && !!b && b[0] <= a[0] && a[1] <= b[1];
};
/** What a rule to "the internet" must leave out: private, shared, loopback, "this network" and link-local (cloud metadata). */
export const NOT_INTERNET_V4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.168.0.0/16",
];
/** IPv6 ranges that are never the internet: unique-local, link-local (and loopback, mapped IPv4). */
const NOT_INTERNET_V6 = ["fc00::/7", "fe80::/10"];
/** Where a gateway's proxies may be: the pod ranges of the common platforms. */
const PROXY_RANGES_V4 = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "127.0.0.0/8"];

/** Ports of a policy rule that take `port` (a number or a container port name). */
const takesPort = (rule: Manifest, port: number, name?: string, protocol = "TCP"): boolean =>
  !list(rule.ports).length ||
  list(rule.ports).some(
    (p) =>
      (p.protocol ?? "TCP") === protocol &&
      (p.port === undefined ||
        p.port === port ||
        (name !== undefined && p.port === name) ||
        (p.endPort !== undefined && p.port <= port && port <= p.endPort)),
  );

/**
 * Egress: in a production render, every Pulsegate pod is selected by an Egress policy; a
 * restricted pod may still reach DNS (53 UDP and TCP) and every call an ingress policy admits
 * from it; and a rule to the whole IPv4 (or IPv6) internet excepts the private, shared, loopback
 * and link-local ranges (169.254.169.254 is the cloud metadata endpoint), and no rule lets a
 * Pulsegate pod reach everything.
 */
export function checkEgress(render: Render): Finding[] {
  const findings: Finding[] = [];
  const policies = objectsOf(render).filter((o) => o.kind === "NetworkPolicy");
  const egressPolicies = policies.filter((np) => policyTypes(np).includes("Egress"));
  const pods = podTemplates(render).filter(({ t }) => PULSEGATE_APPS.includes(t.metadata?.labels?.app));
  const restricted = (labels: Manifest) => egressPolicies.filter((np) => selects(np.spec?.podSelector, labels));

  for (const np of egressPolicies) {
    const where = `${render.name} ${idOf(np)}`;
    const pulsegate = pods.some(({ t }) => selects(np.spec?.podSelector, t.metadata?.labels));
    for (const rule of list(np.spec?.egress)) {
      if (pulsegate && !list(rule.to).length && !list(rule.ports).length) {
        findings.push({ where, message: "an egress rule without `to` or `ports` lets the pods reach everything" });
      }
      for (const peer of list(rule.to)) {
        const block = peer.ipBlock;
        if (!block) continue;
        const except = list(block.except).map(String);
        if (block.cidr === "0.0.0.0/0") {
          const open = NOT_INTERNET_V4.filter((range) => !except.some((e) => within(range, e)));
          if (open.length)
            findings.push({ where, message: `0.0.0.0/0 must except ${open.join(", ")} (not the internet)` });
        } else if (block.cidr === "::/0") {
          const open = NOT_INTERNET_V6.filter((range) => !except.includes(range));
          if (open.length)
            findings.push({
              where,
              message: `::/0 must except ${open.join(", ")} (or allow 2000::/3, global unicast, only)`,
            });
        }
      }
    }
  }

  if (/production/.test(render.name)) {
    for (const { w } of pods.filter(({ t }) => !restricted(t.metadata?.labels).length)) {
      findings.push({
        where: `${render.name} ${idOf(w)}`,
        message: "no Egress NetworkPolicy selects its pods (production includes components/egress-policies)",
      });
    }
  }

  for (const { w, t } of pods) {
    const mine = restricted(t.metadata?.labels);
    if (!mine.length) continue;
    const rules = mine.flatMap((np) => list(np.spec?.egress));
    for (const protocol of ["UDP", "TCP"]) {
      if (!rules.some((rule) => takesPort(rule, 53, undefined, protocol))) {
        findings.push({
          where: `${render.name} ${idOf(w)}`,
          message: `its egress policies do not allow DNS (53/${protocol})`,
        });
      }
    }
    // Every call an ingress policy admits from these pods, to pods of the same namespace.
    for (const np of policies.filter((np) => policyTypes(np).includes("Ingress"))) {
      const targets = podTemplates(render).filter(({ t: target }) =>
        selects(np.spec?.podSelector, target.metadata?.labels),
      );
      for (const rule of list(np.spec?.ingress)) {
        const fromHere = list(rule.from).some(
          (peer) => peer.podSelector && !peer.namespaceSelector && selects(peer.podSelector, t.metadata?.labels),
        );
        if (!fromHere) continue;
        for (const { t: target } of targets) {
          for (const p of list(rule.ports).length ? list(rule.ports) : [{}]) {
            const port = typeof p.port === "number" ? p.port : undefined;
            const allowed = rules.some(
              (egress) =>
                (port === undefined
                  ? !list(egress.ports).length
                  : takesPort(egress, port, undefined, p.protocol ?? "TCP")) &&
                (!list(egress.to).length ||
                  list(egress.to).some(
                    (peer) =>
                      peer.podSelector && !peer.namespaceSelector && selects(peer.podSelector, target.metadata?.labels),
                  )),
            );
            if (!allowed) {
              findings.push({
                where: `${render.name} ${idOf(w)}`,
                message: `${idOf(np)} admits it to ${target.metadata?.labels?.app ?? "?"}:${port ?? "any port"}, but its egress policies do not let it connect`,
              });
            }
          }
        }
      }
    }
  }
  return findings;
}

/**
 * The gateway's HTTP port admits only namespaces a selector names (the ingress controller's), not
 * every pod or address: where policies are enforced, nothing else can then forge X-Forwarded-For.
 */
export function checkGatewayIngress(render: Render): Finding[] {
  const findings: Finding[] = [];
  const gateway = podTemplates(render).find(({ t }) => t.metadata?.labels?.app === "gateway")?.t;
  const http = list(gateway?.spec?.containers)
    .flatMap((c) => list(c.ports))
    .find((p) => p.name === "http");
  if (!gateway || !http) return findings;
  const policies = objectsOf(render).filter(
    (o) =>
      o.kind === "NetworkPolicy" &&
      policyTypes(o).includes("Ingress") &&
      selects(o.spec?.podSelector, gateway.metadata?.labels),
  );
  for (const np of policies) {
    for (const rule of list(np.spec?.ingress)) {
      if (!takesPort(rule, http.containerPort, "http")) continue;
      const onlyNamespaces =
        list(rule.from).length > 0 &&
        list(rule.from).every(
          (peer) =>
            peer.namespaceSelector &&
            (Object.keys(peer.namespaceSelector.matchLabels ?? {}).length > 0 ||
              list(peer.namespaceSelector.matchExpressions).length > 0) &&
            !peer.ipBlock,
        );
      if (!onlyNamespaces) {
        findings.push({
          where: `${render.name} ${idOf(np)}`,
          message: `admits the gateway's port ${http.containerPort} from more than the ingress controller's namespace (a namespaceSelector with labels)`,
        });
      }
    }
  }
  return findings;
}

/**
 * Redis asks for a password from a Secret (`--requirepass $(VAR)`, VAR a secretKeyRef), so a
 * cluster whose network plugin ignores NetworkPolicy does not leave it open; where the render
 * also holds that Secret and REDIS_URL, the URL carries the same password.
 */
export function checkRedisPassword(render: Render): Finding[] {
  const findings: Finding[] = [];
  const secrets = objectsOf(render).filter((o) => o.kind === "Secret");
  const secretValue = (name: string, key: string): string | undefined => {
    const secret = secrets.find((s) => s.metadata?.name === name);
    if (secret?.stringData?.[key] !== undefined) return String(secret.stringData[key]);
    const data = secret?.data?.[key];
    return data === undefined ? undefined : Buffer.from(String(data).replace(/\s/g, ""), "base64").toString("utf8");
  };
  for (const { w, t } of podTemplates(render)) {
    for (const c of list(t.spec?.containers).filter((c) => /(^|\/)redis:/.test(c.image ?? ""))) {
      const where = `${render.name} ${idOf(w)} container ${c.name}`;
      const args = [...list(c.command), ...list(c.args)].map(String);
      const at = args.indexOf("--requirepass");
      const variable = at >= 0 ? /^\$\((\w+)\)$/.exec(args[at + 1] ?? "")?.[1] : undefined;
      const from = variable ? containerEnv(render, c).get(variable) : undefined;
      if (!from || !("secret" in from)) {
        findings.push({
          where,
          message: "redis must require a password from a Secret (--requirepass $(VAR), VAR a secretKeyRef)",
        });
        continue;
      }
      const password = secretValue(from.secret, from.key);
      if (password === undefined) continue; // created out of band
      for (const secret of secrets) {
        const url = secretValue(secret.metadata?.name, "REDIS_URL");
        if (url === undefined || !/^rediss?:\/\/([^@/]*@)?redis[:/]/.test(url)) continue;
        const given = /^rediss?:\/\/(?:[^:@/]*):([^@/]*)@/.exec(url)?.[1];
        if (given === undefined || decodeURIComponent(given) !== password) {
          findings.push({
            where: `${render.name} ${idOf(secret)}`,
            message: `REDIS_URL does not carry the password of Secret ${from.secret} (redis://:PASSWORD@redis:6379/0)`,
          });
        }
      }
    }
  }
  return findings;
}

/**
 * TRUST_PROXY names proxies, never every hop: not `true`, and each entry an address or range
 * within the private, shared (100.64/10), loopback or IPv6 unique-local space where ingress
 * controllers' pods run. A public range would let any client there forge X-Forwarded-*.
 */
export function checkTrustProxy(render: Render): Finding[] {
  const findings: Finding[] = [];
  for (const { w, t } of podTemplates(render)) {
    for (const c of list(t.spec?.containers)) {
      const value = literal(containerEnv(render, c), "TRUST_PROXY");
      if (value === undefined) continue;
      const where = `${render.name} ${idOf(w)} container ${c.name}`;
      if (value.trim() === "true") {
        findings.push({
          where,
          message: "TRUST_PROXY=true believes X-Forwarded-* from anyone: list the proxies' ranges",
        });
        continue;
      }
      for (const entry of value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)) {
        const ok = entry.includes(":")
          ? /^f[cd][0-9a-f]{0,2}:/i.test(entry) || entry === "fc00::/7" || entry === "::1" || entry === "::1/128"
          : PROXY_RANGES_V4.some((range) => within(entry, range));
        if (!ok)
          findings.push({
            where,
            message: `TRUST_PROXY entry ${entry} is not a private, shared, loopback or unique-local range`,
          });
      }
    }
  }
  return findings;
}
