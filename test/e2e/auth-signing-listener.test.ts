// Sign (HMAC with a team's secret) is a signing oracle. It is
// served only on auth's signing listener, which the NetworkPolicy opens to alerts
// alone; the main listener, which the gateway must reach, refuses it.
import { status } from "@grpc/grpc-js";
import { CODE_METADATA_KEY, callUnary, connectClient } from "@pulsegate/grpc";
import { auth } from "@pulsegate/proto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client, sign } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);
const main = connectClient(auth.AuthServiceClient, stack.grpc.auth, { deadlineMs: 5_000 });
const signing = connectClient(auth.AuthServiceClient, stack.grpc.authSigning, { deadlineMs: 5_000 });

afterAll(() => {
  main.close();
  signing.close();
});

/** The failed call's gRPC status and Pulsegate code. */
async function failure(call: Promise<unknown>): Promise<{ code: number; pulsegateCode: unknown }> {
  const error = await call.then(
    () => {
      throw new Error("the call succeeded");
    },
    (reason: { code: number; metadata?: { get: (key: string) => unknown[] } }) => reason,
  );
  return { code: error.code, pulsegateCode: error.metadata?.get(CODE_METADATA_KEY)[0] };
}

describe("auth signing listener", () => {
  it("refuses Sign on the main listener with PERMISSION_DENIED", async () => {
    const { teamId } = await client.createTeam();
    const payload = Buffer.from('{"event":"alert.created"}');
    expect(await failure(callUnary(main, "sign", { teamId, payload }))).toEqual({
      code: status.PERMISSION_DENIED,
      pulsegateCode: "sign_not_allowed",
    });
  });

  it("signs on the signing listener: HMAC-SHA256 of the payload with the team's secret", async () => {
    const { teamId, secret } = await client.createTeam();
    const payload = Buffer.from('{"event":"alert.created","alert":{"title":"Disk full"}}');
    const response = await callUnary(signing, "sign", { teamId, payload });
    expect(response.signature).toBe(sign(secret, payload));
  });

  it("serves nothing but Sign on the signing listener", async () => {
    const { teamId } = await client.createTeam();
    expect(await failure(callUnary(signing, "getTeam", { teamId }))).toEqual({
      code: status.PERMISSION_DENIED,
      pulsegateCode: "signing_listener_only",
    });
    // The main listener still serves the gateway's calls.
    expect((await callUnary(main, "getTeam", { teamId })).team?.id).toBe(teamId);
  });
});
