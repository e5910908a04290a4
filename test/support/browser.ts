import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium (.ci/run installs it); CHROMIUM_PATH overrides. Playwright never downloads a browser here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install chromium (see .ci/run), or set CHROMIUM_PATH`);
  }
  // --no-sandbox: CI and development containers run as root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
}

/**
 * What a page's resources weigh (decoded bytes): the document, and everything it loaded. Browser
 * code as a string: the project is type-checked without the DOM library.
 */
export const PAGE_WEIGHT = `(() => {
  const navigation = performance.getEntriesByType("navigation")[0];
  const assets = performance.getEntriesByType("resource").reduce((sum, entry) => sum + entry.decodedBodySize, 0);
  return {
    page: navigation.decodedBodySize,
    assets,
    firstByteMs: Math.round(navigation.responseStart - navigation.requestStart),
    loadMs: Math.round(navigation.loadEventEnd - navigation.startTime),
  };
})()`;
export type PageWeight = { page: number; assets: number; firstByteMs: number; loadMs: number };
