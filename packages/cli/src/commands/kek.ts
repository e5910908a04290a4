import type { KekResealCounts } from "@pulsegate/sdk";
import { Command } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { printResult } from "../print-output.ts";

const line = (what: string, counts: KekResealCounts) =>
  `${what}: ${counts.resealed} re-sealed, ${counts.alreadyCurrent} already under KEK ${counts.kekId}`;

/** KEK rotation from a shell: the admin API's side of `npm run rotate-kek` (docs/secrets.md). */
export function kekCommand(io: CliIo): Command {
  const kek = new Command("kek").description("the key-encryption key that seals secrets at rest (admin token only)");
  kek.addCommand(
    withAdminOptions(
      new Command("reseal").description(
        "re-seal every team secret and channel credential under the first key of the services' SECRET_KEK, and print counts; run after putting a new key first and restarting auth and alerts, then drop the old key",
      ),
    ).action(async (options: ConnectionOptions) => {
      const answer = await adminClient(io, options).resealUnderCurrentKek();
      printResult(
        io,
        options.json,
        answer,
        () => `${line("teams (webhook secrets)", answer.teams)}\n${line("channels (credentials)", answer.channels)}\n`,
      );
    }),
  );
  return kek;
}
