import type { DomainError } from "@pulsegate/contract/errors";
import { domainErrorToGrpc } from "@pulsegate/grpc";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertsErrors } from "../../alerts/src/errors.ts";
import { authErrors } from "../../auth/src/errors.ts";
import { monitorsErrors } from "../../monitors/src/errors.ts";
import { ERROR_CATALOGUE, type ErrorCode } from "./error-catalogue.ts";
import { httpErrorFromGrpc } from "./grpc-status-to-http.ts";
import { buildTestApp } from "./testing/build-test-app.ts";

type ErrorSchema = { properties?: { code?: { enum?: string[] } } };
type ErrorResponse = { $ref?: string; content?: { "application/json"?: { schema?: ErrorSchema } } };
type Operation = { responses?: Record<string, ErrorResponse> };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { responses?: Record<string, ErrorResponse> };
};

/** Every (HTTP status, code) pair the OpenAPI document lists in its error responses (shared ones by reference). */
function documentedCodes(document: Document): [number, string][] {
  const pairs: [number, string][] = [];
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      for (const [status, listed] of Object.entries(operation.responses ?? {})) {
        const shared = listed.$ref?.replace("#/components/responses/", "");
        const response = shared === undefined ? listed : document.components?.responses?.[shared];
        const schema = response?.content?.["application/json"]?.schema;
        for (const code of schema?.properties?.code?.enum ?? []) pairs.push([Number(status), code]);
      }
    }
  }
  return pairs;
}

describe("the error catalogue", () => {
  let app: FastifyInstance;
  let documented: [number, string][];

  beforeAll(async () => {
    app = buildTestApp();
    await app.ready();
    documented = documentedCodes((await app.inject({ method: "GET", url: "/openapi.json" })).json());
  });
  afterAll(() => app.close());

  it("lists every code the OpenAPI document names, under the status the document gives it", () => {
    expect(documented.length).toBeGreaterThan(100);
    const wrong = documented.filter(([status, code]) => ERROR_CATALOGUE[code as ErrorCode]?.status !== status);
    expect(wrong).toEqual([]);
  });

  it("has no code the OpenAPI document leaves out (the dashboard's own aside)", () => {
    const named = new Set(documented.map(([, code]) => code));
    const undocumented = Object.entries(ERROR_CATALOGUE)
      .filter(([code, entry]) => !named.has(code) && !("dashboardOnly" in entry))
      .map(([code]) => code);
    expect(undocumented).toEqual([]);
  });

  it("has exactly one code for 'retry shortly': service_unavailable, 503", () => {
    const retryShortly = Object.entries(ERROR_CATALOGUE).filter(([, entry]) => entry.status === 503);
    expect(retryShortly).toEqual([["service_unavailable", ERROR_CATALOGUE.service_unavailable]]);
  });
});

/** Arguments for the services' error factories that take some. */
const ARGUMENTS: Record<string, unknown[]> = {
  invalid: [[{ field: "name", message: "name is required." }]],
  invalidArgument: ["name", "name is required."],
  deliveryNotFailed: ["pending"],
  tooManyChannels: [20],
  channelTestInProgress: [9],
  nameTaken: ["webhook"],
};

/** Sign is called by the alerts service only, never on a caller's behalf: these never reach the gateway. */
const SIGNING_ONLY = new Set(["signNotAllowed", "signingListenerOnly"]);

describe("every service's domain errors, through gRPC, reach callers with their own code", () => {
  const services = { alerts: alertsErrors, auth: authErrors, monitors: monitorsErrors };
  const cases = Object.entries(services).flatMap(([service, catalogue]) =>
    Object.entries(catalogue as Record<string, (...args: unknown[]) => DomainError>)
      .filter(([name]) => !SIGNING_ONLY.has(name))
      .map(([name, make]) => [`${service}.${name}`, make(...(ARGUMENTS[name] ?? []))] as const),
  );

  it.each(cases)("%s", (_, error) => {
    const sent = domainErrorToGrpc(error);
    const received = Object.assign(new Error(String(sent.details)), sent) as Error & { code: number };
    const answered = httpErrorFromGrpc(received);
    expect(answered.code).toBe(error.code);
    expect(answered.message).toBe(error.message);
    expect(answered.status).toBe(ERROR_CATALOGUE[error.code as ErrorCode].status);
  });
});
