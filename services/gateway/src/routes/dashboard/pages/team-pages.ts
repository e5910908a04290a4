import { TEAM_LIMITS } from "@pulsegate/contract/limits";
import type { FastifyInstance } from "fastify";
import { reachesEveryTeam, teamAccessOf } from "../../admin/actor.ts";
import { type ApiError, must } from "../admin-client.ts";
import { sendConfirmPage } from "../confirm-page.ts";
import { contextOf, type PageContext, seeOther, sendPage } from "../context.ts";
import type { DashboardDeps } from "../dashboard-deps.ts";
import { defined, endOfDayField, integerField, textField } from "../form-values.ts";
import { time } from "../format.ts";
import { html, renderDocument } from "../html.ts";
import { csrfField, errorBlock, layout, teamPath } from "../layout.ts";
import type { Team } from "../resources.ts";
import { loadTeam, sendTeamPage, takeFlash } from "../team-page.ts";

type TeamParams = { teamId: string };

const quota = (value: number) => (value === 0 ? "unlimited" : `${value.toLocaleString("en")} a month`);
const dateOnly = (iso: string | null) => (iso ? iso.slice(0, 10) : "");

function teamsPage(ctx: PageContext, teams: Team[], nextCursor: string | null, error?: ApiError) {
  const flash = takeFlash(ctx);
  const form = ctx.form;
  return renderDocument(
    layout({
      title: "Teams",
      session: ctx.session,
      flash,
      children: html`<h1>Teams</h1>
        ${
          teams.length === 0
            ? html`<p class="empty">No teams yet. Create the first one below: you will get its webhook secret, which
                its systems use to sign alerts and pings.</p>`
            : html`<div class="table-wrap"><table>
                <caption>Every team, oldest first</caption>
                <thead><tr><th scope="col">Name</th><th scope="col">Subscription</th><th scope="col">Alert quota</th><th scope="col">Created</th></tr></thead>
                <tbody>
                  ${teams.map(
                    (team) => html`<tr>
                      <td><a href=${teamPath(team.id, "/alerts")}>${team.name}</a></td>
                      <td>${team.subscriptionExpiresAt ? html`until ${dateOnly(team.subscriptionExpiresAt)}` : "no expiry"}</td>
                      <td>${quota(team.alertQuotaMonthly)}</td>
                      <td>${time(team.createdAt)}</td>
                    </tr>`,
                  )}
                </tbody>
              </table></div>`
        }
        ${nextCursor ? html`<p><a href=${`/dashboard/teams?cursor=${encodeURIComponent(nextCursor)}`}>More teams</a></p>` : null}
        <h2 id="create-team">Create a team</h2>
        ${errorBlock(error)}
        <form method="post" action="/dashboard/teams" aria-labelledby="create-team">
          ${csrfField(ctx.session)}
          <div class="fields">
            <div><label for="team-name">Name</label><input id="team-name" name="name" required maxlength=${TEAM_LIMITS.nameMaxLength} value=${form.get("name") ?? ""} /></div>
            <div><label for="team-alert-quota">Alert quota a month</label><input id="team-alert-quota" name="alertQuotaMonthly" inputmode="numeric" placeholder="default" value=${form.get("alertQuotaMonthly") ?? ""} /></div>
            <div><label for="team-heartbeat-quota">Heartbeat quota a month</label><input id="team-heartbeat-quota" name="heartbeatQuotaMonthly" inputmode="numeric" placeholder="default" value=${form.get("heartbeatQuotaMonthly") ?? ""} /></div>
            <div><label for="team-expires">Subscription ends (UTC)</label><input id="team-expires" name="subscriptionExpiresAt" type="date" value=${form.get("subscriptionExpiresAt") ?? ""} /></div>
          </div>
          <p class="hint">Empty quotas take the service's defaults; 0 is unlimited.</p>
          <p><button type="submit">Create team</button></p>
        </form>`,
    }),
  );
}

type Counter = { used: number; quota: number };
type Usage = { month: string; alerts: Counter; heartbeats: Counter };

