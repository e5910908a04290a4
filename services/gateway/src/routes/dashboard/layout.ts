import { type Actor, reachesEveryTeam, teamAccessOf } from "../admin/actor.ts";
import type { ApiError } from "./admin-client.ts";
import { FAVICON_PATH } from "./assets.ts";
import { type Children, type Html, html } from "./html.ts";
import type { Flash, Session } from "./session-store.ts";

export type TeamTab = "alerts" | "monitors" | "webhooks" | "channels" | "silences" | "access" | "settings";

export type LayoutOptions = {
  title: string;
  session?: Session | undefined;
  /** The team whose pages these are, for the tab bar. */
  team?: { id: string; name: string } | undefined;
  tab?: TeamTab | undefined;
  flash?: Flash | undefined;
  /** More for the document's head (the refresh after signing in through the identity provider). */
  head?: Children;
  children: Children;
};

const TABS: [TeamTab, string][] = [
  ["alerts", "Alerts"],
  ["monitors", "Monitors"],
  ["webhooks", "Webhooks"],
  ["channels", "Channels"],
  ["silences", "Silences"],
  ["access", "Access"],
  ["settings", "Settings"],
];

export const teamPath = (teamId: string, rest = "") => `/dashboard/teams/${encodeURIComponent(teamId)}${rest}`;

/** The hidden field every POST form carries (session-bound CSRF token). */
export const csrfField = (session: Session) => html`<input type="hidden" name="_csrf" value=${session.csrfToken} />`;

/** A one-button POST form (acknowledge, pause, retry…); `name` tells screen readers what it acts on. */
export function actionButton(session: Session, action: string, label: string, className = "button", name?: string) {
  return html`<form method="post" action=${action} class="inline">
    ${csrfField(session)}<button type="submit" class=${className} aria-label=${name}>${label}</button>
  </form>`;
}

/** A block of text with a copy button (secrets, snippets, URLs). */
export function copyable(id: string, text: string, label: string) {
  return html`<div class="copyable">
    <pre id=${id} tabindex="0"><code>${text}</code></pre>
    <button type="button" class="button small" data-copy=${id} aria-label=${`Copy ${label}`}>Copy</button>
  </div>`;
}

export function flashBlock(flash: Flash | undefined): Html {
  if (!flash) return null;
  if (flash.kind === "notice") return html`<p class="notice" role="status">${flash.text}</p>`;
  if (flash.kind === "error") return html`<p class="error" role="alert">${flash.text}</p>`;
  return html`<section class="secret" aria-labelledby="secret-title">
    <h2 id="secret-title">${flash.title}</h2>
    <p><strong>Copy it now: it is shown this once and never again.</strong> ${flash.note}</p>
    ${copyable("secret-value", flash.secret, "the secret")}
  </section>`;
}

/**
 * An admin API refusal, with the fields it named, each message once: a service's refusal repeats
 * its first field's message as the sentence (InvalidError.fields), which then is not shown twice.
 */
export function errorBlock(error: ApiError | undefined): Html {
  if (!error) return null;
  const seen = new Set<string>();
  const details = (error.details ?? []).filter((detail) => {
    const key = `${detail.field}\u0000${detail.message}`;
    return seen.has(key) ? false : Boolean(seen.add(key));
  });
  const repeated = details.some((detail) => detail.message === error.error);
  return html`<div class="error" role="alert">
    ${repeated ? null : html`<p>${error.error}</p>`}
    ${
      details.length
        ? html`<ul>
            ${details.map((detail) => html`<li><code>${detail.field}</code>: ${detail.message}</li>`)}
          </ul>`
        : null
    }
  </div>`;
}

/** Who is signed in, as the account bar says it. */
function whoIs(actor: Actor): string {
  if (actor.kind === "admin") return "Admin";
  if (actor.kind === "api_key") return `Key ${actor.name}`;
  const access = teamAccessOf(actor);
  return `${actor.name} (${access === undefined ? "admin" : access.scope === "write" ? "member" : "viewer"})`;
}

export function layout(options: LayoutOptions): Html {
  const { session, team, tab } = options;
  const admin = session !== undefined && reachesEveryTeam(session.actor);
  return html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"historyEnabled":false,"historyCacheSize":0}' />
      <title>${options.title} · Pulsegate</title>
      ${options.head}
      <link rel="icon" type="image/svg+xml" href=${FAVICON_PATH} />
      <link rel="stylesheet" href="/dashboard/assets/dashboard.css" />
      <script src="/dashboard/assets/htmx.min.js" defer></script>
      <script src="/dashboard/assets/dashboard.js" defer></script>
    </head>
    <body>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <a class="brand" href="/dashboard">Pulsegate</a>
        ${
          session
            ? html`<nav aria-label="Account" class="account">
                ${admin ? html`<a href="/dashboard/teams">All teams</a>` : null}
                <span class="muted">${whoIs(session.actor)}</span>
                <form method="post" action="/dashboard/logout" class="inline">
                  ${csrfField(session)}<button type="submit" class="link">Sign out</button>
                </form>
              </nav>`
            : null
        }
      </header>
      ${
        team
          ? html`<nav aria-label="Team" class="tabs">
              <span class="team-name">${team.name}</span>
              ${TABS.map(
                ([name, label]) =>
                  html`<a href=${teamPath(team.id, `/${name}`)} aria-current=${tab === name ? "page" : undefined}>${label}</a>`,
              )}
            </nav>`
          : null
      }
      <main id="main" tabindex="-1">${flashBlock(options.flash)} ${options.children}</main>
    </body>
  </html>`;
}

/**
 * A region that refreshes itself every few seconds (htmx): it fetches its own page again and
 * swaps in the element with the same id. Without JavaScript the page simply does not refresh.
 */
export function live(id: string, url: string, children: Children) {
  return html`<div id=${id} hx-get=${url} hx-trigger="every 5s" hx-select=${`#${id}`} hx-swap="outerHTML">
    ${children}
  </div>`;
}
