/**
 * What a browser is told about each surface of the gateway it may open: what the page may load and
 * run (Content-Security-Policy), that no other site may frame it (frame-ancestors, and
 * X-Frame-Options for browsers that predate it), and not to guess a content type. One place, so
 * the dashboard, the docs page and the badges share the basics and differ only where they must.
 */
const NO_FRAMING_NO_SNIFFING = {
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
} as const;

/** The dashboard: its own scripts, styles and images; htmx calls and forms go to itself. */
export const DASHBOARD_SECURITY_HEADERS = {
  ...NO_FRAMING_NO_SNIFFING,
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "referrer-policy": "same-origin",
} as const;

/**
 * The docs page (Swagger UI): every file comes from the gateway (no CDN, no inline script); its
 * icons are data: URIs; it reads the document and, with "Try it out", calls the API on this
 * origin. The one inline style is the <style> inside Swagger UI's logo, allowed by its hash: a
 * Swagger UI that draws another logs a CSP error, which test/e2e/openapi.test.ts fails on.
 */
const SWAGGER_UI_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";
export const DOCS_SECURITY_HEADERS = {
  ...NO_FRAMING_NO_SNIFFING,
  "content-security-policy": `default-src 'none'; script-src 'self'; style-src 'self' ${SWAGGER_UI_LOGO_STYLE}; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  "referrer-policy": "same-origin",
} as const;

/** A badge is an image that draws with attributes only: nothing in it may run or load, nor be framed. */
export const BADGE_SECURITY_HEADERS = {
  ...NO_FRAMING_NO_SNIFFING,
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
} as const;
