import { createServer } from "node:net";

/** A port of `host` that was free a moment ago (bind to 0, read, close). */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** N such that N..N+count-1 were all free a moment ago (for a block of ports counted from one). */
export async function freePortRange(count: number, host = "127.0.0.1"): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const all = await Promise.all(Array.from({ length: count }, (_, offset) => free(base + offset)));
    if (all.every(Boolean)) return base;
  }
}
