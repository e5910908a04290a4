import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The file in the data folder that keeps `npm start`'s development admin token. */
export const ADMIN_TOKEN_FILE = "admin-token";

/** What a kept token must be: it goes into an Authorization header, and a short one is guessable. */
const TOKEN_SHAPE = /^[\x21-\x7e]{16,}$/;

export type AdminToken =
  | { token: string; source: "environment" }
  | { token: string; source: "created" | "kept"; file: string; tightened?: string };

/**
 * `npm start`'s admin token outside production: ADMIN_TOKEN when set; else the one kept in the
 * data folder by an earlier start, so dashboard sessions, a shell's ADMIN_TOKEN and the CLI keep
 * working across restarts; else a new one, written there (0600, in a 0700 folder) for the next
 * start. A file anyone else may read is made 0600 (`tightened` says from what); a file that holds
 * no usable token stops the start with a sentence rather than being replaced behind one's back.
 */
export function developmentAdminToken(env: NodeJS.ProcessEnv, dataDir: string): AdminToken {
  if (env.ADMIN_TOKEN) return { token: env.ADMIN_TOKEN, source: "environment" };
  const file = join(dataDir, ADMIN_TOKEN_FILE);
  const kept = readKept(file);
  if (kept) return kept;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(24).toString("base64url");
  try {
    // "wx": never over a file another start wrote meanwhile; its token is then the one to use.
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const written = readKept(file);
    if (written) return written;
  }
  return { token, source: "created", file };
}

function readKept(file: string): AdminToken | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const token = text.split("\n", 1)[0]?.trim() ?? "";
  if (!TOKEN_SHAPE.test(token)) {
    throw new Error(
      `${file} holds no admin token (its first line must be 16 or more visible ASCII characters): delete it to have a new one made, or set ADMIN_TOKEN.`,
    );
  }
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) === 0) return { token, source: "kept", file };
  chmodSync(file, 0o600);
  return { token, source: "kept", file, tightened: mode.toString(8).padStart(4, "0") };
}
