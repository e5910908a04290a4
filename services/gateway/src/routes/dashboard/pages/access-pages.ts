import { API_KEY_LIMITS } from "@pulsegate/contract/limits";
import type { FastifyInstance } from "fastify";
import { type ApiError, must } from "../admin-client.ts";
import { contextOf, type PageContext, seeOther } from "../context.ts";
import type { DashboardDeps } from "../dashboard-deps.ts";
import { textField } from "../form-values.ts";
import { badge, time } from "../format.ts";
import { html } from "../html.ts";
import { actionButton, csrfField, errorBlock, teamPath } from "../layout.ts";
import type { Team } from "../resources.ts";
import { loadTeam, sendTeamPage } from "../team-page.ts";

type TeamParams = { teamId: string };
type ApiKey = {
  id: string;
  name: string;
  scope: string;
  tokenPrefix: string;
  createdAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
};
type AuditEntry = {
  id: string;
  at: string | null;
  actor: { kind: string; name: string | null; email?: string | null };
  action: string;
  target: { kind: string; id: string };
  details: unknown;
};

function keyTable(ctx: PageContext, team: Team, keys: ApiKey[]) {
  if (keys.length === 0) {
    return html`<p class="empty">No API keys. Create one for a script, the CLI or a wallboard: a read key can look, a
      write key can change this team's webhooks, monitors, alerts and channels.</p>`;
  }
  return html`<div class="table-wrap"><table>
    <caption>API keys of ${team.name}</caption>
    <thead><tr><th scope="col">Name</th><th scope="col">Scope</th><th scope="col">Token</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span class="offscreen">Actions</span></th></tr></thead>
    <tbody>
      ${keys.map(
        (key) => html`<tr>
          <td>${key.name}</td>
          <td>${key.scope}</td>
          <td><code>${key.tokenPrefix}…</code></td>
          <td>${time(key.createdAt)}</td>
          <td>${time(key.lastUsedAt)}</td>
          <td>${key.revokedAt ? html`${badge("revoked")} ${time(key.revokedAt)}` : badge("active")}</td>
          <td class="row-actions">${
            ctx.canWrite && !key.revokedAt
              ? actionButton(
                  ctx.session,
                  teamPath(team.id, `/access/keys/${encodeURIComponent(key.id)}/revoke`),
                  "Revoke",
                  "button small secondary",
                  `Revoke ${key.name}`,
                )
              : null
          }</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

/** Who did it, as the audit table says: the admin token, a key, or a person by name (and email). */
function actorText(actor: AuditEntry["actor"]): string {
  if (actor.kind === "admin") return "admin token";
  if (actor.kind === "api_key") return `key ${actor.name ?? ""}`;
  return actor.email ? `${actor.name ?? ""} <${actor.email}>` : (actor.name ?? "");
}

function auditTable(entries: AuditEntry[]) {
  if (entries.length === 0) return html`<p class="empty">Nothing changed yet.</p>`;
  return html`<div class="table-wrap"><table>
    <caption>The latest 50 changes, newest first</caption>
    <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Details</th></tr></thead>
    <tbody>
      ${entries.map(
        (entry) => html`<tr>
          <td>${time(entry.at)}</td>
          <td>${actorText(entry.actor)}</td>
          <td><code>${entry.action}</code></td>
          <td>${entry.target.kind} <code>${entry.target.id}</code></td>
          <td><code>${JSON.stringify(entry.details)}</code></td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

export function accessPages(app: FastifyInstance, { gateway }: DashboardDeps): void {
  const page = async (ctx: PageContext, teamId: string, error?: ApiError) => {
    const base = `/teams/${encodeURIComponent(teamId)}`;
    const [team, keys, audit] = await Promise.all([
      loadTeam(ctx, teamId),
      ctx.api<{ apiKeys: ApiKey[] }>("GET", `${base}/api-keys`),
      ctx.api<{ entries: AuditEntry[] }>("GET", `${base}/audit-log?limit=50`),
    ]);
    const form = ctx.form;
    return sendTeamPage(ctx, {
      team,
      tab: "access",
      title: "Access",
      children: html`<h1>API keys and audit log</h1>
        ${keyTable(ctx, team, must(keys).apiKeys)}
        ${
          ctx.canWrite
            ? html`<h2 id="create-key">Create an API key</h2>
              <form method="post" action=${teamPath(team.id, "/access/keys")} aria-labelledby="create-key">
                ${csrfField(ctx.session)} ${errorBlock(error)}
                <div class="fields">
                  <div><label for="key-name">Name</label><input id="key-name" name="name" required maxlength=${API_KEY_LIMITS.nameMaxLength} value=${form.get("name") ?? ""} /></div>
                  <div><label for="key-scope">Scope</label>
                    <select id="key-scope" name="scope">
                      <option value="read" selected=${form.get("scope") !== "write"}>read: look only</option>
                      <option value="write" selected=${form.get("scope") === "write"}>write: change this team</option>
                    </select></div>
                </div>
                <p><button type="submit">Create API key</button></p>
              </form>`
            : null
        }
        <h2>Audit log</h2>
        ${auditTable(must(audit).entries)}`,
      ...(error ? { status: error.status } : {}),
    });
  };

  app.get<{ Params: TeamParams }>("/dashboard/teams/:teamId/access", async (request, reply) =>
    page(contextOf(gateway, request, reply), request.params.teamId),
  );

  app.post<{ Params: TeamParams }>("/dashboard/teams/:teamId/access/keys", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId } = request.params;
    const answer = await ctx.api<{ apiKey: ApiKey; token: string }>(
      "POST",
      `/teams/${encodeURIComponent(teamId)}/api-keys`,
      { name: textField(ctx.form, "name") ?? "", scope: textField(ctx.form, "scope") ?? "" },
    );
    if (!answer.ok) return page(ctx, teamId, answer.error);
    ctx.session.flash = {
      kind: "secret",
      title: `API key ${answer.body.apiKey.name} (${answer.body.apiKey.scope})`,
      secret: answer.body.token,
      note: "Use it as a bearer token with the admin API or the CLI (PULSEGATE_TOKEN), or sign in here with it. Revoke it when it is no longer needed.",
    };
    return seeOther(reply, teamPath(teamId, "/access"));
  });

  app.post<{ Params: TeamParams & { keyId: string } }>(
    "/dashboard/teams/:teamId/access/keys/:keyId/revoke",
    async (request, reply) => {
      const ctx = contextOf(gateway, request, reply);
      const { teamId, keyId } = request.params;
      const answer = await ctx.api<{ apiKey: ApiKey }>("POST", `/api-keys/${encodeURIComponent(keyId)}/revoke`, {});
      ctx.session.flash = answer.ok
        ? { kind: "notice", text: `API key ${answer.body.apiKey.name} revoked: it stops working at once.` }
        : { kind: "error", text: answer.error.error };
      return seeOther(reply, teamPath(teamId, "/access"));
    },
  );
}
