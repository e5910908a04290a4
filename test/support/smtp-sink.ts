import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";

export type ReceivedMail = { from: string; to: string[]; data: string };

/**
 * A minimal SMTP server on 127.0.0.1 (port 0) standing in for a relay: it
 * accepts every message (EHLO, MAIL, RCPT, DATA, QUIT; no TLS, no auth) and
 * keeps it. `refuseWith` makes RCPT answer that code instead (4xx or 5xx).
 */
export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  refuseWith: number | null = null;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #port = 0;

  private constructor() {
    this.#server = createServer((socket) => this.#session(socket));
  }

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    await new Promise<void>((done) => sink.#server.listen(0, "127.0.0.1", done));
    sink.#port = (sink.#server.address() as AddressInfo).port;
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.#port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise((done) => this.#server.close(done));
  }

  #session(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on("close", () => this.#sockets.delete(socket));
    socket.setEncoding("utf8");
    let buffer = "";
    let inData = false;
    let mail: ReceivedMail = { from: "", to: [], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 smtp-sink ready");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          mail.data = buffer.slice(0, end).replace(/\r\n\.\./g, "\r\n.");
          buffer = buffer.slice(end + 5);
          inData = false;
          this.mails.push(mail);
          mail = { from: "", to: [], data: "" };
          reply("250 queued");
          continue;
        }
        const newline = buffer.indexOf("\r\n");
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 smtp-sink");
        else if (verb === "MAIL") {
          mail.from = line.slice(10).trim();
          reply("250 ok");
        } else if (verb === "RCPT") {
          if (this.refuseWith) reply(`${this.refuseWith} refused`);
          else {
            mail.to.push(line.slice(8).trim().replace(/^<|>$/g, ""));
            reply("250 ok");
          }
        } else if (verb === "DATA") {
          inData = true;
          reply("354 go ahead");
        } else if (verb === "RSET" || verb === "NOOP") reply("250 ok");
        else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else reply("502 not implemented");
      }
    });
  }
}
