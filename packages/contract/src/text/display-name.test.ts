import { describe, expect, it } from "vitest";
import { nameProblem } from "./display-name.ts";

const control = "name must not contain control characters (U+0000 to U+001F, U+007F).";

describe("nameProblem", () => {
  it("refuses every C0 control character and DEL, and nothing else of the first 160 code points", () => {
    for (let code = 0; code < 160; code++) {
      const refused = code < 0x20 || code === 0x7f;
      const problem = nameProblem(`a${String.fromCharCode(code)}b`, 200);
      expect(problem, `U+${code.toString(16).padStart(4, "0")}`).toEqual(
        refused ? { field: "name", message: control } : null,
      );
    }
  });

  it("requires a name and counts its length in code points", () => {
    expect(nameProblem("", 200)).toEqual({ field: "name", message: "name is required." });
    expect(nameProblem("😀".repeat(3), 3)).toBeNull();
    expect(nameProblem("😀".repeat(4), 3)).toEqual({ field: "name", message: "name must be at most 3 characters." });
    expect(nameProblem("Café ☕ über-backup", 200)).toBeNull();
  });
});
