export * from "./words.ts";
