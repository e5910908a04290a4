import { spawnSync } from "node:child_process";

type Tree = { dependencies?: Record<string, Tree> };

/**
 * The packages `npm ci --omit=dev` installs from the repository at `root`: the production tree
 * as `npm ls --omit=dev` lists it, transitive packages included. Throws when that listing is not
 * clean (a dependency missing or invalid), naming what npm said.
 */
export function productionPackages(root: string): Set<string> {
  const listed = spawnSync("npm", ["ls", "--omit=dev", "--all", "--json"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) throw new Error(`npm ls --omit=dev is not clean: ${listed.stderr.slice(0, 2000)}`);
  const production = new Set<string>();
  const walk = (tree: Tree) => {
    // A package met again is listed "deduped", without its own dependencies: walk every listing.
    for (const [name, child] of Object.entries(tree.dependencies ?? {})) {
      production.add(name);
      walk(child);
    }
  };
  walk(JSON.parse(listed.stdout) as Tree);
  return production;
}
