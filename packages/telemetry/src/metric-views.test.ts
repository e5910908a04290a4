import { describe, expect, it } from "vitest";
import { metricViews } from "./metric-views.ts";

describe("metricViews", () => {
  it("renames exactly the instruments whose names lack their unit or end in _count, as exported today", () => {
    const renames = metricViews().flatMap((view) => (view.name ? [[view.instrumentName, view.name]] : []));
    expect(renames).toEqual(
      expect.arrayContaining([
        ["http.server.request.duration", "http.server.request.duration.seconds"],
        ["rpc.server.call.duration", "rpc.server.call.duration.seconds"],
        ["nodejs.eventloop.delay.min", "nodejs.eventloop.delay.min.seconds"],
        ["nodejs.eventloop.delay.max", "nodejs.eventloop.delay.max.seconds"],
        ["nodejs.eventloop.delay.mean", "nodejs.eventloop.delay.mean.seconds"],
        ["nodejs.eventloop.delay.stddev", "nodejs.eventloop.delay.stddev.seconds"],
        ["nodejs.eventloop.delay.p50", "nodejs.eventloop.delay.p50.seconds"],
        ["nodejs.eventloop.delay.p90", "nodejs.eventloop.delay.p90.seconds"],
        ["nodejs.eventloop.delay.p99", "nodejs.eventloop.delay.p99.seconds"],
        ["nodejs.eventloop.time", "nodejs.eventloop.time.seconds"],
        ["nodejs.eventloop.utilization", "nodejs.eventloop.utilization.ratio"],
        ["v8js.gc.duration", "v8js.gc.duration.seconds"],
        ["v8js.memory.heap.limit", "v8js.memory.heap.limit.bytes"],
        ["v8js.memory.heap.used", "v8js.memory.heap.used.bytes"],
        ["v8js.memory.heap.space.available_size", "v8js.memory.heap.space.available_size.bytes"],
        ["v8js.memory.heap.space.physical_size", "v8js.memory.heap.space.physical_size.bytes"],
        ["v8js.memory.heap.space.size", "v8js.memory.heap.space.size.bytes"],
        ["db.client.operation.duration", "db.client.operation.duration.seconds"],
        ["db.client.connection.count", "db.client.connections.usage"],
        ["pulsegate.heap.live", "pulsegate.heap.live.bytes"],
      ]),
    );
    expect(renames).toHaveLength(20);
  });

  it("drops outbound HTTP durations (one series per receiver)", () => {
    const dropped = metricViews().filter((view) => view.aggregation);
    expect(dropped.map((view) => view.instrumentName)).toEqual(["http.client.request.duration"]);
  });
});
