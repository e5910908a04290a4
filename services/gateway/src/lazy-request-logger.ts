import type { FastifyBaseLogger } from "fastify";

const LEVELS = new Set(["trace", "debug", "info", "warn", "error", "fatal"]);
const noop = () => undefined;

/**
 * A request's logger that makes its pino child (with the request's id and
 * path bound, redaction applied) only when a line is actually written at an
 * enabled level: most requests log nothing, and a child per request cost a
 * few microseconds of every one of them.
 */
export function lazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: () => Record<string, unknown>,
  options: object,
): FastifyBaseLogger {
  let child: FastifyBaseLogger | undefined;
  const real = () => {
    child ??= parent.child(bindings(), options);
    return child as unknown as Record<string | symbol, unknown>;
  };
  const enabled = (level: string) =>
    (parent as unknown as { isLevelEnabled: (l: string) => boolean }).isLevelEnabled(level);
  return new Proxy({} as FastifyBaseLogger, {
    get(_target, property) {
      if (property === "level") return child ? child.level : parent.level;
      if (property === "isLevelEnabled") return enabled;
      // Fastify checks that the logger has a child() (and the level methods): answer without making one.
      if (property === "child" && !child) {
        return (more: Record<string, unknown>, moreOptions?: object) =>
          (real().child as FastifyBaseLogger["child"])(more, moreOptions);
      }
      if (typeof property === "string" && LEVELS.has(property) && !child) {
        // Looked at (Fastify checks the methods exist) without writing: no child yet.
        if (!enabled(property)) return noop;
        return (...args: unknown[]) => (real()[property] as (...a: unknown[]) => void)(...args);
      }
      const target = real();
      const value = target[property];
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(_target, property, value) {
      real()[property] = value;
      return true;
    },
  });
}
