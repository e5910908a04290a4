import { html } from "./html.ts";

const UNITS: [number, string][] = [
  [86_400_000, "d"],
  [3_600_000, "h"],
  [60_000, "min"],
  [1_000, "s"],
];

/** "3 min ago" / "in 2 h": the coarsest unit that fits. */
export function relative(iso: string, now = Date.now()): string {
  const delta = Date.parse(iso) - now;
  const size = Math.abs(delta);
  if (size < 1_000) return "just now";
  const [unit, name] = UNITS.find(([ms]) => size >= ms) ?? [1_000, "s"];
  const amount = Math.floor(size / unit);
  return delta < 0 ? `${amount} ${name} ago` : `in ${amount} ${name}`;
}

/** A time, relative for the eye, exact in the tooltip and for machines. */
export function time(iso: string | null | undefined, empty = "never") {
  if (!iso) return html`<span class="muted">${empty}</span>`;
  return html`<time datetime=${iso} title=${iso}>${relative(iso)}</time>`;
}

export function duration(seconds: number): string {
  if (seconds === 0) return "0 s";
  for (const [ms, name] of UNITS) {
    if ((seconds * 1_000) % ms === 0) return `${(seconds * 1_000) / ms} ${name}`;
  }
  return `${seconds} s`;
}

/** How long something took: "850 ms", "12.4 s", "3 min 20 s", "2 h 5 min". */
export function elapsed(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(Math.round(ms / 100) / 10).toString()} s`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3_600)} h ${Math.floor((seconds % 3_600) / 60)} min`;
}

/** Colour and text together: the word is always there, the colour only helps. */
export function badge(value: string | null | undefined) {
  const text = value ?? "unknown";
  return html`<span class=${`badge badge-${text.replace(/[^a-z0-9]/g, "_")}`}>${text}</span>`;
}