/** This month's use of the quotas; none when it cannot be read (the page shows the quotas alone). */
async function loadUsage(ctx: PageContext, teamId: string): Promise<Usage | undefined> {
  const answer = await ctx.api<{ usage: Usage }>("GET", `/teams/${encodeURIComponent(teamId)}/usage`);
  return answer.ok ? answer.body.usage : undefined;
}

/** The settings tab, with the API's refusal of a form sent from it (answered with the refusal's status). */
async function sendSettingsPage(ctx: PageContext, teamId: string, error?: ApiError) {
  const [team, usage] = await Promise.all([loadTeam(ctx, teamId), loadUsage(ctx, teamId)]);
  return sendTeamPage(ctx, {
    team,
    tab: "settings",
    title: "Settings",
    children: settingsPage(ctx, team, usage, error),
    status: error?.status,
  });
}

/** "1,234 of 10,000 a month (12%)", with a meter; "unlimited" quotas show the count alone. */
function usageOf(label: string, quotaValue: number, counter: Counter | undefined) {
  if (!counter) return html`${quota(quotaValue)}`;
  const used = counter.used.toLocaleString("en");
  if (counter.quota === 0) return html`${used} this month <span class="muted">(unlimited)</span>`;
  const percent = Math.floor((counter.used / counter.quota) * 100);
  return html`${used} of ${quota(counter.quota)} used this month (${percent}%)
    <meter min="0" max=${counter.quota} low=${counter.quota * 0.8} high=${counter.quota * 0.95} optimum="0"
      value=${counter.used} aria-label=${`${label} used this month`}></meter>`;
}

function settingsPage(ctx: PageContext, team: Team, usage: Usage | undefined, error?: ApiError) {
  const admin = reachesEveryTeam(ctx.session.actor);
  const rotateAction = teamPath(team.id, "/settings/rotate");
  return html`<h1>Settings</h1>
    ${errorBlock(error)}
    <h2 id="subscription">Subscription and quotas</h2>
    <dl class="facts">
      <dt>Team id</dt><dd><code>${team.id}</code></dd>
      <dt>Subscription</dt><dd>${team.subscriptionExpiresAt ? html`ends ${time(team.subscriptionExpiresAt)} (${dateOnly(team.subscriptionExpiresAt)})` : "no expiry"}</dd>
      <dt>Alerts</dt><dd>${usageOf("Alert quota", team.alertQuotaMonthly, usage?.alerts)}</dd>
      <dt>Heartbeats</dt><dd>${usageOf("Heartbeat quota", team.heartbeatQuotaMonthly, usage?.heartbeats)}</dd>
      <dt>Created</dt><dd>${time(team.createdAt)}</dd>
    </dl>
    ${
      ctx.canWrite
        ? html`<form method="post" action=${teamPath(team.id, "/settings")} aria-labelledby="subscription">
            ${csrfField(ctx.session)}
            <div class="fields">
              <div><label for="settings-name">Name</label><input id="settings-name" name="name" required maxlength=${TEAM_LIMITS.nameMaxLength} value=${team.name} /></div>
              ${
                admin
                  ? html`<div><label for="settings-alert-quota">Alert quota a month</label><input id="settings-alert-quota" name="alertQuotaMonthly" inputmode="numeric" value=${String(team.alertQuotaMonthly)} /><p class="hint">0 = unlimited</p></div>
                      <div><label for="settings-heartbeat-quota">Heartbeat quota a month</label><input id="settings-heartbeat-quota" name="heartbeatQuotaMonthly" inputmode="numeric" value=${String(team.heartbeatQuotaMonthly)} /><p class="hint">0 = unlimited</p></div>
                      <div><label for="settings-expires">Subscription ends (UTC)</label><input id="settings-expires" name="subscriptionExpiresAt" type="date" value=${dateOnly(team.subscriptionExpiresAt)} /><p class="hint">Empty: never expires</p></div>`
                  : null
              }
            </div>
            ${admin ? null : html`<p class="hint">Subscription and quotas are set by the operator (admin token).</p>`}
            <p><button type="submit">Save settings</button></p>
          </form>`
        : null
    }
    <h2 id="webhook-secret">Webhook secret</h2>
    <p>Every webhook and monitor of this team checks signatures with this one secret.</p>
    <dl class="facts">
      <dt>Current secret</dt><dd>fingerprint <code>${team.secretFingerprint ?? "none"}</code>, last used ${time(team.currentSecretLastUsedAt)}</dd>
      <dt>Last rotated</dt><dd>${time(team.secretRotatedAt)}</dd>
      ${
        team.previousSecretFingerprint
          ? html`<dt>Previous secret</dt>
              <dd>fingerprint <code>${team.previousSecretFingerprint}</code>, still verifies until ${time(team.previousSecretValidUntil, "—")}</dd>
              <dt>Previous secret last used</dt>
              <dd>${time(team.previousSecretLastUsedAt)}<p class="hint">When this stops moving, every sender has the new secret.</p></dd>`
          : null
      }
    </dl>
    ${
      ctx.canWrite
        ? html`<form method="post" action=${rotateAction} data-confirm="Rotate the webhook secret? Senders must move to the new one before the grace window ends.">
            ${csrfField(ctx.session)}
            <div class="fields">
              <div>
                <label for="grace">Grace window (seconds)</label>
                <input id="grace" name="graceSeconds" inputmode="numeric" value="86400" />
                <p class="hint">The previous secret keeps verifying this long (0–604800; 86400 = a day). Rotating again drops it at once.</p>
              </div>
            </div>
            <p><button type="submit" class="button danger">Rotate webhook secret</button></p>
          </form>`
        : null
    }
    ${
      admin
        ? html`<h2 id="delete-team">Delete the team</h2>
            <p>Its secret, API keys, webhooks, monitors, channels and alerts go; its audit log is kept.</p>
            <p><a class="button danger" href=${teamPath(team.id, "/delete")}>Delete team…</a></p>`
        : null
    }`;
}

