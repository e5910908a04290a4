import { WEBHOOK_LIMITS } from "@pulsegate/contract/limits";
import { SEVERITIES } from "@pulsegate/contract/vocabulary";
import type { FastifyInstance } from "fastify";
import { type ApiError, must, requireTeamOf } from "../admin-client.ts";
import { sendConfirmPage } from "../confirm-page.ts";
import { contextOf, type PageContext, seeOther } from "../context.ts";
import type { DashboardDeps } from "../dashboard-deps.ts";
import { booleanField, defined, integerField, textField } from "../form-values.ts";
import { badge, duration, time } from "../format.ts";
import { html } from "../html.ts";
import { copyable, csrfField, errorBlock, teamPath } from "../layout.ts";
import type { Team, Webhook } from "../resources.ts";
import { type RuleJson, ruleEditor, rulesFromForm } from "../rule-editor.ts";
import { alertmanagerSnippet, standardWebhooksSnippets, triggerSnippets } from "../snippets.ts";
import { loadTeam, sendTeamPage } from "../team-page.ts";

type TeamParams = { teamId: string };
type WebhookParams = TeamParams & { webhookId: string };

/** What the form shows: a webhook's settings, or what was just submitted. */
type WebhookValues = {
  name: string;
  defaultSeverity: string;
  enabled: boolean;
  rateLimitPerMinute: string;
  reopenWindowSeconds: string;
  rules: RuleJson[];
};

const DEFAULTS: WebhookValues = {
  name: "",
  defaultSeverity: WEBHOOK_LIMITS.defaultSeverity,
  enabled: true,
  rateLimitPerMinute: "",
  reopenWindowSeconds: "",
  rules: [],
};

const valuesOf = (webhook: Webhook): WebhookValues => ({
  name: webhook.name,
  defaultSeverity: webhook.defaultSeverity ?? WEBHOOK_LIMITS.defaultSeverity,
  enabled: webhook.enabled,
  rateLimitPerMinute: String(webhook.rateLimitPerMinute),
  reopenWindowSeconds: String(webhook.reopenWindowSeconds),
  rules: webhook.filterRules,
});

const submitted = (form: URLSearchParams): WebhookValues => ({
  name: form.get("name") ?? "",
  defaultSeverity: form.get("defaultSeverity") ?? WEBHOOK_LIMITS.defaultSeverity,
  enabled: booleanField(form, "enabled") ?? true,
  rateLimitPerMinute: form.get("rateLimitPerMinute") ?? "",
  reopenWindowSeconds: form.get("reopenWindowSeconds") ?? "",
  rules: rulesFromForm(form),
});

const bodyOf = (form: URLSearchParams) =>
  defined({
    name: textField(form, "name") ?? "",
    defaultSeverity: textField(form, "defaultSeverity"),
    enabled: booleanField(form, "enabled"),
    rateLimitPerMinute: integerField(form, "rateLimitPerMinute"),
    reopenWindowSeconds: integerField(form, "reopenWindowSeconds"),
    filterRules: rulesFromForm(form),
  });

function webhookForm(ctx: PageContext, action: string, values: WebhookValues, submit: string, error?: ApiError) {
  const id = (name: string) => `webhook-${name}`;
  return html`<form method="post" action=${action}>
    ${csrfField(ctx.session)} ${errorBlock(error)}
    <div class="fields">
      <div><label for=${id("name")}>Name</label><input id=${id("name")} name="name" required maxlength=${WEBHOOK_LIMITS.nameMaxLength} value=${values.name} /></div>
      <div><label for=${id("severity")}>Default severity</label>
        <select id=${id("severity")} name="defaultSeverity">
          ${SEVERITIES.map((severity) => html`<option value=${severity} selected=${severity === values.defaultSeverity}>${severity}</option>`)}
        </select>
        <p class="hint">A trigger's own severity overrides it.</p>
      </div>
      <div><label for=${id("rate")}>Rate limit (triggers a minute)</label><input id=${id("rate")} name="rateLimitPerMinute" inputmode="numeric" placeholder="120" value=${values.rateLimitPerMinute} /></div>
      <div><label for=${id("reopen")}>Reopen window (seconds)</label><input id=${id("reopen")} name="reopenWindowSeconds" inputmode="numeric" placeholder="3600" value=${values.reopenWindowSeconds} />
        <p class="hint">A trigger this soon after its alert was resolved reopens it; 0 = never.</p></div>
    </div>
    <input type="hidden" name="enabled" value="false" />
    <label class="check"><input type="checkbox" name="enabled" value="true" checked=${values.enabled} /> Enabled (a disabled webhook answers 404)</label>
    ${ruleEditor(values.rules)}
    <p><button type="submit">${submit}</button></p>
  </form>`;
}

