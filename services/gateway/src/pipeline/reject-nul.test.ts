import { describe, expect, it } from "vitest";
import { nulCharacterDetails } from "./reject-nul.ts";

describe("nulCharacterDetails", () => {
  it("names every string and key holding U+0000, with bracketed array indexes", () => {
    expect(
      nulCharacterDetails({ name: "a\u0000b", filterRules: [{ field: "title", value: ["ok", "x\u0000"] }] }, ""),
    ).toEqual([
      { field: "name", message: "name must not contain the NUL character (U+0000)." },
      {
        field: "filterRules[0].value[1]",
        message: "filterRules[0].value[1] must not contain the NUL character (U+0000).",
      },
    ]);
    expect(nulCharacterDetails({ "k\u0000": 1 }, "")).toEqual([
      { field: "k\u0000", message: "k\u0000: keys must not contain the NUL character (U+0000)." },
    ]);
  });

  it("finds nothing in clean values, numbers, null and empty bodies", () => {
    expect(nulCharacterDetails({ name: "ok", n: 1, z: null, list: [true] }, "")).toEqual([]);
    expect(nulCharacterDetails(undefined, "")).toEqual([]);
  });
});
