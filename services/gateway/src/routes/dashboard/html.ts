import { html } from "htm/preact";
import type { ComponentChildren, VNode } from "preact";
import { render } from "preact-render-to-string";

/**
 * Pages are Preact elements written with htm's tagged templates (no build step) and rendered to
 * a string on the server: every interpolated value is escaped by the renderer, in text and in
 * attributes alike. Nothing here ever builds HTML by concatenating strings.
 */
export { html };
export type Html = VNode | VNode[] | string | null;
export type Children = ComponentChildren;

export function renderDocument(tree: Html): string {
  return `<!doctype html>${render(tree as VNode)}`;
}
