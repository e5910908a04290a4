// CPU of step 6 of a trigger (DESIGN §2), parse and check of a 1 KB body, in process: what the
// body rules (docs/decisions.md, "Triggers") cost on the hot path. Bodies: an ordinary one
// (numbers, a date, a commit hash), one whose text only looks as if it may hold a number a double
// changes (a 19-digit id after a colon in a string), and one that does hold one (refused).
//   npx node -C @pulsegate/source bench/trigger-body.ts [repository root …]   (default: this one)
// Given two roots (a checkout of an older commit and this one), the two are measured in alternating
// rounds in one process, so a busy machine slows both alike. CPU time, not wall time, is counted.
import { resolve } from "node:path";

type Parse = (contentType: string, raw: Buffer) => unknown;
type Check = (value: unknown, inexactNumbers?: unknown[]) => { ok: boolean };

const roots = (process.argv.length > 2 ? process.argv.slice(2) : [resolve(import.meta.dirname, "..")]).map((root) =>
  resolve(root),
);
const pipelines = await Promise.all(
  roots.map(async (root) => {
    const { parseJsonBody } = (await import(`${root}/services/gateway/src/pipeline/json-body.ts`)) as {
      parseJsonBody: Parse;
    };
    const { parseTriggerBody } = (await import(`${root}/services/gateway/src/validation/index.ts`)) as {
      parseTriggerBody: Check;
    };
    // parseJsonBody returned the value before the exact-number rule; since, the value and the numbers to refuse.
    return (raw: Buffer) => {
      const parsed = parseJsonBody("application/json", raw) as { value?: unknown; inexactNumbers?: unknown[] };
      return "inexactNumbers" in parsed
        ? parseTriggerBody(parsed.value, parsed.inexactNumbers)
        : parseTriggerBody(parsed);
    };
  }),
);

/** A trigger body of about `bytes` bytes: a title, metadata, and a description that fills it. */
function body(metadata: Record<string, unknown>, bytes = 1_024): Buffer {
  const base = {
    title: "Checkout error rate above 5%",
    severity: "sev1",
    group_key: "checkout-errors",
    metadata: { env: "production", region: "eu-west-1", rate: 0.0731, requests: 18_204, ...metadata },
  };
  const filler = "x".repeat(Math.max(0, bytes - Buffer.byteLength(JSON.stringify({ ...base, description: "" }))));
  return Buffer.from(JSON.stringify({ ...base, description: filler }));
}

const bodies: Record<string, Buffer> = {
  ordinary: body({ deployedAt: "2026-01-05T10:00:00-00:00", commit: "9f0e1d2c3b4a59687766554433221100ffeeddcc" }),
  "looks like one": body({ note: "trace: 1234567890123456789", deployedAt: "2026-01-05T10:00:00Z" }),
  "holds one": Buffer.from(
    body({}).toString().replace('"requests":18204', '"requests":123456789012345678901234567890'),
  ),
};

const PER_ROUND = 5_000;
const ROUNDS = 31;

/** µs of CPU per parse-and-check over one round. */
function round(run: (raw: Buffer) => unknown, raw: Buffer): number {
  const before = process.cpuUsage();
  for (let i = 0; i < PER_ROUND; i++) run(raw);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / PER_ROUND;
}

const samples = pipelines.map(() => Object.fromEntries(Object.keys(bodies).map((name) => [name, [] as number[]])));
for (const run of pipelines) for (const raw of Object.values(bodies)) round(run, raw); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  pipelines.forEach((run, i) => {
    for (const [name, raw] of Object.entries(bodies)) samples[i]?.[name]?.push(round(run, raw));
  });
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

for (const [name, raw] of Object.entries(bodies)) {
  const medians = samples.map((byBody) => median(byBody[name] ?? []));
  const cells = medians.map((us, i) => `${roots[i]}: ${us.toFixed(2)} µs`).join("   ");
  const change = medians.length === 2 ? `   (${((medians[1] as number) - (medians[0] as number)).toFixed(2)} µs)` : "";
  process.stdout.write(`${name.padEnd(15)} ${raw.length} B   ${cells}${change}\n`);
}
