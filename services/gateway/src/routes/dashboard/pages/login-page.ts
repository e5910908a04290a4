import { html, renderDocument } from "../html.ts";
import { layout } from "../layout.ts";

/** The sign-in page; `sso`: the label of the identity provider's button, when one is configured. */
export function loginPage(error?: string, sso?: string): string {
  return renderDocument(
    layout({
      title: "Sign in",
      children: html`<section class="login">
        <h1>Sign in to Pulsegate</h1>
        ${error ? html`<p class="error" role="alert">${error}</p>` : null}
        ${
          sso
            ? html`<p><a class="button" href="/dashboard/oidc/login">${sso}</a></p>
                <p class="hint">Or, as break-glass, with a token:</p>`
            : null
        }
        <form method="post" action="/dashboard/login">
          <label for="token">Admin token or team API key</label>
          <input id="token" name="token" type="password" autocomplete="current-password" required autofocus />
          <p class="hint">
            The admin token is printed by <code>npm start</code>; a team API key (<code>pgk_…</code>) shows that team only.
            The token stays on the server: your browser keeps only a session cookie.
          </p>
          <p><button type="submit">Sign in</button></p>
        </form>
      </section>`,
    }),
  );
}
