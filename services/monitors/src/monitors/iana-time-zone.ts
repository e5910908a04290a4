/** Intl's own spelling of a zone it accepts (its canonical name); null for one it does not know. */
function intlZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * Whether `name` is an IANA time zone name as the tz database spells it. Intl accepts more: UTC
 * offsets ("+14:00") and any letter case ("utc", "europe/berlin"). A name Intl spells as it is
 * given is canonical: everything Intl.supportedValuesOf("timeZone") lists, "UTC" (the default)
 * and the Etc/GMT±N zones. The tz database's other names (Asia/Kolkata, which this ICU calls
 * Asia/Calcutta; US/Eastern; Etc/UTC) are names too, but Intl cannot tell how they are spelled:
 * one that differs from its canonical zone only in case is refused, and the others must at least
 * capitalise each part, as every tz name does.
 */
export function isIanaTimeZone(name: string): boolean {
  if (name.startsWith("+") || name.startsWith("-")) return false;
  const canonical = intlZone(name);
  if (canonical === null) return false;
  if (canonical === name) return true;
  if (canonical.toLowerCase() === name.toLowerCase()) return false;
  return name.split("/").every((part) => /^[A-Z]/.test(part));
}
