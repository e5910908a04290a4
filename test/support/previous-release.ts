// The previous release of the code, beside this tree, for the rolling-upgrade test
// (docs/decisions.md, "Migrations: expand, then contract").
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");

/**
 * What a rolling upgrade crosses: the schema (every service's migrations) and the wire (proto/).
 * A change to neither cannot break one, so the release that matters is the one before the newest
 * change to either.
 */
const CONTRACT_PATHS = [
  "proto",
  "services/auth/src/migrations",
  "services/alerts/src/migrations",
  "services/monitors/src/migrations",
  // Tests beside the migrations change no schema.
  ":(exclude,glob)**/*.test.ts",
];

const git = (...args: string[]): string => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();

export type PreviousRelease = {
  commit: string;
  /** How it was chosen, for the test's report. */
  why: string;
};

/**
 * The previous release: the commit before the newest commit (along first parents, so a merge is one
 * release) that changed a migration or a .proto. That is the code still running when this tree's
 * newest migration is applied and its pods start, whatever branch or clone the test runs in, and it
 * moves by itself with each such change. `PULSEGATE_PREVIOUS_RELEASE` names another (a tag, a
 * commit) to try a particular pair. A clone without that history fails here, saying so.
 */
export function previousRelease(): PreviousRelease {
  const chosen = process.env.PULSEGATE_PREVIOUS_RELEASE;
  if (chosen) return { commit: resolveCommit(chosen), why: `PULSEGATE_PREVIOUS_RELEASE=${chosen}` };
  const newest = git("log", "--first-parent", "-1", "--format=%H", "HEAD", "--", ...CONTRACT_PATHS);
  if (!newest)
    throw new Error("no commit changes a migration or a .proto: there is no previous release to upgrade from");
  const subject = git("log", "-1", "--format=%h %s", newest).slice(0, 100);
  return { commit: resolveCommit(`${newest}^1`), why: `the commit before ${subject}` };
}

function resolveCommit(revision: string): string {
  try {
    return git("rev-parse", "--verify", "--quiet", `${revision}^{commit}`);
  } catch {
    const shallow = git("rev-parse", "--is-shallow-repository") === "true";
    throw new Error(
      `${revision} is not in this clone${shallow ? " (a shallow clone: git fetch --unshallow)" : ""}; the rolling-upgrade test needs the previous release's code`,
    );
  }
}

export type CheckedOutRelease = {
  /** A directory holding the release's package.json, packages/, services/ and scripts/, ready to run. */
  root: string;
  /** "linked": this tree's node_modules served it (the runtime packages are the same); "installed": npm ci. */
  modules: "linked" | "installed";
  ms: number;
  remove: () => void;
};

/**
 * The release's files (`git archive`, no worktree to register or clean up) in a temporary
 * directory, with node_modules: this tree's own, linked package by package, when the lockfile's
 * runtime packages (those not marked dev) are the same in both — its workspaces then link to the
 * release's own packages and services, never to this tree's — otherwise `npm ci --omit=dev` from
 * the npm cache. The processes run on this tree's pinned Node either way.
 */
export function checkOutRelease(commit: string): CheckedOutRelease {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), `pulsegate-previous-${commit.slice(0, 12)}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const archive = spawnSync(
      "git",
      ["archive", "--format=tar", commit, "package.json", "package-lock.json", "packages", "services", "scripts"],
      {
        cwd: root,
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    if (archive.status !== 0) throw new Error(`git archive ${commit}: ${archive.stderr.toString()}`);
    execFileSync("tar", ["-x", "-C", dir], { input: archive.stdout });
    const theirs = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as Lockfile;
    const ours = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as Lockfile;
    let modules: CheckedOutRelease["modules"] = "linked";
    if (sameRuntimePackages(theirs, ours)) {
      linkModules(dir, theirs);
    } else {
      modules = "installed";
      execFileSync(
        "npm",
        ["ci", "--omit=dev", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
        { cwd: dir, stdio: ["ignore", "ignore", "pipe"], timeout: 180_000 },
      );
    }
    return { root: dir, modules, ms: Date.now() - started, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

type LockEntry = { dev?: boolean; link?: boolean; resolved?: string };
type Lockfile = { packages: Record<string, LockEntry> };

/** The packages a service loads at run time, as the lockfile pins them (the root's own entry aside). */
function runtimePackages(lock: Lockfile): string {
  const entries = Object.entries(lock.packages).filter(([path, entry]) => path !== "" && !entry.dev);
  return JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function sameRuntimePackages(theirs: Lockfile, ours: Lockfile): boolean {
  return runtimePackages(theirs) === runtimePackages(ours);
}

/**
 * node_modules for the release: each of this tree's top-level entries linked, except the
 * workspaces, which link to the release's own directories (as npm would), and each workspace's
 * own node_modules linked to ours.
 */
function linkModules(dir: string, lock: Lockfile): void {
  const modules = join(dir, "node_modules");
  mkdirSync(modules);
  const workspaces = Object.entries(lock.packages).filter(([, entry]) => entry.link && entry.resolved);
  const workspaceNames = new Set(workspaces.map(([path]) => path.slice("node_modules/".length)));
  const scopes = new Set([...workspaceNames].filter((name) => name.startsWith("@")).map((name) => name.split("/")[0]));
  for (const entry of readdirSync(join(root, "node_modules"))) {
    if (scopes.has(entry)) {
      mkdirSync(join(modules, entry));
      for (const scoped of readdirSync(join(root, "node_modules", entry))) {
        if (!workspaceNames.has(`${entry}/${scoped}`))
          symlinkSync(join(root, "node_modules", entry, scoped), join(modules, entry, scoped));
      }
    } else if (!workspaceNames.has(entry)) {
      symlinkSync(join(root, "node_modules", entry), join(modules, entry));
    }
  }
  for (const [path, entry] of workspaces) {
    const target = join(dir, entry.resolved as string);
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    symlinkSync(target, join(dir, path));
    const own = join(root, entry.resolved as string, "node_modules");
    if (existsSync(own) && existsSync(target)) symlinkSync(own, join(target, "node_modules"));
  }
}
