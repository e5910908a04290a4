import type { FastifyInstance } from "fastify";
import type { SessionStore } from "./session-store.ts";

/** What the dashboard's pages are given: the gateway they call through, and the session store. */
export type DashboardDeps = { gateway: FastifyInstance; store: SessionStore };
