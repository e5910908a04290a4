/**
 * Bounds of a public request (the interface, sections 3 and 5), enforced by the gateway before any
 * service sees the request: the body's size, and how far a signed timestamp may be from its clock.
 */
export const REQUEST_LIMITS = {
  /** Public bodies over this many bytes are answered 413. */
  bodyMaxBytes: 1_048_576,
  /** How far a signed timestamp may be from the gateway's clock, either way (Standard Webhooks' 5 minutes). */
  timestampToleranceSeconds: 300,
} as const;

/** A byte count as the errors and the API description say it: "1 MiB", "512 KiB", "100 bytes". */
export function bytesText(bytes: number): string {
  if (bytes >= 2 ** 20 && bytes % 2 ** 20 === 0) return `${bytes / 2 ** 20} MiB`;
  if (bytes >= 2 ** 10 && bytes % 2 ** 10 === 0) return `${bytes / 2 ** 10} KiB`;
  return `${bytes} bytes`;
}
