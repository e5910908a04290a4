export { decodeCursor, encodeCursor, PAGE_LIMITS, pageSize } from "./page-cursor.ts";
