/**
 * The last `limit` bytes of a stream of output, and that tail as text that can
 * travel in a ping's metadata: valid UTF-8 (a character cut in two at the start
 * is dropped, invalid bytes become U+FFFD), without terminal escapes, NUL or
 * other control characters than tab and newline.
 */
export class OutputTail {
  readonly #limit: number;
  #bytes: Buffer = Buffer.alloc(0);
  #total = 0;

  constructor(limit = 1024) {
    this.#limit = limit;
  }

  push(chunk: Buffer): void {
    this.#total += chunk.length;
    const kept = chunk.length >= this.#limit ? chunk : Buffer.concat([this.#bytes, chunk]);
    this.#bytes = kept.subarray(Math.max(0, kept.length - this.#limit));
  }

  /** True when older output was dropped. */
  get truncated(): boolean {
    return this.#total > this.#bytes.length;
  }

  text(): string {
    return sanitizeOutput(this.#bytes, this.truncated);
  }
}

// CSI (ESC [ … final byte) and OSC (ESC ] … BEL or ESC \) sequences, then any other lone escape.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal control codes is the point.
const TERMINAL_ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g;
// C0 controls but tab and newline, DEL, and the C1 range.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Output bytes as clean text; `cutAtStart` says the bytes may begin inside a character. */
export function sanitizeOutput(bytes: Uint8Array, cutAtStart = false): string {
  let start = 0;
  // At most three continuation bytes (10xxxxxx) belong to a character that began before the cut.
  if (cutAtStart) while (start < 3 && start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(start));
  return text.replace(/\r\n?/g, "\n").replace(TERMINAL_ESCAPES, "").replace(CONTROLS, "");
}