/** The team's deletion asks for its name: it takes everything of the team, for good. */
async function confirmDeleteTeam(ctx: PageContext, teamId: string, error?: ApiError) {
  const team = await loadTeam(ctx, teamId);
  return sendConfirmPage(ctx, {
    team,
    tab: "settings",
    question: `Delete team ${team.name}?`,
    consequences: [
      "At once: its webhook secret and API keys stop working, its webhooks, monitors and badges answer 404 on every gateway, and nothing more is sent to its channels.",
      "In the background: its webhooks, monitors, pings, alerts, deliveries, channels and silences are removed.",
      "Its audit log is kept, readable with the admin token.",
      "This cannot be undone.",
    ],
    action: teamPath(team.id, "/delete"),
    submit: "Delete team",
    back: teamPath(team.id, "/settings"),
    typeToConfirm: team.name,
    error,
  });
}

export function teamPages(app: FastifyInstance, { gateway }: DashboardDeps): void {
  app.get<{ Querystring: { cursor?: string } }>("/dashboard/teams", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const team = teamAccessOf(ctx.session.actor);
    if (team) return seeOther(reply, teamPath(team.teamId, "/alerts"));
    const cursor = request.query.cursor ? `?cursor=${encodeURIComponent(request.query.cursor)}` : "";
    const page = must(await ctx.api<{ teams: Team[]; nextCursor: string | null }>("GET", `/teams${cursor}`));
    return sendPage(reply, teamsPage(ctx, page.teams, page.nextCursor));
  });

  app.post("/dashboard/teams", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const form = ctx.form;
    const expires = endOfDayField(form, "subscriptionExpiresAt");
    const answer = await ctx.api<{ team: Team; webhookSecret: string }>(
      "POST",
      "/teams",
      defined({
        name: textField(form, "name") ?? "",
        alertQuotaMonthly: integerField(form, "alertQuotaMonthly"),
        heartbeatQuotaMonthly: integerField(form, "heartbeatQuotaMonthly"),
        subscriptionExpiresAt: expires ?? undefined,
      }),
    );
    if (!answer.ok) {
      const page = must(await ctx.api<{ teams: Team[]; nextCursor: string | null }>("GET", "/teams"));
      return sendPage(reply, teamsPage(ctx, page.teams, page.nextCursor, answer.error), answer.error.status);
    }
    const { team, webhookSecret } = answer.body;
    ctx.session.flash = {
      kind: "secret",
      title: `Team ${team.name} created: its webhook secret`,
      secret: webhookSecret,
      note: "Give it to the systems that send this team's alerts and pings; they sign every request with it. Lost it? Rotate it here.",
    };
    return seeOther(reply, teamPath(team.id, "/settings"));
  });

  app.get<{ Params: TeamParams }>("/dashboard/teams/:teamId", async (request, reply) =>
    seeOther(reply, teamPath(request.params.teamId, "/alerts")),
  );

  app.get<{ Params: TeamParams }>("/dashboard/teams/:teamId/settings", async (request, reply) => {
    return sendSettingsPage(contextOf(gateway, request, reply), request.params.teamId);
  });

  app.post<{ Params: TeamParams }>("/dashboard/teams/:teamId/settings", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId } = request.params;
    const form = ctx.form;
    const body = reachesEveryTeam(ctx.session.actor)
      ? defined({
          name: textField(form, "name") ?? "",
          alertQuotaMonthly: integerField(form, "alertQuotaMonthly"),
          heartbeatQuotaMonthly: integerField(form, "heartbeatQuotaMonthly"),
          subscriptionExpiresAt: endOfDayField(form, "subscriptionExpiresAt"),
        })
      : { name: textField(form, "name") ?? "" };
    const answer = await ctx.api<{ team: Team }>("PATCH", `/teams/${encodeURIComponent(teamId)}`, body);
    if (!answer.ok) return sendSettingsPage(ctx, teamId, answer.error);
    ctx.session.flash = { kind: "notice", text: "Settings saved." };
    return seeOther(reply, teamPath(teamId, "/settings"));
  });

  app.get<{ Params: TeamParams }>("/dashboard/teams/:teamId/delete", async (request, reply) =>
    confirmDeleteTeam(contextOf(gateway, request, reply), request.params.teamId),
  );

  app.post<{ Params: TeamParams }>("/dashboard/teams/:teamId/delete", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId } = request.params;
    const team = await loadTeam(ctx, teamId);
    if ((ctx.form.get("confirm") ?? "").trim() !== team.name) {
      return confirmDeleteTeam(ctx, teamId, {
        status: 400,
        error: "Type the team's name exactly to confirm.",
        code: "invalid_request",
        details: [{ field: "confirm", message: `confirm must be ${team.name}.` }],
      });
    }
    const answer = await ctx.api("DELETE", `/teams/${encodeURIComponent(teamId)}`);
    if (!answer.ok) return confirmDeleteTeam(ctx, teamId, answer.error);
    ctx.session.flash = { kind: "notice", text: `Team ${team.name} deleted.` };
    return seeOther(reply, "/dashboard/teams");
  });

  app.post<{ Params: TeamParams }>("/dashboard/teams/:teamId/settings/rotate", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId } = request.params;
    const answer = await ctx.api<{ webhookSecret: string; previousValidUntil: string | null }>(
      "POST",
      `/teams/${encodeURIComponent(teamId)}/webhook-secret/rotate`,
      defined({ graceSeconds: integerField(ctx.form, "graceSeconds") }),
    );
    if (!answer.ok) return sendSettingsPage(ctx, teamId, answer.error);
    const until = answer.body.previousValidUntil;
    ctx.session.flash = {
      kind: "secret",
      title: "New webhook secret",
      secret: answer.body.webhookSecret,
      note: until
        ? `The previous secret keeps verifying until ${until}: move every sender over before then.`
        : "The previous secret stopped verifying at once.",
    };
    return seeOther(reply, teamPath(teamId, "/settings"));
  });
}
