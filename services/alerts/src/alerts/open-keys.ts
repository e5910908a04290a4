/**
 * (team, group key)s this process recently left with an open alert: a hint,
 * never the truth. A batch tries to fold its hinted keys in its first
 * statement (so a fold is that one statement and the commit) and sends only
 * their triggers' data there; the other keys, and hinted ones that turn out
 * not to be open, go through the classify step. A wrong hint costs a little,
 * never correctness. Bounded: the least recently touched go first.
 */
export class OpenKeys {
  readonly #keys = new Set<string>();
  readonly #max: number;

  constructor(max = 50_000) {
    this.#max = max;
  }

  has(key: string): boolean {
    return this.#keys.has(key);
  }

  add(key: string): void {
    this.#keys.delete(key);
    this.#keys.add(key);
    if (this.#keys.size > this.#max) {
      const oldest = this.#keys.values().next();
      if (!oldest.done) this.#keys.delete(oldest.value);
    }
  }

  delete(key: string): void {
    this.#keys.delete(key);
  }
}