function webhookList(ctx: PageContext, team: Team, webhooks: Webhook[], values: WebhookValues, error?: ApiError) {
  return html`<h1>Webhooks</h1>
    ${
      webhooks.length === 0
        ? html`<p class="empty">No webhooks yet. Create one below, then point your CI, monitoring or scripts at its trigger URL,
            signing each body with the team's webhook secret.</p>`
        : html`<div class="table-wrap"><table>
            <caption>Alert triggers of ${team.name}</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">State</th><th scope="col">Severity</th><th scope="col">Rules</th><th scope="col">Rate limit</th><th scope="col">Created</th></tr></thead>
            <tbody>
              ${webhooks.map(
                (webhook) => html`<tr>
                  <td><a href=${teamPath(team.id, `/webhooks/${encodeURIComponent(webhook.id)}`)}>${webhook.name}</a></td>
                  <td>${badge(webhook.enabled ? "enabled" : "disabled")}</td>
                  <td>${badge(webhook.defaultSeverity)}</td>
                  <td>${webhook.filterRules.length}</td>
                  <td>${webhook.rateLimitPerMinute}/min</td>
                  <td>${time(webhook.createdAt)}</td>
                </tr>`,
              )}
            </tbody>
          </table></div>`
    }
    ${
      ctx.canWrite
        ? html`<h2>Create a webhook</h2>${webhookForm(ctx, teamPath(team.id, "/webhooks"), values, "Create webhook", error)}`
        : null
    }`;
}

/**
 * How to send to the webhook: for an Alertmanager webhook its receiver; for a signed one, signing
 * by its scheme (the interface's hex header, or Standard Webhooks with its library).
 */
function sendingHelp(webhook: Webhook) {
  if (webhook.source === "alertmanager") {
    return html`<h2>Point Alertmanager at it</h2>
      <p class="hint">Alertmanager's payloads, authorised by the webhook's bearer token (shown once, when the webhook was created or its token rotated). Field mapping and limits: docs/integrations.md.</p>
      ${copyable("snippet-alertmanager", alertmanagerSnippet(webhook.triggerUrl), "the Alertmanager receiver")}`;
  }
  if (webhook.signatureScheme === "standard-webhooks") {
    const snippets = standardWebhooksSnippets(webhook.triggerUrl, {
      title: "Disk almost full on db-1",
      severity: "sev2",
      group_key: "disk-db-1",
    });
    return html`<h2>Send a signed trigger</h2>
    <p class="hint">Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code>, signed with the team's <code>whsec_</code> key (shown once beside the webhook secret: whsec_ + base64 of the secret). A repeated webhook-id is applied once.</p>
    <details open><summary>Node</summary>${copyable("snippet-node", snippets.node, "the Node example")}</details>
    <details><summary>Python</summary>${copyable("snippet-python", snippets.python, "the Python example")}</details>`;
  }
  const snippets = triggerSnippets(webhook.triggerUrl);
  return html`<h2>Send a signed trigger</h2>
    <p class="hint">HMAC-SHA256 of the exact body bytes, keyed with the team's webhook secret, hex, in <code>X-Webhook-Signature</code>.</p>
    <details open><summary>curl + openssl</summary>${copyable("snippet-curl", snippets.curl, "the curl example")}</details>
    <details><summary>Node</summary>${copyable("snippet-node", snippets.node, "the Node example")}</details>
    <details><summary>Python</summary>${copyable("snippet-python", snippets.python, "the Python example")}</details>`;
}

const webhookPath = (teamId: string, webhookId: string, rest = "") =>
  teamPath(teamId, `/webhooks/${encodeURIComponent(webhookId)}${rest}`);

function webhookPage(ctx: PageContext, team: Team, webhook: Webhook, values: WebhookValues, error?: ApiError) {
  return html`<p><a href=${teamPath(team.id, "/webhooks")}>← Webhooks</a></p>
    <h1>${webhook.name} ${badge(webhook.enabled ? "enabled" : "disabled")}</h1>
    ${
      ctx.canWrite
        ? html`<div class="actions"><a class="button small danger" href=${webhookPath(team.id, webhook.id, "/delete")} aria-label=${`Delete ${webhook.name}`}>Delete</a></div>`
        : null
    }
    <dl class="facts">
      <dt>Trigger URL</dt><dd>${copyable("trigger-url", webhook.triggerUrl, "the trigger URL")}</dd>
      <dt>Default severity</dt><dd>${badge(webhook.defaultSeverity)}</dd>
      <dt>Rate limit</dt><dd>${webhook.rateLimitPerMinute} triggers a minute</dd>
      <dt>Reopen window</dt><dd>${webhook.reopenWindowSeconds === 0 ? "never reopens" : duration(webhook.reopenWindowSeconds)}</dd>
      <dt>Updated</dt><dd>${time(webhook.updatedAt)}</dd>
    </dl>
    ${sendingHelp(webhook)}
    ${
      ctx.canWrite
        ? html`<h2>Edit</h2>${webhookForm(ctx, teamPath(team.id, `/webhooks/${encodeURIComponent(webhook.id)}`), values, "Save webhook", error)}`
        : null
    }`;
}

async function loadWebhook(ctx: PageContext, teamId: string, webhookId: string): Promise<Webhook> {
  const answer = await ctx.api<{ webhook: Webhook }>("GET", `/webhooks/${encodeURIComponent(webhookId)}`);
  return requireTeamOf(must(answer).webhook, teamId, "webhook");
}

export function webhookPages(app: FastifyInstance, { gateway }: DashboardDeps): void {
  const listPage = async (ctx: PageContext, teamId: string, values: WebhookValues, error?: ApiError) => {
    const [team, list] = await Promise.all([
      loadTeam(ctx, teamId),
      ctx.api<{ webhooks: Webhook[] }>("GET", `/teams/${encodeURIComponent(teamId)}/webhooks`),
    ]);
    return sendTeamPage(ctx, {
      team,
      tab: "webhooks",
      title: "Webhooks",
      children: webhookList(ctx, team, must(list).webhooks, values, error),
      ...(error ? { status: error.status } : {}),
    });
  };

  app.get<{ Params: TeamParams }>("/dashboard/teams/:teamId/webhooks", async (request, reply) =>
    listPage(contextOf(gateway, request, reply), request.params.teamId, DEFAULTS),
  );

  app.post<{ Params: TeamParams }>("/dashboard/teams/:teamId/webhooks", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId } = request.params;
    const answer = await ctx.api<{ webhook: Webhook }>(
      "POST",
      `/teams/${encodeURIComponent(teamId)}/webhooks`,
      bodyOf(ctx.form),
    );
    if (!answer.ok) return listPage(ctx, teamId, submitted(ctx.form), answer.error);
    ctx.session.flash = { kind: "notice", text: `Webhook ${answer.body.webhook.name} created.` };
    return seeOther(reply, teamPath(teamId, `/webhooks/${encodeURIComponent(answer.body.webhook.id)}`));
  });

  app.get<{ Params: WebhookParams }>("/dashboard/teams/:teamId/webhooks/:webhookId", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId, webhookId } = request.params;
    const [team, webhook] = await Promise.all([loadTeam(ctx, teamId), loadWebhook(ctx, teamId, webhookId)]);
    return sendTeamPage(ctx, {
      team,
      tab: "webhooks",
      title: webhook.name,
      children: webhookPage(ctx, team, webhook, valuesOf(webhook)),
    });
  });

  app.post<{ Params: WebhookParams }>("/dashboard/teams/:teamId/webhooks/:webhookId", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId, webhookId } = request.params;
    await loadWebhook(ctx, teamId, webhookId);
    const answer = await ctx.api<{ webhook: Webhook }>(
      "PATCH",
      `/webhooks/${encodeURIComponent(webhookId)}`,
      bodyOf(ctx.form),
    );
    if (!answer.ok) {
      const [team, webhook] = await Promise.all([loadTeam(ctx, teamId), loadWebhook(ctx, teamId, webhookId)]);
      return sendTeamPage(ctx, {
        team,
        tab: "webhooks",
        title: webhook.name,
        children: webhookPage(ctx, team, webhook, submitted(ctx.form), answer.error),
        status: answer.error.status,
      });
    }
    ctx.session.flash = { kind: "notice", text: "Webhook saved." };
    return seeOther(reply, teamPath(teamId, `/webhooks/${encodeURIComponent(webhookId)}`));
  });

  const confirmDelete = async (ctx: PageContext, teamId: string, webhookId: string, error?: ApiError) => {
    const [team, webhook] = await Promise.all([loadTeam(ctx, teamId), loadWebhook(ctx, teamId, webhookId)]);
    return sendConfirmPage(ctx, {
      team,
      tab: "webhooks",
      question: `Delete webhook ${webhook.name}?`,
      consequences: [
        "Its trigger URL answers 404 from now on, on every gateway.",
        "The alerts it opened stay with the team's alerts, as they are (resolve open ones yourself).",
        "This cannot be undone: a new webhook gets a new URL.",
      ],
      action: webhookPath(teamId, webhookId, "/delete"),
      submit: "Delete webhook",
      back: webhookPath(teamId, webhookId),
      error,
    });
  };

  app.get<{ Params: WebhookParams }>("/dashboard/teams/:teamId/webhooks/:webhookId/delete", async (request, reply) => {
    const { teamId, webhookId } = request.params;
    return confirmDelete(contextOf(gateway, request, reply), teamId, webhookId);
  });

  app.post<{ Params: WebhookParams }>("/dashboard/teams/:teamId/webhooks/:webhookId/delete", async (request, reply) => {
    const ctx = contextOf(gateway, request, reply);
    const { teamId, webhookId } = request.params;
    const webhook = await loadWebhook(ctx, teamId, webhookId);
    const answer = await ctx.api("DELETE", `/webhooks/${encodeURIComponent(webhookId)}`);
    if (!answer.ok) return confirmDelete(ctx, teamId, webhookId, answer.error);
    ctx.session.flash = { kind: "notice", text: `Webhook ${webhook.name} deleted.` };
    return seeOther(reply, teamPath(teamId, "/webhooks"));
  });
}
