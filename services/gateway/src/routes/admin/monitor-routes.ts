import { MONITOR_LIMITS } from "@pulsegate/contract/limits";
import { SEVERITIES, type Severity, type SignatureScheme } from "@pulsegate/contract/vocabulary";
import { callUnary } from "@pulsegate/grpc";
import type { monitors } from "@pulsegate/proto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { severityToProto, signatureSchemeToProto } from "../../json-vocabulary.ts";
import { wrapped } from "../../openapi/admin-components.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import type { LookupNotice } from "../../pipeline/lookup-notices.ts";
import type { MonitorLookup } from "../ping/monitor-lookup.ts";
import { owned } from "./access.ts";
import {
  type OwnedCollection,
  ownedDeleteRoute,
  ownedGetRoute,
  ownedPageRoute,
  ownedUpdateRoute,
  teamCreateRoute,
  teamListRoute,
} from "./collection-routes.ts";
import { monitorJson, pingJson } from "./monitor-json.ts";
import { answeredWithPublicUrls, publicBaseUrl } from "./public-base-url.ts";
import type { RecordAudit } from "./record-audit.ts";
import { requirePresent } from "./require-present.ts";
import type { ResourceOwners } from "./resource-owners.ts";
import { noBody, signatureSchemeField } from "./schemas.ts";
import { withTeamSecretFingerprints } from "./signing-key.ts";

type MonitorBody = {
  name: string;
  intervalSeconds?: number;
  graceSeconds?: number;
  severity?: Severity;
  reopenWindowSeconds?: number;
  schedule?: string;
  timezone?: string;
  maxDurationSeconds?: number;
  repeatIntervalSeconds?: number;
  requireTimestamp?: boolean;
  signatureScheme?: SignatureScheme;
};

const tags = ["monitors"];
const MONITORS: OwnedCollection = { plural: "monitors", kind: "monitor", ref: "Monitor", tags };

export const createMonitorBody = {
  type: "object",
  additionalProperties: false,
  examples: [
    {
      name: "nightly-backup",
      schedule: "15 3 * * *",
      timezone: "Europe/Berlin",
      graceSeconds: 600,
      maxDurationSeconds: 3600,
    },
    { name: "queue-worker", intervalSeconds: 60, graceSeconds: 30, severity: "sev2", repeatIntervalSeconds: 3600 },
  ],
  required: ["name"],
  properties: {
    name: { type: "string", minLength: 1, maxLength: MONITOR_LIMITS.nameMaxLength },
    intervalSeconds: { type: "integer", minimum: 1, maximum: MONITOR_LIMITS.maxIntervalSeconds },
    graceSeconds: { type: "integer", minimum: 0, maximum: MONITOR_LIMITS.maxGraceSeconds },
    severity: { type: "string", enum: [...SEVERITIES] },
    reopenWindowSeconds: { type: "integer", minimum: 0, maximum: MONITOR_LIMITS.maxReopenWindowSeconds },
    schedule: {
      type: "string",
      maxLength: MONITOR_LIMITS.scheduleMaxLength,
      description:
        "A 5-field cron expression (minute hour day-of-month month day-of-week), instead of intervalSeconds: the monitor is due at each run plus graceSeconds.",
      examples: ["15 3 * * *"],
    },
    timezone: {
      type: "string",
      maxLength: MONITOR_LIMITS.timezoneMaxLength,
      description: "The IANA time zone the schedule is read in (default UTC).",
      examples: ["Europe/Berlin"],
    },
    maxDurationSeconds: {
      type: "integer",
      minimum: 0,
      maximum: MONITOR_LIMITS.maxMaxDurationSeconds,
      description: "A run (start signal to up ping) longer than this makes the monitor down; 0: no maximum.",
    },
    requireTimestamp: {
      type: "boolean",
      description:
        "Replay protection: pings must send X-Webhook-Timestamp (Unix seconds, within 300 s) and sign '<timestamp>.<body>'. Default false. Applies to the pulsegate scheme only.",
    },
    signatureScheme: signatureSchemeField(
      "How pings are signed: pulsegate (X-Webhook-Signature, the default) or standard-webhooks (webhook-id, webhook-timestamp, webhook-signature; key whsec_ + base64 of the team's webhook secret; a repeated webhook-id is answered from its first ping, as an Idempotency-Key).",
    ),
    repeatIntervalSeconds: {
      type: "integer",
      minimum: 0,
      maximum: MONITOR_LIMITS.maxRepeatIntervalSeconds,
      description:
        "Reminders: while the monitor's incident alert stays open and unacknowledged, its notification is repeated this often; 0: never (default). At least 60.",
    },
  },
} as const;

