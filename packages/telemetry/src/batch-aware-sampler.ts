import { type Attributes, type Context, type Link, type SpanKind, TraceFlags, trace } from "@opentelemetry/api";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  type Sampler,
  SamplingDecision,
  type SamplingResult,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace-node";

/**
 * The sampler OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG name (the SDK's
 * own values and defaults: parentbased_always_on when unset), wrapped so that
 * a coalesced call follows the requests it carries: a span that starts a
 * trace with links (a batch of requests, batch-per-turn.ts) is sampled when
 * any linked request is, and only then. Left to the ratio alone, a batch
 * serving ten sampled requests would be kept a tenth of the time (their
 * traces would lose their hop to the service), and batches of unsampled
 * requests would make traces nobody asked for. Everything else is decided by
 * the configured sampler.
 */
export class BatchAwareSampler implements Sampler {
  readonly #delegate: Sampler;

  constructor(delegate: Sampler) {
    this.#delegate = delegate;
  }

  shouldSample(
    ctx: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    const parent = trace.getSpanContext(ctx);
    const isRoot = !parent || !trace.isSpanContextValid(parent);
    if (isRoot && links.length > 0) {
      const sampled = links.some((link) => (link.context.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED);
      return { decision: sampled ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD };
    }
    return this.#delegate.shouldSample(ctx, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `BatchAwareSampler{${this.#delegate.toString()}}`;
  }
}

/** The standard OTEL_TRACES_SAMPLER values (those the SDK reads from the environment). */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim() || "parentbased_always_on";
  const ratio = () => {
    const value = Number(env.OTEL_TRACES_SAMPLER_ARG);
    return env.OTEL_TRACES_SAMPLER_ARG !== undefined && value >= 0 && value <= 1 ? value : 1;
  };
  switch (name) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return new TraceIdRatioBasedSampler(ratio());
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    default:
      throw new Error(
        `Invalid configuration:\n  OTEL_TRACES_SAMPLER: unknown sampler "${name}" (always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio)`,
      );
  }
}
