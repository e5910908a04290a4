import { Metadata, status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { ItemFailure } from "./batch-per-turn.ts";
import { resendKeyedItems } from "./resend-keyed-items.ts";

type Item = { name: string; idempotencyKey: string };
const keyed = (name: string): Item => ({ name, idempotencyKey: `key-${name}` });
const bare = (name: string): Item => ({ name, idempotencyKey: "" });

/** What a grpc-js client call rejects with. */
const grpcError = (code: number) =>
  Object.assign(new Error(`${code}`), { code, details: "", metadata: new Metadata() });

/** A batch RPC whose first `failures` calls fail with `code`; records every batch it was sent. */
function flaky(failures: number, code = status.UNAVAILABLE) {
  const calls: string[][] = [];
  const send = async (items: Item[]) => {
    calls.push(items.map((item) => item.name));
    if (calls.length <= failures) throw grpcError(code);
    return items.map((item) => `done ${item.name}`);
  };
  return { send, calls };
}

describe("resendKeyedItems", () => {
  it("passes a call that succeeds through, once", async () => {
    const { send, calls } = flaky(0);
    expect(await resendKeyedItems(send)([bare("a"), keyed("b")])).toEqual(["done a", "done b"]);
    expect(calls).toEqual([["a", "b"]]);
  });

  it("after UNAVAILABLE, sends the keyed items again and fails the others with the call's error", async () => {
    const { send, calls } = flaky(1);
    const results = await resendKeyedItems(send)([bare("a"), keyed("b"), bare("c"), keyed("d")]);
    expect(calls).toEqual([
      ["a", "b", "c", "d"],
      ["b", "d"],
    ]);
    expect(results[1]).toBe("done b");
    expect(results[3]).toBe("done d");
    for (const index of [0, 2]) {
      expect(results[index]).toBeInstanceOf(ItemFailure);
      expect(((results[index] as ItemFailure).error as { code: number }).code).toBe(status.UNAVAILABLE);
    }
  });

  it("sends nothing again without a keyed item, after another status, or a second time", async () => {
    const unkeyed = flaky(1);
    await expect(resendKeyedItems(unkeyed.send)([bare("a"), bare("b")])).rejects.toMatchObject({ code: 14 });
    expect(unkeyed.calls).toHaveLength(1);

    const expired = flaky(1, status.DEADLINE_EXCEEDED);
    await expect(resendKeyedItems(expired.send)([keyed("a")])).rejects.toMatchObject({
      code: status.DEADLINE_EXCEEDED,
    });
    expect(expired.calls).toHaveLength(1);

    const twice = flaky(2);
    await expect(resendKeyedItems(twice.send)([keyed("a"), bare("b")])).rejects.toMatchObject({ code: 14 });
    expect(twice.calls).toEqual([["a", "b"], ["a"]]);
  });
});