/** A PATCH: merge-patch semantics (absent: unchanged; null: none, where create allows none). */
type MonitorPatchBody = {
  name?: string;
  intervalSeconds?: number;
  graceSeconds?: number;
  severity?: Severity;
  reopenWindowSeconds?: number;
  schedule?: string | null;
  timezone?: string | null;
  maxDurationSeconds?: number | null;
  repeatIntervalSeconds?: number | null;
  requireTimestamp?: boolean;
};

const createFields = createMonitorBody.properties;
/** A create field that PATCH also takes as null, meaning `none`. */
const orNone = (schema: { type: string; description?: string }, none: string) => ({
  ...schema,
  type: [schema.type, "null"],
  description: `${schema.description ?? ""} null: ${none}.`.trim(),
});

export const updateMonitorBody = {
  type: "object",
  additionalProperties: false,
  examples: [
    { graceSeconds: 900, maxDurationSeconds: null },
    { intervalSeconds: 300, schedule: null },
  ],
  description:
    "A JSON merge patch: fields left out stay as they are; null means none where a monitor may have none. Checked as create checks them. An interval (or schedule: null) makes a scheduled monitor an interval monitor, a schedule an interval monitor a scheduled one; its due time is worked out again from its last ping (docs/monitors.md).",
  properties: {
    name: createFields.name,
    intervalSeconds: createFields.intervalSeconds,
    graceSeconds: createFields.graceSeconds,
    severity: createFields.severity,
    reopenWindowSeconds: createFields.reopenWindowSeconds,
    schedule: orNone(
      createFields.schedule,
      "an interval monitor again (intervalSeconds: the one given, else the one it had)",
    ),
    timezone: orNone(createFields.timezone, "UTC"),
    maxDurationSeconds: orNone(createFields.maxDurationSeconds, "no maximum (as 0)"),
    repeatIntervalSeconds: orNone(createFields.repeatIntervalSeconds, "no reminders (as 0)"),
    requireTimestamp: createFields.requireTimestamp,
  },
} as const;

