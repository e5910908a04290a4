import { SILENCE_LIMITS } from "@pulsegate/contract/limits";
import type { FastifyInstance } from "fastify";
import { type ApiError, fail, must } from "../admin-client.ts";
import { sendConfirmPage } from "../confirm-page.ts";
import { contextOf, type PageContext, seeOther } from "../context.ts";
import type { DashboardDeps } from "../dashboard-deps.ts";
import { defined, jsonField, textField, utcDateTimeField } from "../form-values.ts";
import { badge, time } from "../format.ts";
import { html } from "../html.ts";
import { csrfField, errorBlock, teamPath } from "../layout.ts";
import type { Monitor, Silence, Team, Webhook } from "../resources.ts";
import { loadTeam, sendTeamPage } from "../team-page.ts";

type TeamParams = { teamId: string };
type SilenceParams = TeamParams & { silenceId: string };

const silencesPath = (teamId: string, rest = "") => teamPath(teamId, `/silences${rest}`);

/** "2026-03-01T02:00", as a datetime-local field shows an instant in UTC. */
const localUtc = (at: Date) => at.toISOString().slice(0, 16);

/** Where a silence is in its life: on now, to come, or over (a recurring one is never over). */
function stateOf(silence: Silence): string {
  if (silence.active) return "active";
  if (silence.recurrence || Date.parse(silence.startsAt ?? "") > Date.now()) return "scheduled";
  return "ended";
}

function window(silence: Silence) {
  const every = silence.recurrence ? html` <span class="muted">(repeats ${silence.recurrence}, UTC)</span>` : null;
  return html`${time(silence.startsAt)} to ${time(silence.endsAt)}${every}`;
}

/** What a silence matches, named where a source is the team's webhook or monitor. */
function matchersOf(silence: Silence, names: Map<string, string>) {
  const { sourceIds, groupKeyPrefix, metadata } = silence.matchers;
  const parts = [
    sourceIds.length > 0 ? html`from ${sourceIds.map((id) => names.get(id) ?? id).join(", ")}` : null,
    groupKeyPrefix ? html`group key starting <code>${groupKeyPrefix}</code>` : null,
    Object.keys(metadata).length > 0 ? html`metadata <code>${JSON.stringify(metadata)}</code>` : null,
  ].filter((part) => part !== null);
  if (parts.length === 0) return html`<span class="muted">every alert of the team</span>`;
  return parts.map((part, index) => html`${index > 0 ? "; " : null}${part}`);
}

