import { MONITOR_LIMITS } from "@pulsegate/contract/limits";
import { SEVERITIES } from "@pulsegate/contract/vocabulary";
import type { FastifyInstance } from "fastify";
import { type ApiError, must, requireTeamOf } from "../admin-client.ts";
import { sendConfirmPage } from "../confirm-page.ts";
import { backTo, contextOf, type PageContext, seeOther } from "../context.ts";
import type { DashboardDeps } from "../dashboard-deps.ts";
import { booleanField, defined, integerField, textField } from "../form-values.ts";
import { badge, duration, elapsed, time } from "../format.ts";
import { html } from "../html.ts";
import { actionButton, copyable, csrfField, errorBlock, live, teamPath } from "../layout.ts";
import type { Monitor, Ping, Team } from "../resources.ts";
import { pingSnippets, standardWebhooksSnippets } from "../snippets.ts";
import { loadTeam, sendTeamPage } from "../team-page.ts";

type TeamParams = { teamId: string };
type MonitorParams = TeamParams & { monitorId: string };

const monitorPath = (monitor: Monitor, rest = "") =>
  teamPath(monitor.teamId, `/monitors/${encodeURIComponent(monitor.id)}${rest}`);

/** When the next ping is expected; past it plus the grace period the sweeper marks the monitor down. */
function nextDue(monitor: Monitor) {
  if (monitor.status === "paused") return html`<span class="muted">paused</span>`;
  if (!monitor.monitoringActive || !monitor.lastPingAt) return html`<span class="muted">after its first ping</span>`;
  const due =
    monitor.nextDueAt !== undefined
      ? monitor.nextDueAt
      : monitor.intervalSeconds === null
        ? null
        : new Date(Date.parse(monitor.lastPingAt) + monitor.intervalSeconds * 1_000).toISOString();
  if (!due) return html`<span class="muted">—</span>`;
  const late = Date.parse(due) + monitor.graceSeconds * 1_000 < Date.now();
  return html`${time(due)}${late ? html` <strong>(overdue)</strong>` : null}`;
}

/** "every 5 min", or the cron schedule of a scheduled monitor. */
function expected(monitor: Monitor) {
  if (monitor.schedule)
    return html`<code>${monitor.schedule}</code>${monitor.timezone ? ` (${monitor.timezone})` : ""}`;
  return `every ${duration(monitor.intervalSeconds ?? 0)}`;
}

function pauseOrResume(ctx: PageContext, monitor: Monitor) {
  if (!ctx.canWrite) return null;
  return monitor.status === "paused"
    ? actionButton(ctx.session, monitorPath(monitor, "/resume"), "Resume", "button small", `Resume ${monitor.name}`)
    : actionButton(
        ctx.session,
        monitorPath(monitor, "/pause"),
        "Pause",
        "button small secondary",
        `Pause ${monitor.name}`,
      );
}

