// The SDK and the CLI outside the repo: `npm pack` makes their tarballs (prepack
// compiles src/ to dist/), they install into an empty folder with nothing unresolved, and the
// machine's own Node 20 runs what they ship — JavaScript and `.d.ts`, no TypeScript sources and no
// private workspace package.

import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinnedNode, runCli } from "../support/cli.ts";

const root = resolve(import.meta.dirname, "../..");
/** The machine's own Node, older than the repo's pinned 24: what a user of the packages may have. */
const systemNode = "/usr/bin/node";
const work = mkdtempSync(join(tmpdir(), "pulsegate-packed-"));
const app = join(work, "app");
// prepack builds dist/ in the packages' folders: removed again unless it was there before, so no
// other test can lean on it (the repo runs the sources).
const builds = ["sdk", "cli"]
  .map((folder) => join(root, "packages", folder, "dist"))
  .filter((dist) => !existsSync(dist));
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  for (const dist of builds) rmSync(dist, { recursive: true, force: true });
});

type PackedFile = { path: string };
type Packed = { name: string; version: string; filename: string; files: PackedFile[] };

/** `npm pack` in a package's folder, into the work folder: what it made and what it holds. */
function pack(folder: string): Packed {
  const output = execFileSync("npm", ["pack", "--json", "--pack-destination", work], {
    cwd: join(root, "packages", folder),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  // prepack's own output (tsc) comes before npm's JSON.
  const [packed] = JSON.parse(output.slice(output.indexOf("[\n"))) as Packed[];
  if (packed === undefined) throw new Error(`npm pack in packages/${folder} made nothing`);
  return packed;
}

/** What tsc makes of src/: each non-test module as JavaScript and its declarations. */
function compiled(folder: string, under = ""): string[] {
  const source = join(root, "packages", folder, "src", under);
  return readdirSync(source, { withFileTypes: true }).flatMap((entry) => {
    const path = under === "" ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory()) return compiled(folder, path);
    if (entry.name.endsWith(".test.ts")) return [];
    const stem = path.replace(/\.ts$/, "");
    return [`dist/${stem}.d.ts`, `dist/${stem}.js`];
  });
}

const run = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: app, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

let sdk: Packed;
let cli: Packed;
beforeAll(() => {
  sdk = pack("sdk");
  cli = pack("cli");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  // commander comes from npm's cache (the repo's own install put it there).
  run("npm", [
    "install",
    "--prefer-offline",
    "--no-audit",
    "--no-fund",
    join(work, sdk.filename),
    join(work, cli.filename),
  ]);
}, 240_000);

describe("the packed SDK and CLI", () => {
  it("ship dist/ (JavaScript and declarations of every module), README and LICENSE: no sources, no tests", () => {
    const paths = (packed: Packed) => packed.files.map((file) => file.path).sort();
    expect({ name: sdk.name, version: sdk.version }).toEqual({ name: "@pulsegate/sdk", version: "0.1.0" });
    expect(paths(sdk)).toEqual(["LICENSE", "README.md", ...compiled("sdk"), "package.json"].sort());
    expect({ name: cli.name, version: cli.version }).toEqual({ name: "@pulsegate/cli", version: "0.1.0" });
    expect(paths(cli)).toEqual(
      ["LICENSE", "README.md", "bin/pulsegate.mjs", ...compiled("cli"), "package.json"].sort(),
    );
  });

  it("install into an empty folder with nothing missing or invalid: the SDK and commander, nothing private", () => {
    const tree = JSON.parse(run("npm", ["ls", "--all", "--json"])) as {
      problems?: string[];
      dependencies: Record<string, { version: string; dependencies?: Record<string, { version: string }> }>;
    };
    expect(tree.problems).toBeUndefined();
    expect(Object.keys(tree.dependencies).sort()).toEqual(["@pulsegate/cli", "@pulsegate/sdk"]);
    expect(tree.dependencies["@pulsegate/sdk"]?.version).toBe("0.1.0");
    const cliDependencies = tree.dependencies["@pulsegate/cli"]?.dependencies ?? {};
    expect(Object.keys(cliDependencies).sort()).toEqual(["@pulsegate/sdk", "commander"]);
    expect(cliDependencies["@pulsegate/sdk"]?.version).toBe("0.1.0");
    expect(cliDependencies.commander?.version).toMatch(/^14\.\d+\.\d+$/);
    expect(readdirSync(join(app, "node_modules")).sort()).toEqual([
      ".bin",
      ".package-lock.json",
      "@pulsegate",
      "commander",
    ]);
    expect(readdirSync(join(app, "node_modules/@pulsegate")).sort()).toEqual(["cli", "sdk"]);
  });

  it("runs the installed `pulsegate` on Node 20: the same help and version as the repo's CLI", async () => {
    expect(execFileSync(systemNode, ["--version"], { encoding: "utf8" })).toMatch(/^v20\.\d+\.\d+\n$/);
    const bin = join(app, "node_modules/.bin/pulsegate");
    const help = run(systemNode, [bin, "--help"]);
    expect(help).toMatch(/^Usage: pulsegate \[options\] \[command\]\n/);
    expect(help).toBe((await runCli(["--help"])).stdout);
    expect(run(systemNode, [bin, "--version"])).toBe("0.1.0\n");
    expect(run(systemNode, [bin, "webhooks", "create", "--help"])).toBe(
      (await runCli(["webhooks", "create", "--help"])).stdout,
    );
  });

  it("imports the installed SDK on Node 20 and signs a body as HMAC-SHA256 of its bytes", () => {
    const secret = "whs_packed-test-secret";
    const body = '{"title":"Disk full on db-1","severity":"sev2","note":"ü"}';
    writeFileSync(
      join(app, "sign.mjs"),
      [
        'import { PAGE_LIMITS, SEVERITIES, SIGNATURE_HEADER, sign, verify } from "@pulsegate/sdk";',
        'import { CHANNEL_KINDS } from "@pulsegate/sdk/words";',
        "const [secret, body] = process.argv.slice(2);",
        "const signature = sign(secret, body);",
        "console.log(JSON.stringify({ signature, header: SIGNATURE_HEADER, verified: verify(secret, body, signature),",
        "  severities: SEVERITIES, kinds: CHANNEL_KINDS, pageMax: PAGE_LIMITS.max }));",
      ].join("\n"),
    );
    const answer = JSON.parse(run(systemNode, ["sign.mjs", secret, body]));
    expect(answer).toEqual({
      signature: createHmac("sha256", secret).update(Buffer.from(body, "utf8")).digest("hex"),
      header: "x-webhook-signature",
      verified: true,
      severities: ["sev0", "sev1", "sev2", "sev3", "sev4"],
      kinds: ["slack", "webhook", "pagerduty", "opsgenie", "email"],
      pageMax: 200,
    });
  });

  it("type-checks TypeScript against the installed declarations (and refuses what they forbid)", () => {
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2023",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
          typeRoots: [join(root, "node_modules/@types")],
        },
        files: ["use.ts"],
      }),
    );
    writeFileSync(
      join(app, "use.ts"),
      [
        'import { PulsegateClient, PulsegateError, type Severity, sign } from "@pulsegate/sdk";',
        'import { type ChannelKind, isSeverity } from "@pulsegate/sdk/words";',
        'const client = new PulsegateClient({ baseUrl: "http://127.0.0.1:9", secret: "s" });',
        'const signature: string = sign("s", new Uint8Array([1, 2]));',
        'const severity: Severity = "sev1";',
        'const kind: ChannelKind = "email";',
        "// @ts-expect-error: not one of the API's severities",
        'const wrong: Severity = "sev9";',
        "// @ts-expect-error: sign takes the secret first and a body",
        "sign(42);",
        'export const used = [client, signature, severity, kind, wrong, isSeverity("sev0"), PulsegateError];',
      ].join("\n"),
    );
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    expect(
      execFileSync(pinnedNode, [tsc, "-p", "tsconfig.json", "--pretty", "false"], { cwd: app, encoding: "utf8" }),
    ).toBe("");
  });
});
