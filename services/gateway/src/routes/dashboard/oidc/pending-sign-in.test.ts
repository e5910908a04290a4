import fastifyCookie from "@fastify/cookie";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { createPendingCookie } from "./pending-sign-in.ts";

const pending = { state: "st", nonce: "no", codeVerifier: "cv", returnTo: "/dashboard/teams" };

async function app(secret: string) {
  const server = Fastify();
  await server.register(fastifyCookie);
  const cookie = createPendingCookie(secret);
  server.get("/dashboard/oidc/login", async (request, reply) => {
    cookie.set(request, reply, pending);
    return "set";
  });
  server.get("/dashboard/oidc/callback", async (request, reply) => ({ pending: cookie.take(request, reply) ?? null }));
  return server;
}

describe("the pending sign-in cookie", async () => {
  const here = await app("client-secret");
  const other = await app("another-secret");
  afterAll(async () => {
    await here.close();
    await other.close();
  });

  it("is sealed, HttpOnly, SameSite=Lax, on the callback's path, and comes back as it was set", async () => {
    const set = await here.inject({ url: "/dashboard/oidc/login" });
    const header = String(set.headers["set-cookie"]);
    expect(header).toMatch(
      /^pulsegate_oidc=[A-Za-z0-9_-]+; Max-Age=600; Path=\/dashboard\/oidc; HttpOnly; SameSite=Lax$/,
    );
    expect(header).not.toContain("cv");
    const value = header.split(";")[0] ?? "";
    const back = await here.inject({ url: "/dashboard/oidc/callback", headers: { cookie: value } });
    expect(back.json()).toEqual({ pending });
    expect(String(back.headers["set-cookie"])).toMatch(/^pulsegate_oidc=; Max-Age=0; Path=\/dashboard\/oidc/);
  });

  it("opens only with the same client secret, and not when altered", async () => {
    const set = await here.inject({ url: "/dashboard/oidc/login" });
    const value = String(set.headers["set-cookie"]).split(";")[0] ?? "";
    const elsewhere = await other.inject({ url: "/dashboard/oidc/callback", headers: { cookie: value } });
    expect(elsewhere.json()).toEqual({ pending: null });
    const altered = `${value.slice(0, -2)}${value.endsWith("A") ? "B" : "A"}${value.slice(-1)}`;
    const tampered = await here.inject({ url: "/dashboard/oidc/callback", headers: { cookie: altered } });
    expect(tampered.json()).toEqual({ pending: null });
    const none = await here.inject({ url: "/dashboard/oidc/callback" });
    expect(none.json()).toEqual({ pending: null });
  });
});
