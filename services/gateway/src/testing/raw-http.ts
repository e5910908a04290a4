import { connect } from "node:net";

export type RawResponse = {
  /** 0 when nothing parseable came back. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection before `waitMs` passed. */
  closed: boolean;
  /** From the first byte sent to the close (or to `waitMs`). */
  elapsedMs: number;
};

/**
 * Writes `parts` over one TCP connection, `gapMs` apart (what fetch cannot send: broken
 * request lines, oversized headers, trickled bodies), and reads until the server closes the
 * connection or `waitMs` passes. Only the first response is parsed.
 */
export function rawExchange(
  baseUrl: string,
  parts: Array<string | Buffer>,
  options: { gapMs?: number; waitMs?: number } = {},
): Promise<RawResponse> {
  const { gapMs = 0, waitMs = 5_000 } = options;
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname);
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ ...parseResponse(Buffer.concat(chunks).toString("latin1")), closed, elapsedMs: Date.now() - started });
    };
    const deadline = setTimeout(() => finish(false), waitMs);
    // The server may close while we still write (a 431 mid-header): that is the point.
    socket.on("error", () => {});
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("close", () => finish(true));
    let next = 0;
    const writeNext = () => {
      if (socket.destroyed || next >= parts.length) return;
      socket.write(parts[next++] as string | Buffer);
      timer = setTimeout(writeNext, gapMs);
    };
    socket.once("connect", writeNext);
  });
}

function parseResponse(text: string): Pick<RawResponse, "status" | "headers" | "body"> {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return { status: 0, headers: {}, body: text };
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers["content-length"] ?? Number.NaN);
  const rest = text.slice(end + 4);
  return {
    status: Number(statusLine.split(" ")[1] ?? 0),
    headers,
    body: Number.isNaN(length) ? rest : rest.slice(0, length),
  };
}
