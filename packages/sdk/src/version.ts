/** Sent in User-Agent; kept in step with package.json by hand. */
export const SDK_VERSION = "0.1.0";
