// `node scripts/check-k8s.ts NAME=FILE...`: validates manifests that scripts/check-k8s.sh has
// rendered with `kubectl kustomize` (one NAME=FILE pair per render): schema (kubernetes-models),
// strict fields (tsc over a generated program) and policy (scripts/lib/k8s-checks.ts). Prints
// findings; exit status 1 on any.
// Environment: CHECK_K8S_WORK, a directory inside node_modules for the generated program (so
// that it resolves kubernetes-models like any project file); EXTERNAL_SECRETS; RENDER_FAILURES,
// how many kustomizations failed to render, for the closing line.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseAllDocuments } from "yaml";
import {
  checkIdentity,
  checkOrderedApply,
  checkPolicy,
  type Finding,
  idOf,
  type Manifest,
  modelModule,
  type Render,
  strictFindings,
  strictProgram,
} from "./lib/k8s-checks.ts";
import {
  checkImagePins,
  checkIngresses,
  checkMonitoringDiscovery,
  checkNamespaceOwnership,
  checkPartOf,
  checkRedisMemory,
} from "./lib/k8s-inventory-checks.ts";
import { checkEgress, checkGatewayIngress, checkRedisPassword, checkTrustProxy } from "./lib/k8s-network-checks.ts";
import {
  checkConnectionBudget,
  checkHeap,
  checkMigrationJobs,
  checkQuickStartDeletesJob,
  checkShutdownBudget,
  DEFAULT_MAX_CONNECTIONS,
} from "./lib/k8s-rollout-checks.ts";

type Model = new (data: Manifest) => { validate(): void };

const root = resolve(import.meta.dirname, "..");
const work = process.env.CHECK_K8S_WORK;
if (!work) throw new Error("CHECK_K8S_WORK is not set (run scripts/check-k8s.sh)");
const maxConnections = Number(process.env.PG_MAX_CONNECTIONS ?? DEFAULT_MAX_CONNECTIONS);
const requireDigest = process.env.REQUIRE_DIGEST === "1";
const external = new Set(
  (
    process.env.EXTERNAL_SECRETS ??
    "pulsegate-secrets pulsegate-db-app redis-credentials pulsegate-tls pulsegate-admin-tls"
  )
    .split(/\s+/)
    .filter(Boolean),
);
let errorCount = 0;
const failedRenders = new Set<string>();
const report = (findings: Finding[]) => {
  for (const { where, message } of findings) {
    errorCount++;
    failedRenders.add(where.split(" ")[0] ?? where);
    console.log(`  ERROR ${where}: ${message}`);
  }
};

// ---- load ------------------------------------------------------------------
const renders: Render[] = [];
for (const arg of process.argv.slice(2)) {
  const at = arg.indexOf("=");
  const name = arg.slice(0, at);
  const file = arg.slice(at + 1);
  const text = readFileSync(file, "utf8");
  const objects: Manifest[] = [];
  for (const [index, doc] of parseAllDocuments(text).entries()) {
    report(
      [...doc.errors, ...doc.warnings].map((problem) => ({
        where: `${name} document ${index}`,
        message: `YAML: ${problem.message}`,
      })),
    );
    const value = doc.toJS();
    if (value === null || value === undefined) continue;
    objects.push(value);
  }
  renders.push({ name, objects });
}

// ---- 1. schema -------------------------------------------------------------
const modelled = new WeakSet<object>(); // objects with a schema, for the strict check
const modelCache = new Map<string, Model | undefined>();
async function modelFor(apiVersion: string, kind: string): Promise<Model | undefined> {
  const key = `${apiVersion}/${kind}`;
  if (!modelCache.has(key)) {
    let model: Model | undefined;
    try {
      model = (await import(modelModule(apiVersion, kind)))[kind];
    } catch {
      model = undefined;
    }
    modelCache.set(key, model);
  }
  return modelCache.get(key);
}

for (const render of renders) {
  for (const o of render.objects) {
    const identity = checkIdentity(render.name, o);
    report(identity.findings);
    if (!identity.schema) continue;
    const where = `${render.name} ${idOf(o)}`;
    const Model = await modelFor(o.apiVersion, o.kind);
    if (!Model) {
      report([{ where, message: `no schema for ${o.apiVersion} ${o.kind} (unknown or removed API)` }]);
      continue;
    }
    modelled.add(o);
    // kustomize wraps long base64 values over lines; the API server's base64
    // decoder skips line breaks, so the schema's "byte" format must too.
    if (o.kind === "Secret" && o.data && typeof o.data === "object") {
      for (const [k, v] of Object.entries(o.data)) if (typeof v === "string") o.data[k] = v.replace(/[\r\n]/g, "");
    }
    try {
      new Model(o).validate();
    } catch (e) {
      const errors: { instancePath?: string; message?: string; params?: object }[] = (e as { errors?: [] }).errors ?? [
        { instancePath: "", message: (e as Error).message },
      ];
      for (const err of errors) {
        const params = err.params && Object.keys(err.params).length ? ` ${JSON.stringify(err.params)}` : "";
        report([{ where, message: `schema: ${err.instancePath || "/"} ${err.message}${params}` }]);
      }
    }
  }
}

