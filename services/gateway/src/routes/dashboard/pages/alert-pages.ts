import { ALERT_STATUSES, type AlertStatus } from "@pulsegate/contract/vocabulary";
import type { FastifyInstance } from "fastify";
import { must, requireTeamOf } from "../admin-client.ts";
import { backTo, contextOf, type PageContext, seeOther } from "../context.ts";
import type { DashboardDeps } from "../dashboard-deps.ts";
import { badge, time } from "../format.ts";
import { html } from "../html.ts";
import { actionButton, live, teamPath } from "../layout.ts";
import type { Alert, Delivery, Occurrence, Team } from "../resources.ts";
import { loadTeam, sendTeamPage } from "../team-page.ts";

type TeamParams = { teamId: string };
type AlertParams = TeamParams & { alertId: string };

const alertPath = (alert: Alert, rest = "") => teamPath(alert.teamId, `/alerts/${encodeURIComponent(alert.id)}${rest}`);

function alertActions(ctx: PageContext, alert: Alert) {
  if (!ctx.canWrite) return null;
  return html`${alert.status === "open" ? actionButton(ctx.session, alertPath(alert, "/acknowledge"), "Acknowledge", "button small secondary") : null}
    ${alert.status !== "resolved" ? actionButton(ctx.session, alertPath(alert, "/resolve"), "Resolve", "button small") : null}`;
}

const EMPTY: Record<AlertStatus, string> = {
  open: "Nothing open. Alerts appear here when a webhook is triggered or a monitor goes down.",
  acknowledged: "Nothing acknowledged: someone acknowledges an open alert to say they are on it.",
  resolved: "Nothing resolved yet.",
};

