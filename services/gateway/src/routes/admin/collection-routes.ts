import type { FastifyInstance, FastifyRequest } from "fastify";
import { page, wrapped } from "../../openapi/admin-components.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { owned, TEAM } from "./access.ts";
import { createdEvent, updatedEvent } from "./audit-events.ts";
import type { RecordAudit } from "./record-audit.ts";
import { requireTeam } from "./require-team.ts";
import type { OwnedResource } from "./resource-owners.ts";

/*
 * The routes every collection has: list and create under a team (webhooks, monitors, silences,
 * channels), and read or change by id (webhooks, monitors, alerts, API keys, channels). The owning service does not know teams, so
 * auth is asked first (404 team_not_found).
 */

export type TeamList = {
  /** The path's last segment and the answer's key: `webhooks` for `GET /teams/:teamId/webhooks`. */
  plural: string;
  /** The OpenAPI component of one item. */
  ref: string;
  tags: string[];
  /** The 200 answer's description, e.g. "Every webhook." */
  description: string;
  /** The team's items from the owning service, as JSON. */
  list: (teamId: string, request: FastifyRequest) => Promise<unknown[]>;
};

/** `GET /teams/:teamId/<plural>`: all of a team's items as one page (`nextCursor: null`). */
export function teamListRoute(app: FastifyInstance, peers: Peers, route: TeamList): void {
  app.get<{ Params: { teamId: string } }>(
    `/teams/:teamId/${route.plural}`,
    {
      config: TEAM,
      schema: {
        tags: route.tags,
        summary: `List a team's ${route.plural}`,
        response: { 200: page(route.plural, route.ref, route.description) },
      },
    },
    async (request) => {
      const { teamId } = request.params;
      const [, items] = await Promise.all([requireTeam(peers, teamId), route.list(teamId, request)]);
      return { [route.plural]: items, nextCursor: null };
    },
  );
}

export type TeamCreate<Body> = {
  plural: string;
  /** The audit target's kind and the answer's key: `webhook`. */
  kind: string;
  ref: string;
  tags: string[];
  summary: string;
  body: object;
  /** The 201 answer's description. */
  description: string;
  /** More answers documented after the 201 (a 409). */
  responses?: Record<number, unknown>;
  /** Creates the item with the owning service: the item, its JSON, and audit details beyond its name. */
  create: (
    teamId: string,
    body: Body,
    request: FastifyRequest,
  ) => Promise<{ resource: { id: string; name: string }; json: unknown; details?: Record<string, unknown> }>;
};

/** `POST /teams/:teamId/<plural>`: 201 with `{ <kind>: … }`, audited as `<kind>.create`. */
export function teamCreateRoute<Body>(
  app: FastifyInstance,
  peers: Peers,
  audit: RecordAudit,
  route: TeamCreate<Body>,
): void {
  app.post<{ Params: { teamId: string }; Body: Body }>(
    `/teams/:teamId/${route.plural}`,
    {
      config: TEAM,
      schema: {
        tags: route.tags,
        summary: route.summary,
        body: route.body,
        response: { 201: wrapped(route.kind, route.ref, route.description), ...route.responses },
      },
    },
    async (request, reply) => {
      const { teamId } = request.params;
      await requireTeam(peers, teamId);
      // Fastify resolves a route's Body through conditional types TypeScript cannot evaluate for a
      // type parameter; `route.body` has validated it.
      const { resource, json, details } = await route.create(teamId, request.body as Body, request);
      await audit(request, createdEvent(route.kind, resource, details));
      return reply.code(201).send({ [route.kind]: json });
    },
  );
}

export type OwnedUpdate<Body> = {
  plural: string;
  /** The resource's kind: its access rule, audit target and answer key (`webhook`). */
  kind: OwnedResource;
  ref: string;
  tags: string[];
  summary: string;
  body: object;
  /** The 200 answer's description. */
  description: string;
  /** Changes the item with the owning service: the item as changed, and its JSON. */
  update: (id: string, body: Body, request: FastifyRequest) => Promise<{ resource: { id: string }; json: unknown }>;
};

/** `PATCH /<plural>/:id`: 200 with `{ <kind>: … }`, audited as `<kind>.update` with the fields sent. */
export function ownedUpdateRoute<Body extends { enabled?: boolean | undefined }>(
  app: FastifyInstance,
  audit: RecordAudit,
  route: OwnedUpdate<Body>,
): void {
  app.patch<{ Params: { id: string }; Body: Body }>(
    `/${route.plural}/:id`,
    {
      config: owned(route.kind),
      schema: {
        tags: route.tags,
        summary: route.summary,
        body: route.body,
        response: { 200: wrapped(route.kind, route.ref, route.description) },
      },
    },
    async (request) => {
      // As in teamCreateRoute: `route.body` has validated it.
      const body = request.body as Body;
      const { resource, json } = await route.update(request.params.id, body, request);
      await audit(request, updatedEvent(route.kind, resource.id, body));
      return { [route.kind]: json };
    },
  );
}

export type OwnedGet = {
  plural: string;
  /** The resource's kind: its access rule. */
  kind: OwnedResource;
  /** The answer's key, when it is not the kind (`apiKey`). */
  key?: string;
  ref: string;
  tags: string[];
  summary: string;
  /** The 200 answer's description. */
  description: string;
  /** The item from the owning service, as JSON. */
  get: (id: string, request: FastifyRequest) => Promise<unknown>;
};

/** `GET /<plural>/:id`: 200 with `{ <key>: … }`. */
export function ownedGetRoute(app: FastifyInstance, route: OwnedGet): void {
  const key = route.key ?? route.kind;
  app.get<{ Params: { id: string } }>(
    `/${route.plural}/:id`,
    {
      config: owned(route.kind),
      schema: {
        tags: route.tags,
        summary: route.summary,
        response: { 200: wrapped(key, route.ref, route.description) },
      },
    },
    async (request) => ({ [key]: await route.get(request.params.id, request) }),
  );
}