// ---- 2. strict (unknown fields) -------------------------------------------
{
  const program = strictProgram(renders, (o) => modelled.has(o));
  writeFileSync(join(work, "objects.ts"), program.source);
  writeFileSync(
    join(work, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: "es2022",
        module: "nodenext",
        moduleResolution: "nodenext",
        types: [],
      },
      files: ["objects.ts"],
    }),
  );
  let output = "";
  try {
    execFileSync(
      process.execPath,
      [join(root, "node_modules/typescript/bin/tsc"), "-p", join(work, "tsconfig.json"), "--pretty", "false"],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 },
    );
  } catch (e) {
    const failure = e as { stdout?: string; stderr?: string; message: string };
    output = `${failure.stdout ?? ""}${failure.stderr ?? ""}`;
    if (!output.trim()) output = `objects.ts(1,1): error tsc: ${failure.message}`;
  }
  report(strictFindings(output, program.origin));
}

// ---- 3. policy -------------------------------------------------------------
for (const render of renders) {
  const { findings, externalUsed } = checkPolicy(render, external);
  report(findings);
  const all = render.objects.filter((o) => o && typeof o === "object");
  const kinds: Record<string, number> = {};
  for (const o of all) kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
  console.log(
    `checked ${render.name}: ${all.length} objects (${Object.entries(kinds)
      .sort()
      .map(([k, c]) => `${c} ${k}`)
      .join(", ")})`,
  );
  const rendered = new Set(all.filter((o) => o.kind === "Secret").map((o) => o.metadata?.name));
  for (const i of all.filter((o) => o.kind === "Ingress"))
    for (const tls of i.spec?.tls ?? [])
      if (!rendered.has(tls.secretName) && external.has(tls.secretName)) externalUsed.add(tls.secretName);
  if (externalUsed.size)
    console.log(`  note: expects existing Secret(s) in the cluster: ${[...externalUsed].sort().join(", ")}`);
  // What a real cluster trips on: rollouts, capacity, network, inventory.
  const budget = checkConnectionBudget(render, maxConnections);
  report([
    ...checkMigrationJobs(render),
    ...budget.findings,
    ...checkHeap(render),
    ...checkShutdownBudget(render),
    ...checkEgress(render),
    ...checkGatewayIngress(render),
    ...checkRedisPassword(render),
    ...checkTrustProxy(render),
    ...checkPartOf(render),
    ...checkNamespaceOwnership(render),
    ...checkIngresses(render, external),
    ...checkRedisMemory(render),
    ...checkMonitoringDiscovery(render),
  ]);
  if (budget.terms.length)
    console.log(
      `  PostgreSQL connections at most: ${budget.terms.join(" + ")} = ${budget.total} (budget ${budget.budget})`,
    );
  const images = checkImagePins(render, requireDigest);
  report(images.errors);
  for (const { where, message } of images.warnings) console.log(`  WARN ${where}: ${message}`);
}

// ---- 4. the quick start's ordered apply ----------------------------------------------------
// The selector of deploy/k8s/README.md's first `kubectl apply -f … -l '…'`, held to the production render.
const quickStart = readFileSync(join(root, "deploy/k8s/README.md"), "utf8");
const selector = /kubectl apply -f pulsegate\.yaml -l '([^']+)'/.exec(quickStart)?.[1];
const production = renders.find((r) => r.name === "overlays/production");
if (!selector)
  report([{ where: "deploy/k8s/README.md", message: "the quick start's first apply (-l '…') is missing" }]);
else if (production) report(checkOrderedApply(production, selector));
report(checkQuickStartDeletesJob(quickStart));

const total = renders.reduce((sum, r) => sum + r.objects.length, 0);
console.log(
  `k8s: ${total} objects in ${renders.length} renders checked (schema, strict, policy): ${errorCount} errors`,
);
// The closing line counts kustomizations; one that failed to render counts
// as failed, and an error not tied to one render fails them all.
const renderFailures = Number(process.env.RENDER_FAILURES ?? 0);
const untied = [...failedRenders].some((name) => !renders.some((r) => r.name === name));
const failedChecks = untied ? renders.length : renders.filter((r) => failedRenders.has(r.name)).length;
console.log(`check-k8s: ${renders.length - failedChecks} passed, ${failedChecks + renderFailures} failed`);
process.exit(errorCount ? 1 : 0);
