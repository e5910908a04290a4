export {
  decodeCursor,
  decodeIdCursor,
  encodeCursor,
  encodeIdCursor,
  invalidCursor,
  PAGE_LIMITS,
  pageSize,
} from "./page-cursor.ts";
