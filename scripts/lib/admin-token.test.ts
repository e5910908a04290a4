import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN_FILE, developmentAdminToken } from "./admin-token.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
/** A data folder that does not exist yet, inside a temporary one. */
function dataDir(): string {
  const parent = mkdtempSync(join(tmpdir(), "pulsegate-admin-token-"));
  folders.push(parent);
  return join(parent, ".data");
}

describe("npm start's development admin token", () => {
  it("is made once, kept in the data folder (0600, folder 0700), and the same on the next start", () => {
    const dir = dataDir();
    const first = developmentAdminToken({}, dir);
    expect(first.source).toBe("created");
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const file = join(dir, ADMIN_TOKEN_FILE);
    expect(readFileSync(file, "utf8")).toBe(`${first.token}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const second = developmentAdminToken({}, dir);
    expect(second).toEqual({ token: first.token, source: "kept", file });
  });

  it("is ADMIN_TOKEN when the environment sets it, and then no file is read or written", () => {
    const dir = dataDir();
    expect(developmentAdminToken({ ADMIN_TOKEN: "from-the-environment" }, dir)).toEqual({
      token: "from-the-environment",
      source: "environment",
    });
    expect(() => statSync(dir)).toThrow(/ENOENT/);
    const kept = developmentAdminToken({}, dir).token;
    expect(developmentAdminToken({ ADMIN_TOKEN: "still-the-environment" }, dir).token).toBe("still-the-environment");
    expect(developmentAdminToken({}, dir).token).toBe(kept);
  });

  it("makes a file others may read 0600, and says from what", () => {
    const dir = dataDir();
    const { token } = developmentAdminToken({}, dir);
    const file = join(dir, ADMIN_TOKEN_FILE);
    chmodSync(file, 0o644);
    expect(developmentAdminToken({}, dir)).toEqual({ token, source: "kept", file, tightened: "0644" });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("keeps a token a developer wrote there, and refuses a file that holds none", () => {
    const dir = dataDir();
    developmentAdminToken({}, dir);
    const file = join(dir, ADMIN_TOKEN_FILE);
    writeFileSync(file, "  my-own-development-token  \nsecond line ignored\n", { mode: 0o600 });
    expect(developmentAdminToken({}, dir).token).toBe("my-own-development-token");
    writeFileSync(file, "short\n");
    expect(() => developmentAdminToken({}, dir)).toThrow(
      /admin-token holds no admin token \(its first line must be 16 or more visible ASCII characters\): delete it/,
    );
  });
});
