import type { FastifyReply } from "fastify";
import { must } from "./admin-client.ts";
import { type PageContext, sendPage } from "./context.ts";
import { type Children, renderDocument } from "./html.ts";
import { layout, type TeamTab } from "./layout.ts";
import type { Team } from "./resources.ts";

export async function loadTeam(ctx: PageContext, teamId: string): Promise<Team> {
  return must(await ctx.api<{ team: Team }>("GET", `/teams/${encodeURIComponent(teamId)}`)).team;
}

/**
 * The session's one-time message, forgotten once shown. A live region's refresh (htmx) never takes
 * it: it would swap in only its own region, and a secret shown once would be lost.
 */
export function takeFlash(ctx: PageContext) {
  if (ctx.request.headers["hx-request"]) return undefined;
  const flash = ctx.session.flash;
  ctx.session.flash = undefined;
  return flash;
}

/** A page in a team's tabs; shows (and forgets) the session's one-time message. */
export function sendTeamPage(
  ctx: PageContext,
  options: { team: Team; tab: TeamTab; title: string; children: Children; status?: number },
): FastifyReply {
  const flash = takeFlash(ctx);
  return sendPage(
    ctx.reply,
    renderDocument(
      layout({
        title: `${options.title} · ${options.team.name}`,
        session: ctx.session,
        team: options.team,
        tab: options.tab,
        flash,
        children: options.children,
      }),
    ),
    options.status,
  );
}
