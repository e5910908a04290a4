import type { FastifyInstance, FastifyRequest } from "fastify";
import { page, wrapped } from "../../openapi/admin-components.ts";
import { nameTakenResponse } from "../../openapi/error-responses.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { orNull } from "./absent-as-null.ts";
import { owned, TEAM } from "./access.ts";
import { createdEvent, updatedEvent } from "./audit-events.ts";
import type { RecordAudit } from "./record-audit.ts";
import { requireTeam } from "./require-team.ts";
import type { OwnedResource } from "./resource-owners.ts";
import { type PageQuery, pageOnlyQuery, pageRequest, refuseCursor } from "./schemas.ts";

/*
 * The routes every collection has: list and create under a team (webhooks, monitors, silences,
 * channels), read or change by id (webhooks, monitors, alerts, API keys, channels), and page
 * through an item's children (an alert's occurrences, a monitor's pings). The
 * owning service does not know teams, so auth is asked first (404 team_not_found).
 */

/** A collection of the admin API, as its routes name it. */
export type Collection = {
  /** The path segment and a list's key: `webhooks` for `/teams/:teamId/webhooks` and `/webhooks/:id`. */
  plural: string;
  /** One item's kind: its audit target and its answer's key (`webhook`). */
  kind: string;
  /** One item's answer key, when it is not the kind (`apiKey` for `api_key`). */
  key?: string;
  /** The OpenAPI component of one item. */
  ref: string;
  tags: string[];
};

/** A collection whose items are reached by id: the kind is its access rule too. */
export type OwnedCollection = Collection & { kind: OwnedResource };

const keyOf = (collection: Collection) => collection.key ?? collection.kind;

/** `GET /teams/:teamId/<plural>`: all of a team's items as one page (`nextCursor: null`). */
export function teamListRoute(
  app: FastifyInstance,
  peers: Peers,
  collection: Collection,
  route: {
    /** The 200 answer's description, e.g. "Every webhook." */
    description: string;
    /** The team's items from the owning service, as JSON. */
    list: (teamId: string, request: FastifyRequest) => Promise<unknown[]>;
  },
): void {
  const { plural } = collection;
  app.get<{ Params: { teamId: string } }>(
    `/teams/:teamId/${plural}`,
    {
      config: TEAM,
      schema: {
        tags: collection.tags,
        summary: `List a team's ${plural}`,
        response: { 200: page(plural, collection.ref, route.description) },
      },
    },
    async (request) => {
      refuseCursor(request.query);
      const { teamId } = request.params;
      const [, items] = await Promise.all([requireTeam(peers, teamId), route.list(teamId, request)]);
      return { [plural]: items, nextCursor: null };
    },
  );
}

/** `POST /teams/:teamId/<plural>`: 201 with `{ <kind>: … }`, audited as `<kind>.create`. */
export function teamCreateRoute<Body>(
  app: FastifyInstance,
  peers: Peers,
  audit: RecordAudit,
  collection: Collection,
  route: {
    summary: string;
    body: object;
    /** The 201 answer's description. */
    description: string;
    /** More answers documented after the 201 (a 409 beyond name_taken). */
    responses?: Record<number, unknown>;
    /** Fields the 201 answer may carry beside the item (a secret shown once), as OpenAPI properties. */
    answerFields?: Record<string, unknown>;
    /**
     * Creates the item with the owning service: the item, its JSON, audit details beyond its name,
     * and any `answerFields` to send beside it.
     */
    create: (
      teamId: string,
      body: Body,
      request: FastifyRequest,
    ) => Promise<{
      resource: { id: string; name: string };
      json: unknown;
      details?: Record<string, unknown>;
      answer?: Record<string, unknown>;
    }>;
  },
): void {
  const key = keyOf(collection);
  const created = wrapped(key, collection.ref, route.description);
  app.post<{ Params: { teamId: string }; Body: Body }>(
    `/teams/:teamId/${collection.plural}`,
    {
      config: TEAM,
      schema: {
        tags: collection.tags,
        summary: route.summary,
        body: route.body,
        response: {
          201: route.answerFields
            ? { ...created, properties: { ...created.properties, ...route.answerFields } }
            : created,
          409: nameTakenResponse,
          ...route.responses,
        },
      },
    },
    async (request, reply) => {
      const { teamId } = request.params;
      await requireTeam(peers, teamId);
      // Fastify resolves a route's Body through conditional types TypeScript cannot evaluate for a
      // type parameter; `route.body` has validated it.
      const { resource, json, details, answer } = await route.create(teamId, request.body as Body, request);
      await audit(request, createdEvent(collection.kind, resource, details));
      return reply.code(201).send({ [key]: json, ...answer });
    },
  );
}

