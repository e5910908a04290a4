// The SDK's copy of the API's words (words.ts) against their one home, packages/vocabulary: a word
// added to or dropped from the API must be added to or dropped from the SDK too.
import * as vocabulary from "@pulsegate/vocabulary";
import { describe, expect, it } from "vitest";
import * as sdk from "./words.ts";

const lists: [string, readonly string[], readonly string[]][] = [
  ["SEVERITIES", sdk.SEVERITIES, vocabulary.SEVERITIES],
  ["ALERT_STATUSES", sdk.ALERT_STATUSES, vocabulary.ALERT_STATUSES],
  ["ALERT_SOURCES", sdk.ALERT_SOURCES, vocabulary.ALERT_SOURCES],
  ["MONITOR_STATUSES", sdk.MONITOR_STATUSES, vocabulary.MONITOR_STATUSES],
  ["PING_STATUSES", sdk.PING_STATUSES, vocabulary.PING_STATUSES],
  ["CHANNEL_KINDS", sdk.CHANNEL_KINDS, vocabulary.CHANNEL_KINDS],
  ["DELIVERY_STATUSES", sdk.DELIVERY_STATUSES, vocabulary.DELIVERY_STATUSES],
  ["DELIVERY_EVENTS", sdk.DELIVERY_EVENTS, vocabulary.DELIVERY_EVENTS],
];

describe("the SDK's words", () => {
  it.each(lists)("%s equals @pulsegate/vocabulary's, word for word and in order", (_name, ours, theirs) => {
    expect(ours).toEqual(theirs);
  });

  it("copies every list of @pulsegate/vocabulary, and nothing else", () => {
    const listsOf = (module: object) =>
      Object.entries(module)
        .filter(([, value]) => Array.isArray(value))
        .map(([name]) => name)
        .sort();
    const names = lists.map(([name]) => name).sort();
    expect(listsOf(sdk)).toEqual(names);
    expect(listsOf(vocabulary)).toEqual(names);
  });
});
