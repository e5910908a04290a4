import { xmlText } from "./xml-text.ts";

/** A status badge in the flat shields.io style: the monitor's name on grey, its status in colour. */

const COLOURS: Record<string, string> = {
  up: "#4c1",
  down: "#e05d44",
  idle: "#9f9f9f",
  paused: "#9f9f9f",
};

const NAME_MAX = 40;

/** Verdana 11px is about 6.5 px a character on average; exact widths are not worth a font table. */
function widthOf(text: string): number {
  return Math.round([...text].length * 6.5) + 10;
}

export function badgeSvg(name: string, status: string): string {
  const points = [...name];
  const label = points.length > NAME_MAX ? `${points.slice(0, NAME_MAX - 1).join("")}…` : name;
  const left = widthOf(label);
  const right = widthOf(status);
  const total = left + right;
  const colour = COLOURS[status] ?? COLOURS.idle;
  const text = xmlText(label);
  const state = xmlText(status);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${text}: ${state}">
<title>${text}: ${state}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${total}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${colour}"/><rect width="${total}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${left / 2}" y="14">${text}</text><text x="${left + right / 2}" y="14">${state}</text>
</g>
</svg>
`;
}
