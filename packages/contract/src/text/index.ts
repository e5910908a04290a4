export { nameProblem } from "./display-name.ts";
export { checkStoredText } from "./stored-text.ts";
export {
  findUnstorableText,
  type TextFault,
  type TextProblem,
  textFault,
  textProblem,
} from "./unstorable-text.ts";
export { newUrlToken } from "./url-token.ts";
export { hasVisibleText } from "./visible-text.ts";
