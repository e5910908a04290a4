// A real OpenID Provider (oidc-provider, with its development sign-in and consent pages) as a process
// of its own, for tests that sign in to the dashboard. Configured by environment:
//   PORT, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI;
//   USERS_FILE: JSON { "<login>": { "name", "email", "groups": [...], "disabled"?: true } }, read
//   at every look-up, so a test disables a person by rewriting it.
// The development pages take any password: the login names the person.
import { readFileSync } from "node:fs";
import Provider from "oidc-provider";

type User = { name: string; email: string; groups: string[]; disabled?: boolean };

const port = Number(process.env.PORT);
const usersFile = process.env.USERS_FILE ?? "";
const userOf = (login: string): User | undefined => {
  const user = (JSON.parse(readFileSync(usersFile, "utf8")) as Record<string, User>)[login];
  return user && !user.disabled ? user : undefined;
};

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: process.env.CLIENT_ID ?? "",
      client_secret: process.env.CLIENT_SECRET ?? "",
      redirect_uris: [process.env.REDIRECT_URI ?? ""],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    },
  ],
  scopes: ["openid", "offline_access", "profile", "email", "groups"],
  claims: { profile: ["name"], email: ["email"], groups: ["groups"] },
  pkce: { required: () => true },
  // A disabled person is unknown: their refresh grant and userinfo are refused.
  findAccount: (_ctx, id) => {
    const user = userOf(id);
    if (!user) return undefined;
    return {
      accountId: id,
      claims: () => ({ sub: id, name: user.name, email: user.email, groups: user.groups }),
    };
  },
  // Development keys and cookie keys: a test provider, started afresh for each test file.
  features: { devInteractions: { enabled: true } },
});
// The development pages' warnings are expected here.
provider.on("server_error", (_ctx, error) => process.stderr.write(`server_error: ${error}\n`));

provider.listen(port, "127.0.0.1", () => process.stdout.write(`oidc provider listening on ${port}\n`));