function monitorTable(ctx: PageContext, team: Team, monitors: Monitor[]) {
  if (monitors.length === 0) {
    return html`<p class="empty">No monitors yet. Create one below for each cron job or worker that should check in,
      then ping its URL at the end of every run.</p>`;
  }
  return html`<div class="table-wrap"><table class="cards">
    <caption>Heartbeat monitors of ${team.name}</caption>
    <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Last ping</th><th scope="col">Next due</th><th scope="col">Expected</th><th scope="col"><span class="offscreen">Actions</span></th></tr></thead>
    <tbody>
      ${monitors.map(
        (monitor) => html`<tr>
          <td><a href=${monitorPath(monitor)}>${monitor.name}</a></td>
          <td data-label="Status">${badge(monitor.status)}${monitor.lastReason && monitor.status === "down" ? html`<div class="hint">${monitor.lastReason}</div>` : null}</td>
          <td data-label="Last ping">${time(monitor.lastPingAt)}</td>
          <td data-label="Next due">${nextDue(monitor)}</td>
          <td data-label="Expected">${expected(monitor)} <span class="muted">+ ${duration(monitor.graceSeconds)} grace</span></td>
          <td class="row-actions">${pauseOrResume(ctx, monitor)}</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

function createForm(ctx: PageContext, team: Team, error?: ApiError) {
  const form = ctx.form;
  return html`<h2 id="create-monitor">Create a monitor</h2>
    <form method="post" action=${teamPath(team.id, "/monitors")} aria-labelledby="create-monitor">
      ${csrfField(ctx.session)} ${errorBlock(error)}
      <div class="fields">
        <div><label for="monitor-name">Name</label><input id="monitor-name" name="name" required maxlength=${MONITOR_LIMITS.nameMaxLength} value=${form.get("name") ?? ""} /></div>
        <div><label for="monitor-interval">Expected every (seconds)</label><input id="monitor-interval" name="intervalSeconds" inputmode="numeric" placeholder="300" value=${form.get("intervalSeconds") ?? ""} /></div>
        <div><label for="monitor-grace">Grace (seconds)</label><input id="monitor-grace" name="graceSeconds" inputmode="numeric" placeholder="60" value=${form.get("graceSeconds") ?? ""} /></div>
        <div><label for="monitor-severity">Incident severity</label>
          <select id="monitor-severity" name="severity">
            ${SEVERITIES.map((severity) => html`<option value=${severity} selected=${severity === (form.get("severity") ?? MONITOR_LIMITS.defaultSeverity)}>${severity}</option>`)}
          </select></div>
      </div>
      <p><button type="submit">Create monitor</button></p>
    </form>`;
}

/** What the edit form shows: the monitor's settings, or what was just submitted. */
type MonitorValues = {
  name: string;
  intervalSeconds: string;
  schedule: string;
  timezone: string;
  graceSeconds: string;
  severity: string;
  maxDurationSeconds: string;
  repeatIntervalSeconds: string;
  requireTimestamp: boolean;
};

const text = (value: number | string | null | undefined) =>
  value === null || value === undefined ? "" : String(value);

const valuesOf = (monitor: Monitor): MonitorValues => ({
  name: monitor.name,
  intervalSeconds: text(monitor.intervalSeconds),
  schedule: text(monitor.schedule),
  timezone: text(monitor.timezone),
  graceSeconds: text(monitor.graceSeconds),
  severity: monitor.severity,
  maxDurationSeconds: text(monitor.maxDurationSeconds),
  repeatIntervalSeconds: text(monitor.repeatIntervalSeconds),
  requireTimestamp: monitor.requireTimestamp ?? false,
});

const submitted = (form: URLSearchParams): MonitorValues => ({
  name: form.get("name") ?? "",
  intervalSeconds: form.get("intervalSeconds") ?? "",
  schedule: form.get("schedule") ?? "",
  timezone: form.get("timezone") ?? "",
  graceSeconds: form.get("graceSeconds") ?? "",
  severity: form.get("severity") ?? MONITOR_LIMITS.defaultSeverity,
  maxDurationSeconds: form.get("maxDurationSeconds") ?? "",
  repeatIntervalSeconds: form.get("repeatIntervalSeconds") ?? "",
  requireTimestamp: booleanField(form, "requireTimestamp") ?? false,
});

/**
 * The edit form as a PATCH: every field is sent, empty ones as none where a monitor may have none
 * (no maximum, no reminders, the default zone). A schedule makes it a scheduled monitor, none an
 * interval one; whatever is refused comes back with the API's own message.
 */
function patchOf(form: URLSearchParams) {
  const schedule = textField(form, "schedule");
  return defined({
    name: textField(form, "name") ?? "",
    ...(schedule ? { schedule } : { schedule: null, intervalSeconds: integerField(form, "intervalSeconds") }),
    timezone: textField(form, "timezone") ?? null,
    graceSeconds: integerField(form, "graceSeconds"),
    severity: textField(form, "severity"),
    maxDurationSeconds: integerField(form, "maxDurationSeconds") ?? null,
    repeatIntervalSeconds: integerField(form, "repeatIntervalSeconds") ?? null,
    requireTimestamp: booleanField(form, "requireTimestamp"),
  });
}

function editForm(ctx: PageContext, monitor: Monitor, values: MonitorValues, error?: ApiError) {
  const id = (name: string) => `edit-${name}`;
  return html`<h2 id="edit-monitor">Edit</h2>
    <form method="post" action=${monitorPath(monitor)} aria-labelledby="edit-monitor">
      ${csrfField(ctx.session)} ${errorBlock(error)}
      <div class="fields">
        <div><label for=${id("name")}>Name</label><input id=${id("name")} name="name" required maxlength=${MONITOR_LIMITS.nameMaxLength} value=${values.name} /></div>
        <div><label for=${id("interval")}>Expected every (seconds)</label><input id=${id("interval")} name="intervalSeconds" inputmode="numeric" value=${values.intervalSeconds} />
          <p class="hint">Unused while a schedule is set.</p></div>
        <div><label for=${id("schedule")}>Schedule (cron, instead)</label><input id=${id("schedule")} name="schedule" placeholder="15 3 * * *" maxlength=${MONITOR_LIMITS.scheduleMaxLength} value=${values.schedule} />
          <p class="hint">Five fields; empty: expected every N seconds.</p></div>
        <div><label for=${id("timezone")}>Time zone of the schedule</label><input id=${id("timezone")} name="timezone" placeholder="UTC" maxlength=${MONITOR_LIMITS.timezoneMaxLength} value=${values.timezone} /></div>
        <div><label for=${id("grace")}>Grace (seconds)</label><input id=${id("grace")} name="graceSeconds" inputmode="numeric" value=${values.graceSeconds} /></div>
        <div><label for=${id("severity")}>Incident severity</label>
          <select id=${id("severity")} name="severity">
            ${SEVERITIES.map((severity) => html`<option value=${severity} selected=${severity === values.severity}>${severity}</option>`)}
          </select></div>
        <div><label for=${id("max-duration")}>Maximum run (seconds)</label><input id=${id("max-duration")} name="maxDurationSeconds" inputmode="numeric" placeholder="none" value=${values.maxDurationSeconds} />
          <p class="hint">A run (start signal to up ping) longer than this is down; empty: no maximum.</p></div>
        <div><label for=${id("repeat")}>Remind every (seconds)</label><input id=${id("repeat")} name="repeatIntervalSeconds" inputmode="numeric" placeholder="never" value=${values.repeatIntervalSeconds} />
          <p class="hint">While its incident stays open and unacknowledged; empty: no reminders.</p></div>
      </div>
      <input type="hidden" name="requireTimestamp" value="false" />
      <label class="check"><input type="checkbox" name="requireTimestamp" value="true" checked=${values.requireTimestamp} /> Require X-Webhook-Timestamp (replay protection)</label>
      <p class="hint">A shorter interval or grace applies from the last ping: a monitor already later than that goes down at the next sweep.</p>
      <p><button type="submit">Save monitor</button></p>
    </form>`;
}

/** The last run's duration, or the one under way. */
function lastRun(monitor: Monitor) {
  const running = monitor.runStartedAt ? html`running since ${time(monitor.runStartedAt)}` : null;
  const last =
    monitor.lastDurationMs === null || monitor.lastDurationMs === undefined ? null : elapsed(monitor.lastDurationMs);
  if (!running && !last)
    return html`<span class="muted">no run timed yet (send a start signal, then the up ping)</span>`;
  return html`${last ? html`last run took ${last}` : null}${running && last ? "; " : null}${running}${
    monitor.maxDurationSeconds
      ? html` <span class="muted">(maximum ${duration(monitor.maxDurationSeconds)})</span>`
      : null
  }`;
}

/** The public status badge: the image (from this dashboard's own origin), its URL and a Markdown line. */
function badgeFacts(monitor: Monitor) {
  if (!monitor.badgeUrl) return null;
  const path = new URL(monitor.badgeUrl).pathname;
  return html`<dt>Status badge</dt>
    <dd><img src=${path} alt=${`Status badge of ${monitor.name}`} height="20" />
      ${copyable("badge-url", monitor.badgeUrl, "the badge URL")}
      ${copyable("badge-markdown", `![${monitor.name}](${monitor.badgeUrl})`, "the badge as Markdown")}
      <p class="hint">Public and read-only: shows the name and the status, nothing else.</p></dd>`;
}

function pingTable(pings: Ping[]) {
  if (pings.length === 0)
    return html`<p class="empty">No pings yet. Send one with the snippet below: the first ping starts monitoring.</p>`;
  return html`<div class="table-wrap"><table>
    <caption>Recent pings, newest first</caption>
    <thead><tr><th scope="col">Received</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Metadata</th></tr></thead>
    <tbody>
      ${pings.map(
        (ping) => html`<tr>
          <td>${time(ping.receivedAt)}</td>
          <td>${badge(ping.status)}</td>
          <td>${ping.reason ?? html`<span class="muted">—</span>`}</td>
          <td>${ping.metadata && Object.keys(ping.metadata).length > 0 ? html`<code>${JSON.stringify(ping.metadata)}</code>` : html`<span class="muted">—</span>`}</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

/** How to ping, by the monitor's scheme: the interface's hex header, or Standard Webhooks with its library. */
function pingHelp(monitor: Monitor) {
  if (monitor.signatureScheme === "standard-webhooks") {
    const snippets = standardWebhooksSnippets(monitor.pingEndpoint, { status: "up" });
    return html`<p class="hint">Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code>, signed with the team's <code>whsec_</code> key (shown once beside the webhook secret). A repeated webhook-id is recorded once.</p>
    <details open><summary>Node</summary>${copyable("snippet-ping-node", snippets.node, "the Node example")}</details>
    <details><summary>Python</summary>${copyable("snippet-ping-python", snippets.python, "the Python example")}</details>`;
  }
  const snippets = pingSnippets(monitor.pingEndpoint);
  return html`<details open><summary>curl</summary>${copyable("snippet-ping-curl", snippets.curl, "the curl example")}</details>
    <details><summary>cron</summary>${copyable("snippet-cron", snippets.cron, "the cron example")}</details>`;
}

function monitorPage(
  ctx: PageContext,
  team: Team,
  monitor: Monitor,
  pings: Ping[],
  url: string,
  edit: { values: MonitorValues; error?: ApiError | undefined },
) {
  return html`<p><a href=${teamPath(team.id, "/monitors")}>← Monitors</a></p>
    ${live(
      "monitor-live",
      url,
      html`<h1>${monitor.name} ${badge(monitor.status)}</h1>
        <div class="actions">${pauseOrResume(ctx, monitor)}${
          ctx.canWrite
            ? html`<a class="button small danger" href=${monitorPath(monitor, "/delete")} aria-label=${`Delete ${monitor.name}`}>Delete</a>`
            : null
        }</div>
        <dl class="facts">
          <dt>Last ping</dt><dd>${time(monitor.lastPingAt)}${monitor.lastReason ? html` — ${monitor.lastReason}` : null}</dd>
          <dt>Next due</dt><dd>${nextDue(monitor)}</dd>
          <dt>Expected</dt><dd>${expected(monitor)}, ${duration(monitor.graceSeconds)} grace; incidents ${badge(monitor.severity)}</dd>
          <dt>Run duration</dt><dd>${lastRun(monitor)}</dd>
        </dl>
        <h2>Pings</h2>
        ${pingTable(pings)}`,
    )}
    <h2>Ping it</h2>
    <dl class="facts"><dt>Ping URL</dt><dd>${copyable("ping-url", monitor.pingEndpoint, "the ping URL")}</dd>${badgeFacts(monitor)}</dl>
    ${pingHelp(monitor)}
    ${ctx.canWrite ? editForm(ctx, monitor, edit.values, edit.error) : null}`;
}

async function loadMonitor(ctx: PageContext, teamId: string, monitorId: string): Promise<Monitor> {
  const answer = await ctx.api<{ monitor: Monitor }>("GET", `/monitors/${encodeURIComponent(monitorId)}`);
  return requireTeamOf(must(answer).monitor, teamId, "monitor");
}

export function monitorPages(app: FastifyInstance, { gateway }: DashboardDeps): void {
  const listPage = async (ctx: PageContext, teamId: string, error?: ApiError) => {
    const [team, list] = await Promise.all([
      loadTeam(ctx, teamId),
      ctx.api<{ monitors: Monitor[] }>("GET", `/teams/${encodeURIComponent(teamId)}/monitors`),
    ]);
    return sendTeamPage(ctx, {
      team,
      tab: "monitors",
      title: "Monitors",
      children: html`<h1>Monitors</h1>
        ${live("monitors-live", teamPath(teamId, "/monitors"), monitorTable(ctx, team, must(list).monitors))}
        ${ctx.canWrite ? createForm(ctx, team, error) : null}`,
      ...(error ? { status: error.status } : {}),
    });
  };

  app.get<{ Params: TeamParams }>("/dashboard/teams/:teamId/monitors", async (request, reply) =>
    listPage(contextOf(gateway, request, reply), request.params.teamId),
  );

  app.post<{ Params: TeamParams }>("/dashboard/teams/:teamId/monitors", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId } = request.params;
    const form = ctx.form;
    const answer = await ctx.api<{ monitor: Monitor }>(
      "POST",
      `/teams/${encodeURIComponent(teamId)}/monitors`,
      defined({
        name: textField(form, "name") ?? "",
        intervalSeconds: integerField(form, "intervalSeconds"),
        graceSeconds: integerField(form, "graceSeconds"),
        severity: textField(form, "severity"),
      }),
    );
    if (!answer.ok) return listPage(ctx, teamId, answer.error);
    ctx.session.flash = {
      kind: "notice",
      text: `Monitor ${answer.body.monitor.name} created: it is idle until its first ping.`,
    };
    return seeOther(reply, monitorPath(answer.body.monitor));
  });

  const detailPage = async (
    ctx: PageContext,
    teamId: string,
    monitorId: string,
    edit?: { values: MonitorValues; error: ApiError },
  ) => {
    const [team, monitor, pings] = await Promise.all([
      loadTeam(ctx, teamId),
      loadMonitor(ctx, teamId, monitorId),
      ctx.api<{ pings: Ping[] }>("GET", `/monitors/${encodeURIComponent(monitorId)}/pings?limit=50`),
    ]);
    return sendTeamPage(ctx, {
      team,
      tab: "monitors",
      title: monitor.name,
      children: monitorPage(
        ctx,
        team,
        monitor,
        must(pings).pings,
        monitorPath(monitor),
        edit ?? { values: valuesOf(monitor) },
      ),
      ...(edit ? { status: edit.error.status } : {}),
    });
  };

  app.get<{ Params: MonitorParams }>("/dashboard/teams/:teamId/monitors/:monitorId", async (request, reply) => {
    const { teamId, monitorId } = request.params;
    return detailPage(contextOf(gateway, request, reply), teamId, monitorId);
  });

  app.post<{ Params: MonitorParams }>("/dashboard/teams/:teamId/monitors/:monitorId", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId, monitorId } = request.params;
    await loadMonitor(ctx, teamId, monitorId);
    const answer = await ctx.api<{ monitor: Monitor }>(
      "PATCH",
      `/monitors/${encodeURIComponent(monitorId)}`,
      patchOf(ctx.form),
    );
    if (!answer.ok) return detailPage(ctx, teamId, monitorId, { values: submitted(ctx.form), error: answer.error });
    ctx.session.flash = { kind: "notice", text: `Monitor ${answer.body.monitor.name} saved.` };
    return seeOther(reply, monitorPath(answer.body.monitor));
  });

  const confirmDelete = async (ctx: PageContext, teamId: string, monitorId: string, error?: ApiError) => {
    const [team, monitor] = await Promise.all([loadTeam(ctx, teamId), loadMonitor(ctx, teamId, monitorId)]);
    return sendConfirmPage(ctx, {
      team,
      tab: "monitors",
      question: `Delete monitor ${monitor.name}?`,
      consequences: [
        "Its ping URL and badge answer 404 from now on, on every gateway.",
        "Its pings are removed in the background; nothing is swept or raised for it any more.",
        "Its incident alerts stay with the team's alerts (resolve an open one yourself).",
        "This cannot be undone: a new monitor gets a new ping URL.",
      ],
      action: monitorPath(monitor, "/delete"),
      submit: "Delete monitor",
      back: monitorPath(monitor),
      error,
    });
  };

  app.get<{ Params: MonitorParams }>("/dashboard/teams/:teamId/monitors/:monitorId/delete", async (request, reply) => {
    const { teamId, monitorId } = request.params;
    return confirmDelete(contextOf(gateway, request, reply), teamId, monitorId);
  });

  app.post<{ Params: MonitorParams }>("/dashboard/teams/:teamId/monitors/:monitorId/delete", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId, monitorId } = request.params;
    const monitor = await loadMonitor(ctx, teamId, monitorId);
    const answer = await ctx.api("DELETE", `/monitors/${encodeURIComponent(monitorId)}`);
    if (!answer.ok) return confirmDelete(ctx, teamId, monitorId, answer.error);
    ctx.session.flash = { kind: "notice", text: `Monitor ${monitor.name} deleted.` };
    return seeOther(reply, teamPath(teamId, "/monitors"));
  });

  for (const verb of ["pause", "resume"] as const) {
    app.post<{ Params: MonitorParams }>(
      `/dashboard/teams/:teamId/monitors/:monitorId/${verb}`,
      async (request, reply) => {
        const ctx = contextOf(gateway, request, reply);
        const { teamId, monitorId } = request.params;
        await loadMonitor(ctx, teamId, monitorId);
        const monitor = must(
          await ctx.api<{ monitor: Monitor }>("POST", `/monitors/${encodeURIComponent(monitorId)}/${verb}`, {}),
        ).monitor;
        ctx.session.flash = {
          kind: "notice",
          text:
            verb === "pause"
              ? `${monitor.name} paused: its pings now answer 404.`
              : `${monitor.name} resumed: idle until its next ping.`,
        };
        return seeOther(reply, backTo(request, monitorPath(monitor)));
      },
    );
  }
}
