// What the image holds, checked and written out: it runs as uid 1000, holds only the production
// dependency tree (no devDependency) and no npm, and its size by part (the table in deploy/k8s/README.md, "The image").
//
// Usage: node scripts/image/image-contents.ts IMAGE   (scripts/check-image.sh runs it)
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { productionPackages } from "./production-tree.ts";

const image = process.argv[2] ?? "";
if (!image) throw new Error("usage: image-contents.ts IMAGE");

function inImage(script: string): string {
  const result = spawnSync("podman", ["run", "--rm", "--network", "none", "--entrypoint", "sh", image, "-c", script], {
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`in the image: ${script}: ${result.stderr}`);
  return result.stdout;
}

function fail(message: string): never {
  process.stderr.write(`image: FAIL ${message}\n`);
  process.exit(1);
}

let production: Set<string>;
try {
  production = productionPackages(join(import.meta.dirname, "../.."));
} catch (error) {
  fail((error as Error).message);
}

const uid = inImage("id -u").trim();
if (uid !== "1000") fail(`runs as uid ${uid}, not 1000`);
process.stdout.write("image: runs as uid 1000 (user node)\n");

const installed = inImage(
  'cd /app/node_modules && for d in * @*/*; do [ -e "$d/package.json" ] && echo "$d"; done; true',
)
  .split("\n")
  .filter(Boolean);
const strays = installed.filter((name) => !production.has(name));
if (strays.length > 0) fail(`holds packages outside the production tree: ${strays.join(", ")}`);
process.stdout.write(
  `image: ${installed.length} packages in /app/node_modules, all of the production tree (npm ls --omit=dev)\n`,
);
if (inImage("command -v npm || true").trim() !== "") fail("npm is installed (the runtime stage removes it)");

const size = Number(
  spawnSync("podman", ["image", "inspect", "--format", "{{.Size}}", image], { encoding: "utf8" }).stdout.trim(),
);
const parts = inImage(
  "du -sm /usr/local/bin/node /app/node_modules /app/packages /app/services /app/scripts /usr /var /etc 2>/dev/null; true",
);
process.stdout.write(`image: ${Math.round(size / 1_000_000)} MB in all\n`);
for (const line of parts.trim().split("\n")) {
  const [mb, path] = line.split("\t");
  process.stdout.write(`image:   ${String(mb).padStart(5)} MiB  ${path}\n`);
}
const heaviest = inImage("cd /app/node_modules && du -sm * @*/* 2>/dev/null | sort -rn | head -n 8");
process.stdout.write("image: heaviest packages (MiB):\n");
for (const line of heaviest.trim().split("\n")) process.stdout.write(`image:   ${line.replace("\t", "  ")}\n`);
