export { NOT_FOUND_SENTENCES } from "./not-found-sentences.ts";