function alertTable(ctx: PageContext, team: Team, status: AlertStatus, alerts: Alert[]) {
  if (alerts.length === 0) {
    const hint =
      status === "open"
        ? html` Set up a <a href=${teamPath(team.id, "/webhooks")}>webhook</a> or a <a href=${teamPath(team.id, "/monitors")}>monitor</a> to start.`
        : null;
    return html`<p class="empty">${EMPTY[status]}${hint}</p>`;
  }
  return html`<div class="table-wrap"><table class="cards">
    <caption>${status} alerts, newest first</caption>
    <thead><tr><th scope="col">Alert</th><th scope="col">Severity</th><th scope="col">Status</th><th scope="col">Count</th><th scope="col">Source</th><th scope="col">Last seen</th><th scope="col"><span class="offscreen">Actions</span></th></tr></thead>
    <tbody>
      ${alerts.map(
        (alert) => html`<tr>
          <td><a href=${alertPath(alert)}>${alert.title}</a>${alert.groupKey ? html`<div class="hint">key <code>${alert.groupKey}</code></div>` : null}</td>
          <td data-label="Severity">${badge(alert.severity)}</td>
          <td data-label="Status">${badge(alert.status)}</td>
          <td data-label="Occurrences">${alert.occurrenceCount}</td>
          <td data-label="Source">${alert.source ?? "—"}</td>
          <td data-label="Last seen">${time(alert.lastSeenAt)}</td>
          <td class="row-actions">${alertActions(ctx, alert)}</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

function deliveryTable(ctx: PageContext, alert: Alert, deliveries: Delivery[]) {
  if (deliveries.length === 0) {
    return html`<p class="empty">No notifications for this alert. Add a channel under <a href=${teamPath(alert.teamId, "/channels")}>Channels</a> to be paged.</p>`;
  }
  return html`<div class="table-wrap"><table>
    <caption>Notification deliveries</caption>
    <thead><tr><th scope="col">Channel</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last attempt</th><th scope="col"><span class="offscreen">Actions</span></th></tr></thead>
    <tbody>
      ${deliveries.map(
        (delivery) => html`<tr>
          <td>${delivery.channelName} <span class="muted">(${delivery.channelKind ?? "?"})</span></td>
          <td>${delivery.eventType}</td>
          <td>${badge(delivery.status)}${delivery.lastError ? html`<div class="hint">${delivery.lastError}</div>` : null}</td>
          <td>${delivery.attempts} of ${delivery.maxAttempts}${delivery.lastStatusCode ? html` <span class="muted">(HTTP ${delivery.lastStatusCode})</span>` : null}</td>
          <td>${time(delivery.lastAttemptAt)}</td>
          <td>${
            ctx.canWrite && delivery.status === "failed"
              ? actionButton(
                  ctx.session,
                  teamPath(alert.teamId, `/deliveries/${encodeURIComponent(delivery.id)}/retry`),
                  "Retry",
                  "button small",
                )
              : null
          }</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

function occurrenceTable(occurrences: Occurrence[]) {
  return html`<div class="table-wrap"><table>
    <caption>Occurrences, newest first</caption>
    <thead><tr><th scope="col">Received</th><th scope="col">Title</th><th scope="col">Severity</th><th scope="col">Source</th><th scope="col">Metadata</th></tr></thead>
    <tbody>
      ${occurrences.map(
        (occurrence) => html`<tr>
          <td>${time(occurrence.receivedAt)}</td>
          <td>${occurrence.title}${occurrence.description ? html`<div class="hint">${occurrence.description}</div>` : null}</td>
          <td>${badge(occurrence.severity)}</td>
          <td>${occurrence.source ?? "—"}</td>
          <td>${occurrence.metadata && Object.keys(occurrence.metadata).length > 0 ? html`<code>${JSON.stringify(occurrence.metadata)}</code>` : html`<span class="muted">—</span>`}</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

export function alertPages(app: FastifyInstance, { gateway }: DashboardDeps): void {
  app.get<{ Params: TeamParams; Querystring: { status?: string; cursor?: string } }>(
    "/dashboard/teams/:teamId/alerts",
    async (request, reply) => {
      const ctx = contextOf(gateway, request, reply);
      const { teamId } = request.params;
      const status: AlertStatus = ALERT_STATUSES.find((name) => name === request.query.status) ?? "open";
      const cursor = request.query.cursor ? `&cursor=${encodeURIComponent(request.query.cursor)}` : "";
      const [team, list] = await Promise.all([
        loadTeam(ctx, teamId),
        ctx.api<{ alerts: Alert[]; nextCursor: string | null }>(
          "GET",
          `/teams/${encodeURIComponent(teamId)}/alerts?status=${status}&limit=100${cursor}`,
        ),
      ]);
      const page = must(list);
      const url = teamPath(teamId, `/alerts?status=${status}${cursor}`);
      const older = page.nextCursor
        ? teamPath(teamId, `/alerts?status=${status}&cursor=${encodeURIComponent(page.nextCursor)}`)
        : undefined;
      return sendTeamPage(ctx, {
        team,
        tab: "alerts",
        title: "Alerts",
        children: html`<h1>Alerts</h1>
        <nav aria-label="Alert status" class="actions">
          ${ALERT_STATUSES.map(
            (name) =>
              html`<a class=${name === status ? "button small" : "button small secondary"} href=${teamPath(teamId, `/alerts?status=${name}`)} aria-current=${name === status ? "page" : undefined}>${name}</a>`,
          )}
        </nav>
        ${live("alerts-live", url, alertTable(ctx, team, status, page.alerts))}
        ${cursor ? html`<p><a href=${teamPath(teamId, `/alerts?status=${status}`)}>Newest</a></p>` : null}
        ${older ? html`<p><a href=${older}>Older ${status} alerts</a></p>` : null}`,
      });
    },
  );

  app.get<{ Params: AlertParams }>("/dashboard/teams/:teamId/alerts/:alertId", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId, alertId } = request.params;
    const path = `/alerts/${encodeURIComponent(alertId)}`;
    const [team, alertAnswer, occurrences, deliveries] = await Promise.all([
      loadTeam(ctx, teamId),
      ctx.api<{ alert: Alert }>("GET", path),
      ctx.api<{ occurrences: Occurrence[] }>("GET", `${path}/occurrences?limit=50`),
      ctx.api<{ deliveries: Delivery[] }>("GET", `${path}/deliveries`),
    ]);
    const alert = requireTeamOf(must(alertAnswer).alert, teamId, "alert");
    return sendTeamPage(ctx, {
      team,
      tab: "alerts",
      title: alert.title,
      children: html`<p><a href=${teamPath(teamId, `/alerts?status=${alert.status}`)}>← Alerts</a></p>
        ${live(
          "alert-live",
          alertPath(alert),
          html`<h1>${alert.title}</h1>
            <div class="actions">${badge(alert.status)} ${badge(alert.severity)} ${alertActions(ctx, alert)}</div>
            ${alert.description ? html`<p>${alert.description}</p>` : null}
            <dl class="facts">
              <dt>Occurrences</dt><dd>${alert.occurrenceCount}</dd>
              <dt>Source</dt><dd>${alert.source ?? "—"}</dd>
              <dt>Group key</dt><dd>${alert.groupKey ? html`<code>${alert.groupKey}</code>` : html`<span class="muted">none</span>`}</dd>
              <dt>First seen</dt><dd>${time(alert.firstSeenAt)}</dd>
              <dt>Last seen</dt><dd>${time(alert.lastSeenAt)}</dd>
              <dt>Acknowledged</dt><dd>${time(alert.acknowledgedAt, "not yet")}${alert.acknowledgedBy ? ` by ${alert.acknowledgedBy}` : null}</dd>
              <dt>Resolved</dt><dd>${time(alert.resolvedAt, "not yet")}${alert.resolvedBy ? ` by ${alert.resolvedBy}` : null}</dd>
            </dl>
            <h2>Notifications</h2>
            ${deliveryTable(ctx, alert, must(deliveries).deliveries)}
            <h2>Occurrences</h2>
            ${occurrenceTable(must(occurrences).occurrences)}`,
        )}`,
    });
  });

  for (const verb of ["acknowledge", "resolve"] as const) {
    app.post<{ Params: AlertParams }>(`/dashboard/teams/:teamId/alerts/:alertId/${verb}`, async (request, reply) => {
      const ctx = contextOf(gateway, request, reply);
      const { teamId, alertId } = request.params;
      const path = `/alerts/${encodeURIComponent(alertId)}`;
      requireTeamOf(must(await ctx.api<{ alert: Alert }>("GET", path)).alert, teamId, "alert");
      const answer = await ctx.api<{ alert: Alert }>("POST", `${path}/${verb}`, {});
      ctx.session.flash = answer.ok
        ? { kind: "notice", text: verb === "acknowledge" ? "Alert acknowledged." : "Alert resolved." }
        : { kind: "error", text: answer.error.error };
      return seeOther(reply, backTo(request, teamPath(teamId, `/alerts/${encodeURIComponent(alertId)}`)));
    });
  }

  app.post<{ Params: { teamId: string; deliveryId: string } }>(
    "/dashboard/teams/:teamId/deliveries/:deliveryId/retry",
    async (request, reply) => {
      const ctx = contextOf(gateway, request, reply);
      const { teamId, deliveryId } = request.params;
      const answer = await ctx.api<{ delivery: Delivery }>(
        "POST",
        `/deliveries/${encodeURIComponent(deliveryId)}/retry`,
        {},
      );
      if (!answer.ok) {
        ctx.session.flash = { kind: "error", text: answer.error.error };
        return seeOther(reply, teamPath(teamId, "/alerts"));
      }
      ctx.session.flash = { kind: "notice", text: "Delivery queued again: same delivery id, fresh attempts." };
      return seeOther(reply, teamPath(teamId, `/alerts/${encodeURIComponent(answer.body.delivery.alertId)}`));
    },
  );
}