function silenceTable(ctx: PageContext, team: Team, silences: Silence[], names: Map<string, string>) {
  if (silences.length === 0) {
    return html`<p class="empty">No silences. Create one below for a maintenance window: alerts it matches are still
      recorded, but nobody is notified.</p>`;
  }
  return html`<div class="table-wrap"><table>
    <caption>Maintenance windows and silences of ${team.name}</caption>
    <thead><tr><th scope="col">Name</th><th scope="col">State</th><th scope="col">Window</th><th scope="col">Matches</th><th scope="col"><span class="offscreen">Actions</span></th></tr></thead>
    <tbody>
      ${silences.map(
        (silence) => html`<tr>
          <td>${silence.name}</td>
          <td>${badge(stateOf(silence))}</td>
          <td>${window(silence)}</td>
          <td>${matchersOf(silence, names)}</td>
          <td class="row-actions">${
            ctx.canWrite
              ? html`<a class="button small danger" href=${silencesPath(team.id, `/${encodeURIComponent(silence.id)}/delete`)} aria-label=${`Delete ${silence.name}`}>Delete</a>`
              : null
          }</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

function createForm(
  ctx: PageContext,
  team: Team,
  sources: { id: string; name: string; kind: string }[],
  error?: ApiError,
) {
  const form = ctx.form;
  const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const chosen = new Set(form.getAll("sourceIds"));
  return html`<h2 id="create-silence">Create a silence</h2>
    <form method="post" action=${silencesPath(team.id)} aria-labelledby="create-silence">
      ${csrfField(ctx.session)} ${errorBlock(error)}
      <div class="fields">
        <div><label for="silence-name">Name</label><input id="silence-name" name="name" required maxlength=${SILENCE_LIMITS.nameMaxLength} value=${form.get("name") ?? ""} /></div>
        <div><label for="silence-starts">Starts (UTC)</label><input id="silence-starts" name="startsAt" type="datetime-local" required value=${form.get("startsAt") ?? localUtc(now)} /></div>
        <div><label for="silence-ends">Ends (UTC)</label><input id="silence-ends" name="endsAt" type="datetime-local" required value=${form.get("endsAt") ?? localUtc(new Date(now.getTime() + 3_600_000))} /></div>
        <div><label for="silence-recurrence">Repeats</label>
          <select id="silence-recurrence" name="recurrence">
            ${[
              ["", "once"],
              ["daily", "every day"],
              ["weekly", "every week"],
            ].map(
              ([value, label]) =>
                html`<option value=${value} selected=${(form.get("recurrence") ?? "") === value}>${label}</option>`,
            )}
          </select></div>
        <div><label for="silence-sources">Only alerts from</label>
          <select id="silence-sources" name="sourceIds" multiple size=${Math.min(6, Math.max(2, sources.length))}>
            ${sources.map((source) => html`<option value=${source.id} selected=${chosen.has(source.id)}>${source.name} (${source.kind})</option>`)}
          </select>
          <p class="hint">None chosen: from any webhook or monitor.</p></div>
        <div><label for="silence-prefix">Group key starts with</label><input id="silence-prefix" name="groupKeyPrefix" maxlength=${SILENCE_LIMITS.groupKeyPrefixMaxLength} value=${form.get("groupKeyPrefix") ?? ""} /></div>
        <div><label for="silence-metadata">Metadata equals (JSON)</label><textarea id="silence-metadata" name="metadata" rows="2" placeholder='{"env": "staging"}'>${form.get("metadata") ?? ""}</textarea></div>
      </div>
      <p class="hint">Every condition given must hold. Alerts it matches are recorded and shown, marked silenced; nobody is notified of them.</p>
      <p><button type="submit">Create silence</button></p>
    </form>`;
}

function bodyOf(form: URLSearchParams) {
  const sourceIds = form.getAll("sourceIds").filter((id) => id !== "");
  const matchers = defined({
    sourceIds: sourceIds.length > 0 ? sourceIds : undefined,
    groupKeyPrefix: textField(form, "groupKeyPrefix"),
    metadata: jsonField(form, "metadata"),
  });
  return defined({
    name: textField(form, "name") ?? "",
    startsAt: utcDateTimeField(form, "startsAt") ?? "",
    endsAt: utcDateTimeField(form, "endsAt") ?? "",
    recurrence: textField(form, "recurrence"),
    matchers: Object.keys(matchers).length > 0 ? matchers : undefined,
  });
}

/** The team's silences, and the names of its webhooks and monitors (sources to choose, and to show). */
async function loadSilences(ctx: PageContext, teamId: string) {
  const base = `/teams/${encodeURIComponent(teamId)}`;
  const [silences, webhooks, monitors] = await Promise.all([
    ctx.api<{ silences: Silence[] }>("GET", `${base}/silences`),
    ctx.api<{ webhooks: Webhook[] }>("GET", `${base}/webhooks`),
    ctx.api<{ monitors: Monitor[] }>("GET", `${base}/monitors`),
  ]);
  const sources = [
    ...must(webhooks).webhooks.map((webhook) => ({ id: webhook.id, name: webhook.name, kind: "webhook" })),
    ...must(monitors).monitors.map((monitor) => ({ id: monitor.id, name: monitor.name, kind: "monitor" })),
  ];
  return { silences: must(silences).silences, sources };
}

export function silencePages(app: FastifyInstance, { gateway }: DashboardDeps): void {
  const page = async (ctx: PageContext, teamId: string, error?: ApiError) => {
    const [team, { silences, sources }] = await Promise.all([loadTeam(ctx, teamId), loadSilences(ctx, teamId)]);
    const names = new Map(sources.map((source) => [source.id, source.name]));
    return sendTeamPage(ctx, {
      team,
      tab: "silences",
      title: "Silences",
      children: html`<h1>Silences</h1>
        ${silenceTable(ctx, team, silences, names)}
        ${ctx.canWrite ? createForm(ctx, team, sources, error) : null}`,
      ...(error ? { status: error.status } : {}),
    });
  };

  app.get<{ Params: TeamParams }>("/dashboard/teams/:teamId/silences", async (request, reply) =>
    page(contextOf(gateway, request, reply), request.params.teamId),
  );

  app.post<{ Params: TeamParams }>("/dashboard/teams/:teamId/silences", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId } = request.params;
    const answer = await ctx.api<{ silence: Silence }>(
      "POST",
      `/teams/${encodeURIComponent(teamId)}/silences`,
      bodyOf(ctx.form),
    );
    if (!answer.ok) return page(ctx, teamId, answer.error);
    ctx.session.flash = { kind: "notice", text: `Silence ${answer.body.silence.name} created.` };
    return seeOther(reply, silencesPath(teamId));
  });

  const confirmDelete = async (ctx: PageContext, teamId: string, silenceId: string, error?: ApiError) => {
    const [team, { silences }] = await Promise.all([loadTeam(ctx, teamId), loadSilences(ctx, teamId)]);
    const silence = silences.find((one) => one.id === silenceId);
    if (!silence) fail({ status: 404, error: "No silence has that id.", code: "not_found" });
    return sendConfirmPage(ctx, {
      team,
      tab: "silences",
      question: `Delete silence ${silence.name}?`,
      consequences: [
        "From now on, alerts it would have matched notify as usual.",
        "Alerts it already silenced stay silenced (their resolve is not sent either).",
      ],
      action: silencesPath(teamId, `/${encodeURIComponent(silenceId)}/delete`),
      submit: "Delete silence",
      back: silencesPath(teamId),
      error,
    });
  };

  app.get<{ Params: SilenceParams }>("/dashboard/teams/:teamId/silences/:silenceId/delete", async (request, reply) => {
    const { teamId, silenceId } = request.params;
    return confirmDelete(contextOf(gateway, request, reply), teamId, silenceId);
  });

  app.post<{ Params: SilenceParams }>("/dashboard/teams/:teamId/silences/:silenceId/delete", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId, silenceId } = request.params;
    const path = `/teams/${encodeURIComponent(teamId)}/silences/${encodeURIComponent(silenceId)}`;
    const answer = await ctx.api("DELETE", path);
    if (!answer.ok) return confirmDelete(ctx, teamId, silenceId, answer.error);
    ctx.session.flash = { kind: "notice", text: "Silence deleted: matching alerts notify again." };
    return seeOther(reply, silencesPath(teamId));
  });
}
