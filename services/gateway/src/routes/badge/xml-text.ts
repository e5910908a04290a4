/**
 * What XML 1.0 cannot contain at all (§2.2 Char), escaped or not: C0 controls other than tab,
 * LF and CR, unpaired surrogates, U+FFFE and U+FFFF. Names are refused with them, yet a badge
 * must stay XML whatever was stored before that rule.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Text for an XML element or a quoted attribute: markup escaped, impossible characters replaced by U+FFFD. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, "\ufffd").replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
