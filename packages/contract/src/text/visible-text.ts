/**
 * A character someone reading a chat notification would see: anything but white space (JS `\s`:
 * Unicode White_Space, line terminators and U+FEFF), control characters, the characters Unicode
 * says to draw as nothing when unsupported (Default_Ignorable_Code_Point: zero-width spaces and
 * joiners, soft hyphen, Hangul fillers, variation selectors, tags, bidi marks…) and the blank
 * Braille pattern U+2800, which every font draws empty.
 */
const VISIBLE = /[^\s\p{Cc}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** True when `value` has at least one visible character (a required title must). */
export function hasVisibleText(value: string): boolean {
  return VISIBLE.test(value);
}
