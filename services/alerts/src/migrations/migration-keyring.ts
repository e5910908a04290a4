import type { Keyring } from "@pulsegate/sealing";

let provider: (() => Keyring) | undefined;

/**
 * Migrations that seal data (0006) need the KEK. openAlertsDatabase hands it
 * over lazily, so migrating a database with nothing to seal never needs
 * SECRET_KEK (a migrate Job without it still works then).
 */
export function provideMigrationKeyring(provide: () => Keyring): void {
  provider = provide;
}

export function migrationKeyring(): Keyring {
  if (!provider) throw new Error("a migration needs SECRET_KEK to seal existing rows, and none was provided");
  return provider();
}
