import type { FastifyReply } from "fastify";
import type { ApiError } from "./admin-client.ts";
import type { PageContext } from "./context.ts";
import { type Children, html } from "./html.ts";
import { csrfField, errorBlock, type TeamTab } from "./layout.ts";
import type { Team } from "./resources.ts";
import { sendTeamPage } from "./team-page.ts";

export type Confirmation = {
  team: Team;
  tab: TeamTab;
  /** "Delete monitor Nightly backup?" */
  question: string;
  /** What happens, at once and later, in a few short sentences. */
  consequences: Children[];
  /** Where the form posts (the same path as this page). */
  action: string;
  submit: string;
  /** Where "Cancel" leads back to. */
  back: string;
  /** A name the user must type to confirm (a team's): for what cannot be undone and reaches far. */
  typeToConfirm?: string;
  error?: ApiError | undefined;
};

/**
 * A confirmation step as a page of its own, for what cannot be undone: it says what will happen and
 * asks for one more POST (with the session's CSRF token), so it works without JavaScript.
 */
export function sendConfirmPage(ctx: PageContext, confirmation: Confirmation): FastifyReply {
  const { team, question, action, submit, back, typeToConfirm, error } = confirmation;
  return sendTeamPage(ctx, {
    team,
    tab: confirmation.tab,
    title: question,
    status: error?.status,
    children: html`<h1>${question}</h1>
      ${errorBlock(error)}
      <ul class="consequences">${confirmation.consequences.map((line) => html`<li>${line}</li>`)}</ul>
      <form method="post" action=${action}>
        ${csrfField(ctx.session)}
        ${
          typeToConfirm === undefined
            ? null
            : html`<div class="fields"><div>
                <label for="confirm-name">Type <strong>${typeToConfirm}</strong> to confirm</label>
                <input id="confirm-name" name="confirm" required autocomplete="off" />
              </div></div>`
        }
        <p class="actions">
          <button type="submit" class="button danger">${submit}</button>
          <a class="button secondary" href=${back}>Cancel</a>
        </p>
      </form>`,
  });
}