/** Heartbeat monitors (monitors). A team's existence is checked with auth first: monitors does not know teams. */
export async function monitorRoutes(
  app: FastifyInstance,
  options: {
    peers: Peers;
    audit: RecordAudit;
    publicBaseUrl?: string | undefined;
    monitorLookup?: MonitorLookup | undefined;
    owners: ResourceOwners;
    /** Every gateway forgets the look-ups a change or deletion makes stale, before it is answered. */
    announceLookups: (notice: LookupNotice) => Promise<void>;
  },
): Promise<void> {
  const { peers, audit } = options;
  const client = peers.monitors;
  /** The monitor a call answered with, and its JSON (its ping and badge URLs on the host this request came to). */
  const withUrls = answeredWithPublicUrls("monitor", monitorJson, options.publicBaseUrl);
  const answered = async (response: { monitor?: monitors.Monitor | undefined }, request: FastifyRequest) => {
    const { resource, json } = withUrls(response, request);
    const [withFingerprint] = await withTeamSecretFingerprints(peers, [json]);
    return { resource, json: withFingerprint };
  };

  teamCreateRoute<MonitorBody>(app, peers, audit, MONITORS, {
    summary: "Create a heartbeat monitor",
    body: createMonitorBody,
    description: "The monitor (idle until its first ping), with its ping URL.",
    create: async (teamId, body, request) => {
      const response = await callUnary(client, "createMonitor", {
        teamId,
        name: body.name,
        intervalSeconds: body.intervalSeconds,
        graceSeconds: body.graceSeconds,
        incidentSeverity: severityToProto(body.severity),
        reopenWindowSeconds: body.reopenWindowSeconds,
        schedule: body.schedule ?? "",
        timezone: body.timezone ?? "",
        maxDurationSeconds: body.maxDurationSeconds,
        repeatIntervalSeconds: body.repeatIntervalSeconds,
        requireTimestamp: body.requireTimestamp,
        signatureScheme: signatureSchemeToProto(body.signatureScheme),
      });
      return answered(response, request);
    },
  });

  teamListRoute(app, peers, MONITORS, {
    description: "Every monitor.",
    list: async (teamId, request) => {
      const response = await callUnary(client, "listMonitors", { teamId });
      const baseUrl = publicBaseUrl(request, options.publicBaseUrl);
      return withTeamSecretFingerprints(
        peers,
        response.monitors.map((monitor) => monitorJson(monitor, baseUrl)),
      );
    },
  });

  ownedGetRoute(app, MONITORS, {
    summary: "Get a monitor",
    description: "The monitor.",
    get: async (id, request) => (await answered(await callUnary(client, "getMonitor", { id }), request)).json,
  });

  /** Every gateway forgets the monitor's ping URL and badge: what they keep of it (name, replay protection…) changed. */
  const forgetLookups = (monitor: monitors.Monitor) =>
    options.announceLookups({ kind: "monitor", pingUrl: monitor.pingUrl, badgeToken: monitor.badgeToken });

  ownedUpdateRoute<MonitorPatchBody>(app, audit, MONITORS, {
    summary: "Change a monitor (name, interval or schedule, grace, severity, maximum duration, reminders…)",
    operationId: "updateMonitor",
    body: updateMonitorBody,
    description: "The monitor as changed.",
    update: async (id, body, request) => {
      const response = await callUnary(client, "updateMonitor", {
        id,
        name: body.name,
        intervalSeconds: body.intervalSeconds,
        graceSeconds: body.graceSeconds,
        incidentSeverity: severityToProto(body.severity),
        reopenWindowSeconds: body.reopenWindowSeconds,
        // null: none, which the service takes as "" (schedule, zone) or 0 (maximum, reminders).
        schedule: body.schedule === null ? "" : body.schedule,
        timezone: body.timezone === null ? "" : body.timezone,
        maxDurationSeconds: body.maxDurationSeconds === null ? 0 : body.maxDurationSeconds,
        repeatIntervalSeconds: body.repeatIntervalSeconds === null ? 0 : body.repeatIntervalSeconds,
        requireTimestamp: body.requireTimestamp,
      });
      const answer = await answered(response, request);
      await forgetLookups(answer.resource);
      return answer;
    },
  });

  ownedDeleteRoute(app, audit, MONITORS, {
    summary: "Delete a monitor (its pings answer 404 at once; its pings are removed, its alerts kept)",
    operationId: "deleteMonitor",
    delete: async (id) => {
      const monitor = requirePresent((await callUnary(client, "deleteMonitor", { id })).monitor, "monitor");
      await forgetLookups(monitor);
      options.owners.forget("monitor", id);
      return monitor;
    },
  });

  const lifecycle = (verb: "pause" | "resume") =>
    app.post<{ Params: { id: string } }>(
      `/monitors/:id/${verb}`,
      {
        config: owned("monitor"),
        schema: {
          tags,
          summary:
            verb === "pause"
              ? "Pause a monitor (its pings answer 404)"
              : "Resume a paused monitor (idle until its next ping)",
          body: noBody,
          response: { 200: wrapped("monitor", "Monitor", "The monitor.") },
        },
      },
      async (request) => {
        const call = verb === "pause" ? "pauseMonitor" : "resumeMonitor";
        const { resource: monitor, json } = await answered(
          await callUnary(client, call, { id: request.params.id }),
          request,
        );
        // This gateway's ping route sees the change at once (other replicas hear it from RecordPing).
        options.monitorLookup?.invalidate(monitor.pingUrl);
        await audit(request, { action: `monitor.${verb}`, target: { kind: "monitor", id: monitor.id } });
        return { monitor: json };
      },
    );
  lifecycle("pause");
  lifecycle("resume");

  ownedPageRoute(app, MONITORS, {
    children: "pings",
    ref: "Ping",
    summary: "A monitor's recent pings, newest first",
    description: "A page of pings.",
    page: async (monitorId, page) => {
      const response = await callUnary(client, "listPings", { monitorId, ...page });
      return { items: response.pings.map(pingJson), nextCursor: response.nextCursor };
    },
  });
}
