import { CHANNEL_LIMITS } from "@pulsegate/contract/limits";
import { SEVERITIES } from "@pulsegate/contract/vocabulary";
import type { FastifyInstance } from "fastify";
import { type ApiError, fail, must, requireTeamOf } from "../admin-client.ts";
import { contextOf, type PageContext, seeOther } from "../context.ts";
import type { DashboardDeps } from "../dashboard-deps.ts";
import { defined, textField } from "../form-values.ts";
import { badge, time } from "../format.ts";
import { html } from "../html.ts";
import { actionButton, csrfField, errorBlock, teamPath } from "../layout.ts";
import type { Channel, Policy, Team } from "../resources.ts";
import { loadTeam, sendTeamPage } from "../team-page.ts";

type TeamParams = { teamId: string };

function channelTable(ctx: PageContext, team: Team, channels: Channel[]) {
  if (channels.length === 0) {
    return html`<p class="empty">No channels yet: alerts are recorded but nobody is paged. Add a Slack incoming webhook or
      your own HTTPS endpoint below.</p>`;
  }
  return html`<div class="table-wrap"><table>
    <caption>Where ${team.name}'s alerts are sent</caption>
    <thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">URL</th><th scope="col">State</th><th scope="col">Created</th><th scope="col"><span class="offscreen">Actions</span></th></tr></thead>
    <tbody>
      ${channels.map(
        (channel) => html`<tr>
          <td>${channel.name}</td>
          <td>${channel.kind ?? "—"}</td>
          <td><code>${channel.maskedUrl}</code></td>
          <td>${badge(channel.enabled ? "enabled" : "disabled")}</td>
          <td>${time(channel.createdAt)}</td>
          <td class="row-actions">${
            ctx.canWrite
              ? html`${actionButton(
                  ctx.session,
                  teamPath(team.id, `/channels/${encodeURIComponent(channel.id)}/test`),
                  "Send test",
                  "button small secondary",
                  `Send a test notification to ${channel.name}`,
                )}${actionButton(
                  ctx.session,
                  teamPath(
                    team.id,
                    `/channels/${encodeURIComponent(channel.id)}/${channel.enabled ? "disable" : "enable"}`,
                  ),
                  channel.enabled ? "Disable" : "Enable",
                  channel.enabled ? "button small secondary" : "button small",
                  `${channel.enabled ? "Disable" : "Enable"} ${channel.name}`,
                )}`
              : null
          }</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

/** Severities down, channels across: a tick sends that severity's events to that channel. */
function policyTable(ctx: PageContext, team: Team, channels: Channel[], policy: Policy | null) {
  const routed = (severity: string, channelId: string) =>
    policy?.routes.some(
      (route) => route.severities.includes(severity as never) && route.channelIds.includes(channelId),
    ) ?? false;
  const intro = policy
    ? html`<p>Each severity goes to the ticked channels only; a severity with no tick pages nobody.</p>`
    : html`<p>No policy: every enabled channel gets every alert. Tick boxes and save to route by severity.</p>`;
  if (channels.length === 0) return html`<p class="muted">Add a channel to route severities.</p>`;
  return html`${intro}
    <form method="post" action=${teamPath(team.id, "/channels/policy")}>
      ${csrfField(ctx.session)}
      <div class="table-wrap"><table>
        <caption>Severity routing</caption>
        <thead><tr><th scope="col">Severity</th>${channels.map((channel) => html`<th scope="col">${channel.name}</th>`)}</tr></thead>
        <tbody>
          ${SEVERITIES.map(
            (severity) => html`<tr>
              <th scope="row">${badge(severity)}</th>
              ${channels.map(
                (channel) => html`<td><input type="checkbox" name="route" value=${`${severity}|${channel.id}`}
                  checked=${policy ? routed(severity, channel.id) : true} disabled=${!ctx.canWrite}
                  aria-label=${`Send ${severity} to ${channel.name}`} /></td>`,
              )}
            </tr>`,
          )}
        </tbody>
      </table></div>
      ${ctx.canWrite ? html`<p class="actions"><button type="submit">Save routing</button></p>` : null}
    </form>
    ${policy && ctx.canWrite ? actionButton(ctx.session, teamPath(team.id, "/channels/policy/delete"), "Remove the policy (every channel gets everything)", "button secondary") : null}`;
}

function createForm(ctx: PageContext, team: Team) {
  const form = ctx.form;
  return html`<h2 id="create-channel">Add a channel</h2>
    <form method="post" action=${teamPath(team.id, "/channels")} aria-labelledby="create-channel">
      ${csrfField(ctx.session)}
      <div class="fields">
        <div><label for="channel-kind">Kind</label>
          <select id="channel-kind" name="kind">
            <option value="slack" selected=${form.get("kind") !== "webhook"}>Slack incoming webhook</option>
            <option value="webhook" selected=${form.get("kind") === "webhook"}>Webhook (signed JSON POST)</option>
            <option value="pagerduty" selected=${form.get("kind") === "pagerduty"}>PagerDuty (Events API v2)</option>
            <option value="opsgenie" selected=${form.get("kind") === "opsgenie"}>Opsgenie (Alert API)</option>
          </select></div>
        <div><label for="channel-name">Name</label><input id="channel-name" name="name" required maxlength=${CHANNEL_LIMITS.nameMaxLength} value=${form.get("name") ?? ""} /></div>
        <div><label for="channel-url">URL</label><input id="channel-url" name="url" type="url" required autocomplete="off" />
          <p class="hint">Kept secret: shown masked from now on.</p></div>
        <div><label for="channel-key">Key (PagerDuty, Opsgenie)</label><input id="channel-key" name="key" type="password" autocomplete="off" />
          <p class="hint">The routing key or API key; empty for Slack and webhooks. Never shown again.</p></div>
      </div>
      <p><button type="submit">Add channel</button></p>
    </form>`;
}

export function channelPages(app: FastifyInstance, { gateway }: DashboardDeps): void {
  const page = async (ctx: PageContext, teamId: string, error?: ApiError) => {
    const base = `/teams/${encodeURIComponent(teamId)}`;
    const [team, channels, policy] = await Promise.all([
      loadTeam(ctx, teamId),
      ctx.api<{ channels: Channel[] }>("GET", `${base}/channels`),
      ctx.api<{ policy: Policy | null }>("GET", `${base}/notification-policy`),
    ]);
    const list = must(channels).channels;
    return sendTeamPage(ctx, {
      team,
      tab: "channels",
      title: "Channels",
      children: html`<h1>Channels and routing</h1>
        ${errorBlock(error)}
        ${channelTable(ctx, team, list)}
        ${ctx.canWrite ? createForm(ctx, team) : null}
        <h2>Severity routing policy</h2>
        ${policyTable(ctx, team, list, must(policy).policy)}`,
      ...(error ? { status: error.status } : {}),
    });
  };

  app.get<{ Params: TeamParams }>("/dashboard/teams/:teamId/channels", async (request, reply) =>
    page(contextOf(gateway, request, reply), request.params.teamId),
  );

  app.post<{ Params: TeamParams }>("/dashboard/teams/:teamId/channels", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId } = request.params;
    const answer = await ctx.api<{ channel: Channel }>(
      "POST",
      `/teams/${encodeURIComponent(teamId)}/channels`,
      defined({
        kind: textField(ctx.form, "kind") ?? "",
        name: textField(ctx.form, "name") ?? "",
        url: textField(ctx.form, "url") ?? "",
        key: textField(ctx.form, "key"),
      }),
    );
    if (!answer.ok) return page(ctx, teamId, answer.error);
    ctx.session.flash = { kind: "notice", text: `Channel ${answer.body.channel.name} added.` };
    return seeOther(reply, teamPath(teamId, "/channels"));
  });

  for (const verb of ["enable", "disable"] as const) {
    app.post<{ Params: TeamParams & { channelId: string } }>(
      `/dashboard/teams/:teamId/channels/:channelId/${verb}`,
      async (request, reply) => {
        const ctx = contextOf(gateway, request, reply);
        const { teamId, channelId } = request.params;
        const answer = await ctx.api<{ channel: Channel }>("PATCH", `/channels/${encodeURIComponent(channelId)}`, {
          enabled: verb === "enable",
        });
        const channel = requireTeamOf(must(answer).channel, teamId, "channel");
        ctx.session.flash = { kind: "notice", text: `Channel ${channel.name} ${verb}d.` };
        return seeOther(reply, teamPath(teamId, "/channels"));
      },
    );
  }

  app.post<{ Params: TeamParams & { channelId: string } }>(
    "/dashboard/teams/:teamId/channels/:channelId/test",
    async (request, reply) => {
      const ctx = contextOf(gateway, request, reply);
      const { teamId, channelId } = request.params;
      const listed = must(
        await ctx.api<{ channels: Channel[] }>("GET", `/teams/${encodeURIComponent(teamId)}/channels`),
      );
      const channel = listed.channels.find((one) => one.id === channelId);
      if (!channel) fail({ status: 404, error: "No channel has that id.", code: "channel_not_found" });
      type Test = { delivered: boolean; statusCode: number | null; error: string | null; durationMs: number };
      const answer = await ctx.api<{ test: Test }>("POST", `/channels/${encodeURIComponent(channelId)}/test`, {});
      // Another test of this channel (or 3 of the team) in flight: its sentence, on the channels page.
      if (!answer.ok && answer.error.code === "channel_test_in_progress") {
        ctx.session.flash = { kind: "error", text: answer.error.error };
        return seeOther(reply, teamPath(teamId, "/channels"));
      }
      const { test } = must(answer);
      const status = test.statusCode === null ? "" : `HTTP ${test.statusCode}, `;
      ctx.session.flash = test.delivered
        ? { kind: "notice", text: `Test notification delivered to ${channel.name} (${status}${test.durationMs} ms).` }
        : { kind: "error", text: `Test notification to ${channel.name} not delivered: ${test.error ?? "no answer"}.` };
      return seeOther(reply, teamPath(teamId, "/channels"));
    },
  );

  app.post<{ Params: TeamParams }>("/dashboard/teams/:teamId/channels/policy", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId } = request.params;
    const bySeverity = new Map<string, string[]>();
    for (const value of ctx.form.getAll("route")) {
      const [severity = "", channelId = ""] = value.split("|");
      bySeverity.set(severity, [...(bySeverity.get(severity) ?? []), channelId]);
    }
    const routes = [...bySeverity].map(([severity, channelIds]) => ({ severities: [severity], channelIds }));
    const answer = await ctx.api("PUT", `/teams/${encodeURIComponent(teamId)}/notification-policy`, { routes });
    if (!answer.ok) return page(ctx, teamId, answer.error);
    ctx.session.flash = { kind: "notice", text: "Routing saved." };
    return seeOther(reply, teamPath(teamId, "/channels"));
  });

  app.post<{ Params: TeamParams }>("/dashboard/teams/:teamId/channels/policy/delete", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId } = request.params;
    must(await ctx.api("DELETE", `/teams/${encodeURIComponent(teamId)}/notification-policy`));
    ctx.session.flash = { kind: "notice", text: "Policy removed: every channel gets every alert." };
    return seeOther(reply, teamPath(teamId, "/channels"));
  });
}
