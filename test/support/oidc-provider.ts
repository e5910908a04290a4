import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "./free-port.ts";

const root = resolve(import.meta.dirname, "../..");
const pinnedNode = resolve(root, "node_modules/.bin/node");

export type ProviderUser = { name: string; email: string; groups: string[]; disabled?: boolean };

/**
 * A real OpenID Provider (oidc-provider-server.ts) as its own process on 127.0.0.1, with one
 * confidential client, for a stack whose gateway signs people in through it.
 */
export class OidcProvider {
  readonly issuer: string;
  readonly clientId = "pulsegate-dashboard";
  readonly clientSecret = "a-test-client-secret-of-some-length";
  readonly #port: number;
  readonly #dir: string;
  readonly #users: Record<string, ProviderUser>;
  #process: ChildProcess | undefined;
  #output = "";

  private constructor(port: number, users: Record<string, ProviderUser>) {
    this.#port = port;
    this.issuer = `http://127.0.0.1:${port}`;
    this.#users = users;
    this.#dir = mkdtempSync(join(tmpdir(), "pulsegate-oidc-"));
    this.#writeUsers();
  }

  /** Its port, chosen before it starts: the gateway's OIDC_ISSUER is set before its redirect URI is known. */
  static async reserve(users: Record<string, ProviderUser>): Promise<OidcProvider> {
    return new OidcProvider(await freePort(), users);
  }

  /** Starts it, with the client's one redirect URI. */
  async start(redirectUri: string): Promise<void> {
    this.#process = spawn(pinnedNode, [resolve(import.meta.dirname, "oidc-provider-server.ts")], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(this.#port),
        CLIENT_ID: this.clientId,
        CLIENT_SECRET: this.clientSecret,
        REDIRECT_URI: redirectUri,
        USERS_FILE: this.#usersFile,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.#process.stdout?.on("data", (chunk: Buffer) => {
      this.#output += chunk.toString();
    });
    this.#process.stderr?.on("data", (chunk: Buffer) => {
      this.#output += chunk.toString();
    });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const answer = await fetch(`${this.issuer}/.well-known/openid-configuration`).catch(() => undefined);
      if (answer?.ok) return;
      if (this.#process.exitCode !== null) break;
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(`the OpenID provider did not start:\n${this.#output}`);
  }

  /** The person can no longer sign in, and their grants are refused from now on. */
  disable(login: string): void {
    const user = this.#users[login];
    if (!user) throw new Error(`no user ${login}`);
    user.disabled = true;
    this.#writeUsers();
  }

  get output(): string {
    return this.#output;
  }

  async stop(): Promise<void> {
    const running = this.#process;
    this.#process = undefined;
    if (running && running.exitCode === null && running.signalCode === null) {
      const exited = new Promise((done) => running.once("exit", done));
      running.kill("SIGTERM");
      await exited;
    }
    rmSync(this.#dir, { recursive: true, force: true });
  }

  get #usersFile(): string {
    return join(this.#dir, "users.json");
  }

  #writeUsers(): void {
    writeFileSync(this.#usersFile, JSON.stringify(this.#users));
  }
}
