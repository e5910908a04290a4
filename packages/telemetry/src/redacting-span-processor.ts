import type { Context } from "@opentelemetry/api";
import type { ReadableSpan, SpanProcessor } from "@opentelemetry/sdk-trace-node";
import { applyRpcConventions } from "./rpc-span-conventions.ts";
import { sanitizeSql } from "./sanitize-sql.ts";

type Span = Parameters<NonNullable<SpanProcessor["onEnding"]>>[0];

const SQL_ATTRIBUTES = ["db.query.text", "db.statement"];
const URL_ATTRIBUTES = ["url.path", "http.target", "url.full", "http.url"];
/** The public endpoints' path tokens identify a webhook or monitor: spans name the route, not the token. */
const PUBLIC_TOKEN = /(\/api\/alerts\/(?:trigger|resolve|alertmanager)\/|\/api\/ping\/|\/badge\/)[^/?#.]+/g;
/** Outbound requests (notifications): a channel's URL is a credential (a Slack webhook's path is its secret). */
const OUTBOUND_SCOPES = new Set(["@opentelemetry/instrumentation-undici"]);

/**
 * Wraps the exporting processor and, as each span ends (while it can still be
 * changed), replaces SQL literals with `?` and public URL tokens with the
 * route's placeholder; outbound requests keep only their origin. It also
 * brings gRPC spans to the current RPC conventions (rpc-span-conventions.ts).
 * One choke point for every instrumentation, so no span leaves the process
 * with a channel URL, a title, metadata or a token in it.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  readonly #next: SpanProcessor;

  constructor(next: SpanProcessor) {
    this.#next = next;
  }

  onStart(span: Span, parentContext: Context): void {
    this.#next.onStart(span, parentContext);
  }

  onEnding(span: Span): void {
    for (const key of SQL_ATTRIBUTES) {
      const value = span.attributes[key];
      if (typeof value === "string") span.setAttribute(key, sanitizeSql(value));
    }
    for (const key of URL_ATTRIBUTES) {
      const value = span.attributes[key];
      if (typeof value === "string" && PUBLIC_TOKEN.test(value)) {
        span.setAttribute(key, value.replace(PUBLIC_TOKEN, "$1{token}"));
      }
      PUBLIC_TOKEN.lastIndex = 0;
    }
    if (OUTBOUND_SCOPES.has(span.instrumentationScope.name)) redactOutboundUrl(span);
    applyRpcConventions(span as unknown as Parameters<typeof applyRpcConventions>[0]);
    this.#next.onEnding?.(span);
  }

  onEnd(span: ReadableSpan): void {
    this.#next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.#next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.#next.shutdown();
  }
}

/** `url.full` becomes the origin alone; path and query, which may hold a token, are dropped. */
function redactOutboundUrl(span: Span): void {
  const attributes = span.attributes as Record<string, unknown>;
  const full = attributes["url.full"];
  if (typeof full === "string") {
    let origin = "";
    try {
      origin = new URL(full).origin;
    } catch {
      origin = "";
    }
    span.setAttribute("url.full", origin === "" || origin === "null" ? "{redacted}" : origin);
  }
  if ("url.path" in attributes) span.setAttribute("url.path", "{redacted}");
  delete attributes["url.query"];
}
