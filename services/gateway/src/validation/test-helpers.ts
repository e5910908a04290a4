// Fixtures shared by the validation tests.

/** `{"a":{"a":...{}}}` with `levels` object levels ({} is level 1). */
export function nestedObject(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** An object whose JSON.stringify is exactly `bytes` UTF-8 bytes: {"a":"xxx…"} is 8 + n. */
export function objectOfBytes(bytes: number, filler = "x"): Record<string, unknown> {
  const fillerBytes = Buffer.byteLength(filler);
  const room = bytes - 8;
  const value = filler.repeat(Math.floor(room / fillerBytes)) + "x".repeat(room % fillerBytes);
  return { a: value };
}
