import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };

/** One exported span, as an OTLP/HTTP JSON export carries it. */
export type ExportedSpan = {
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
  /** Status code: 0 unset, 1 ok, 2 error. */
  status: number;
  scope: string;
  /** The resource's service.name. */
  service: string;
  resource: Record<string, unknown>;
};

export const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;

function decodeValue(value: AnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, decodeValue(entry.value)]));
}

/**
 * A local OTLP/HTTP JSON receiver (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) on
 * 127.0.0.1: keeps every span the services export, decoded, and every raw
 * export body (for searches such as log hygiene).
 */
export class OtlpReceiver {
  readonly spans: ExportedSpan[] = [];
  readonly bodies: { path: string; body: string }[] = [];
  readonly #server: Server;
  readonly #waiters = new Set<() => void>();

  private constructor(server: Server) {
    this.#server = server;
  }

  /** On `port` (default: a free one) of `host` (default 127.0.0.1). */
  static async start(port = 0, host = "127.0.0.1"): Promise<OtlpReceiver> {
    let receiver: OtlpReceiver | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        if (receiver) receiver.#receive(request.url ?? "", Buffer.concat(chunks).toString("utf8"));
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    receiver = new OtlpReceiver(server);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, resolve);
    });
    return receiver;
  }

  /** The base URL for OTEL_EXPORTER_OTLP_ENDPOINT. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Resolves once `predicate` holds for the spans received; rejects after `timeoutMs`. */
  waitFor(predicate: (spans: ExportedSpan[]) => boolean, what: string, timeoutMs = 20_000): Promise<ExportedSpan[]> {
    if (predicate(this.spans)) return Promise.resolve(this.spans);
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate(this.spans)) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(this.spans);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`OTLP receiver: timed out waiting for ${what}; got ${this.spans.length} span(s)`));
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  /** Every span of one trace. */
  trace(traceId: string): ExportedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((done) => this.#server.close(done));
  }

  #receive(path: string, body: string): void {
    this.bodies.push({ path, body });
    if (!path.endsWith("/v1/traces")) return;
    const parsed = JSON.parse(body || "{}") as {
      resourceSpans?: {
        resource?: { attributes?: KeyValue[] };
        scopeSpans?: {
          scope?: { name?: string };
          spans?: {
            traceId: string;
            spanId: string;
            parentSpanId?: string;
            name: string;
            kind?: number;
            attributes?: KeyValue[];
            links?: { traceId: string; spanId: string; attributes?: KeyValue[] }[];
            status?: { code?: number };
          }[];
        }[];
      }[];
    };
    for (const resourceSpan of parsed.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpan.resource?.attributes);
      for (const scope of resourceSpan.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? "",
            name: span.name,
            kind: span.kind ?? 0,
            attributes: attributesOf(span.attributes),
            links: (span.links ?? []).map((link) => ({
              traceId: link.traceId,
              spanId: link.spanId,
              attributes: attributesOf(link.attributes),
            })),
            status: span.status?.code ?? 0,
            scope: scope.scope?.name ?? "",
            service: String(resource["service.name"] ?? "?"),
            resource,
          });
        }
      }
    }
    for (const waiter of [...this.#waiters]) waiter();
  }
}
