export {
  findUnstorableText,
  findUnstorableTextInJson,
  type TextFault,
  type TextProblem,
  textFault,
  textProblem,
} from "./unstorable-text.ts";
