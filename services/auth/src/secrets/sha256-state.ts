// Export and resume a SHA-256 "midstate": the eight 32-bit chaining words
// after an integral number of 64-byte blocks have been compressed.
//
// @noble/hashes keeps the chaining words behind protected get()/set() and the
// processed-byte count in the protected `length`; a subclass is the typed way
// to reach them. clone()/_cloneInto() construct `new this.constructor()`, so
// clones of a resumed hasher are resumed hashers too.
import { _SHA256 } from "@noble/hashes/sha2.js";

/** Size of one SHA-256 block, and of the HMAC key block (RFC 2104 "B"). */
export const SHA256_BLOCK_BYTES = 64;
/** Size of a serialized SHA-256 chaining state (8 big-endian uint32 words). */
export const SHA256_STATE_BYTES = 32;

export class ResumableSha256 extends _SHA256 {
  /**
   * A hasher that behaves as if it had already been fed exactly one 64-byte
   * block whose compression produced `state` (32 bytes, big-endian words).
   */
  static afterOneBlock(state: Uint8Array): ResumableSha256 {
    if (state.length !== SHA256_STATE_BYTES) {
      throw new RangeError(`SHA-256 state must be ${SHA256_STATE_BYTES} bytes, got ${state.length}`);
    }
    const view = new DataView(state.buffer, state.byteOffset, state.byteLength);
    const h = new ResumableSha256();
    h.set(
      view.getUint32(0),
      view.getUint32(4),
      view.getUint32(8),
      view.getUint32(12),
      view.getUint32(16),
      view.getUint32(20),
      view.getUint32(24),
      view.getUint32(28),
    );
    // The message length counter feeds the final padding; pos stays 0
    // (no partial block buffered).
    h.length = SHA256_BLOCK_BYTES;
    return h;
  }

  /** Serialize the chaining state. Only defined on a block boundary. */
  exportState(): Uint8Array {
    if (this.finished || this.destroyed || this.pos !== 0) {
      throw new Error("SHA-256 state can only be exported on a block boundary, before digest()");
    }
    const out = new Uint8Array(SHA256_STATE_BYTES);
    const view = new DataView(out.buffer);
    const words = this.get();
    for (let i = 0; i < words.length; i++) view.setUint32(4 * i, words[i] ?? 0);
    return out;
  }
}
