/**
 * Page sizes and the cursor length of every list of the admin API (`PageQuery`): a `limit` runs
 * from 1 to `max` (`default` when unset), a cursor is at most `cursorMaxLength` characters. Written
 * here only: the services page with them and the gateway's list schemas read them, through
 * @pulsegate/contract/page-cursor.
 */
export const PAGE_LIMITS = { default: 50, max: 200, cursorMaxLength: 1_000 } as const;
