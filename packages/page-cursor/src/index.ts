export { decodeCursor, encodeCursor, invalidCursor, PAGE_LIMITS, pageSize } from "./page-cursor.ts";
