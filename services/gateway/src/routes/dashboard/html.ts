import { createRequire } from "node:module";

/**
 * Pages are Preact elements written with htm's tagged templates (no build step) and rendered to
 * a string on the server: every interpolated value is escaped by the renderer, in text and in
 * attributes alike. Nothing here ever builds HTML by concatenating strings.
 *
 * Loaded untyped on purpose: Preact's type declarations pull the DOM library into the whole
 * project's type check (its JSX types reference it), which changes the global fetch and Body
 * types every Node package here is checked against. Templates are strings to TypeScript anyway.
 */
const require = createRequire(import.meta.url);
const htm = require("htm/preact") as { html: (strings: TemplateStringsArray, ...values: unknown[]) => Html };
const renderer = require("preact-render-to-string") as { render: (tree: Html) => string };

/** A rendered-to-be element, a list of them, text, or nothing. */
export type Html = { readonly __element?: never } | Html[] | string | number | null | undefined | boolean;
export type Children = Html;

export const html = htm.html;

export function renderDocument(tree: Html): string {
  return `<!doctype html>${renderer.render(tree)}`;
}