/** `GET /<plural>/:id`: 200 with `{ <kind>: … }`. */
export function ownedGetRoute(
  app: FastifyInstance,
  collection: OwnedCollection,
  route: {
    summary: string;
    /** The 200 answer's description. */
    description: string;
    /** The item from the owning service, as JSON. */
    get: (id: string, request: FastifyRequest) => Promise<unknown>;
  },
): void {
  const key = keyOf(collection);
  app.get<{ Params: { id: string } }>(
    `/${collection.plural}/:id`,
    {
      config: owned(collection.kind),
      schema: {
        tags: collection.tags,
        summary: route.summary,
        response: { 200: wrapped(key, collection.ref, route.description) },
      },
    },
    async (request) => ({ [key]: await route.get(request.params.id, request) }),
  );
}

/** `PATCH /<plural>/:id`: 200 with `{ <kind>: … }`, audited as `<kind>.update` with the fields sent. */
export function ownedUpdateRoute<Body extends object>(
  app: FastifyInstance,
  audit: RecordAudit,
  collection: OwnedCollection,
  route: {
    summary: string;
    /** The operation's name in the OpenAPI document, where the route has one. */
    operationId?: string;
    body: object;
    /** The 200 answer's description. */
    description: string;
    /** Changes the item with the owning service: the item as changed, and its JSON. */
    update: (id: string, body: Body, request: FastifyRequest) => Promise<{ resource: { id: string }; json: unknown }>;
  },
): void {
  const key = keyOf(collection);
  app.patch<{ Params: { id: string }; Body: Body }>(
    `/${collection.plural}/:id`,
    {
      config: owned(collection.kind),
      schema: {
        tags: collection.tags,
        summary: route.summary,
        ...(route.operationId ? { operationId: route.operationId } : {}),
        body: route.body,
        response: { 200: wrapped(key, collection.ref, route.description), 409: nameTakenResponse },
      },
    },
    async (request) => {
      // As in teamCreateRoute: `route.body` has validated it.
      const body = request.body as Body;
      const { resource, json } = await route.update(request.params.id, body, request);
      await audit(request, updatedEvent(collection.kind, resource.id, body));
      return { [key]: json };
    },
  );
}

/**
 * `DELETE /<plural>/:id`: 204, audited as `<kind>.delete` with the name it had. A second delete is
 * a 404, as for any id that does not exist.
 */
export function ownedDeleteRoute(
  app: FastifyInstance,
  audit: RecordAudit,
  collection: OwnedCollection,
  route: {
    summary: string;
    operationId: string;
    /** Deletes the item with the owning service; the item as it was. */
    delete: (id: string, request: FastifyRequest) => Promise<{ id: string; name: string }>;
  },
): void {
  app.delete<{ Params: { id: string } }>(
    `/${collection.plural}/:id`,
    {
      config: owned(collection.kind),
      schema: {
        tags: collection.tags,
        summary: route.summary,
        operationId: route.operationId,
        response: { 204: { type: "null", description: "Deleted." } },
      },
    },
    async (request, reply) => {
      const resource = await route.delete(request.params.id, request);
      await audit(request, {
        action: `${collection.kind}.delete`,
        target: { kind: collection.kind, id: resource.id },
        details: { name: resource.name },
      });
      return reply.code(204).send();
    },
  );
}

/** `GET /<plural>/:id/<children>`: a page of an item's children, newest first (`cursor`, `limit`). */
export function ownedPageRoute(
  app: FastifyInstance,
  collection: OwnedCollection,
  route: {
    /** The path's last segment and the answer's key: `pings`. */
    children: string;
    /** The OpenAPI component of one child. */
    ref: string;
    summary: string;
    /** The 200 answer's description. */
    description: string;
    /** A page from the owning service: the children as JSON, and its cursor ("" for the last page). */
    page: (id: string, page: { cursor: string; limit: number }) => Promise<{ items: unknown[]; nextCursor: string }>;
  },
): void {
  app.get<{ Params: { id: string }; Querystring: PageQuery }>(
    `/${collection.plural}/:id/${route.children}`,
    {
      config: owned(collection.kind),
      schema: {
        tags: collection.tags,
        summary: route.summary,
        querystring: pageOnlyQuery,
        response: { 200: page(route.children, route.ref, route.description) },
      },
    },
    async (request) => {
      const { items, nextCursor } = await route.page(request.params.id, pageRequest(request.query));
      return { [route.children]: items, nextCursor: orNull(nextCursor) };
    },
  );
}
