import { PAGE_LIMITS, type PageQuery } from "@pulsegate/sdk";
import { type Command, Option } from "commander";
import { integer } from "../option-parsers.ts";

export type PageFlags = { limit?: number; cursor?: string };

/** --limit and --cursor, for lists the API pages. */
export const pageOptions = (command: Command) =>
  command
    .addOption(new Option("--limit <n>", `at most this many (1–${PAGE_LIMITS.max})`).argParser(integer(1)))
    .option("--cursor <cursor>", "continue from a previous page's nextCursor");

export const pageQuery = (flags: PageFlags): PageQuery => ({
  ...(flags.limit === undefined ? {} : { limit: flags.limit }),
  ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }),
});

/** The line that tells how to get the next page, when there is one. */
export const printNextCursor = (page: { nextCursor: string | null }): string =>
  page.nextCursor ? `more: --cursor '${page.nextCursor}'\n` : "";
