import { describe, expect, it } from "vitest";
import { isIanaTimeZone } from "./iana-time-zone.ts";

describe("isIanaTimeZone", () => {
  it("takes every zone Intl lists, UTC and the Etc zones", () => {
    for (const zone of Intl.supportedValuesOf("timeZone")) expect(isIanaTimeZone(zone), zone).toBe(true);
    for (const zone of ["UTC", "Etc/UTC", "Etc/GMT", "Etc/GMT+12", "Etc/GMT-14", "GMT"]) {
      expect(isIanaTimeZone(zone), zone).toBe(true);
    }
  });

  it("takes the tz database's other names, whatever this ICU calls their zone", () => {
    for (const zone of ["Asia/Kolkata", "Asia/Calcutta", "Europe/Kyiv", "US/Eastern", "America/Port-au-Prince"]) {
      expect(isIanaTimeZone(zone), zone).toBe(true);
    }
  });

  it("refuses offsets, unknown zones and names in another letter case", () => {
    for (const zone of ["+14:00", "-05:00", "+0530", "-03", "utc", "Utc", "gmt", "europe/berlin", "Europe/berlin"]) {
      expect(isIanaTimeZone(zone), zone).toBe(false);
    }
    for (const zone of ["etc/utc", "asia/kolkata", "us/eastern", "Mars/Olympus", "Etc/GMT+15", "", "Z"]) {
      expect(isIanaTimeZone(zone), zone).toBe(false);
    }
  });
});
