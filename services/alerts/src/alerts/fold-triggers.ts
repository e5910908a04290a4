import { quotaKey, quotaMonth } from "@pulsegate/contract/quota";
import type { TextProblem } from "@pulsegate/contract/text";
import { inTransaction, type PgClient, type PgPool } from "@pulsegate/db";
import type { Logger } from "@pulsegate/runtime/logger";
import { isTransientError } from "@pulsegate/runtime/transient-error";
import { foldOutcomes } from "../metrics/alerts-metrics.ts";
import { alertIdempotencyKeys, FOLD_ANSWERS, type IdempotencyKeyReused } from "./alert-idempotency-keys.ts";
import {
  classifyKeys,
  type KeyToClassify,
  type KeyToFold,
  lockAndFold,
  type QuotaToLock,
  type TriggerToFold,
  writeBatch,
} from "./batch-statements.ts";
import type { OpenKeys } from "./open-keys.ts";
import {
  type FoldInput,
  type FoldResult,
  type KeyState,
  keyOf,
  newAlertId,
  planBatch,
  resolveResults,
} from "./plan-batch.ts";

export type { FoldInput, FoldResult } from "./plan-batch.ts";

/** A trigger the database refused on its own (it breaks a rule of the schema): the caller's to fix. */
export type RefusedResult = { outcome: "invalid"; violations: TextProblem[] };

export type FoldOptions = {
  log?: Logger;
  newId?: () => string;
  /** Keys likely open, kept across batches (see OpenKeys); without it every key is classified. */
  openKeys?: OpenKeys;
};

/** A batch is tried this many times when it loses a race (see RETRYABLE). */
const ATTEMPTS = 3;

/**
 * Folds a batch of accepted triggers into the teams' alerts (DESIGN §4) in
 * one transaction with one commit (batch-statements.ts): one statement takes
 * the advisory locks of all its (team, group key)s and folds the keys that
 * have an open alert; if anything is left, one statement classifies those
 * keys (and locks the usage of teams whose quota is in play), the decisions
 * are made in code (plan-batch.ts), and one statement writes them. Results
 * come back in the order of the inputs.
 *
 * A batch mixes teams, so a trigger the database refuses must not fail the
 * others: when a batch fails for any reason but an unreachable database, its
 * triggers are applied one at a time, and one that fails on its own with a
 * data or constraint error is answered `invalid` (other errors still throw).
 */
export async function foldTriggers(
  pool: PgPool,
  inputs: FoldInput[],
  options: FoldOptions = {},
): Promise<(FoldResult | RefusedResult | IdempotencyKeyReused)[]> {
  const results = await foldAll(pool, inputs, options);
  results.forEach((result, index) => {
    // A repeat answered from its key's first trigger folded nothing now.
    if ("replayed" in result && result.replayed) return;
    foldOutcomes.add(1, { outcome: result.outcome, source: (inputs[index] as FoldInput).source });
  });
  return results;
}

async function foldAll(
  pool: PgPool,
  inputs: FoldInput[],
  options: FoldOptions,
): Promise<(FoldResult | RefusedResult | IdempotencyKeyReused)[]> {
  if (inputs.length === 0) return [];
  try {
    return await foldBatch(pool, inputs, options);
  } catch (error) {
    if (isTransientError(error)) throw error;
    if (inputs.length > 1) {
      options.log?.warn(
        { err: error, triggers: inputs.length },
        "trigger batch failed: applying its triggers one by one",
      );
    }
  }
  const results: (FoldResult | RefusedResult | IdempotencyKeyReused)[] = [];
  for (const input of inputs) {
    try {
      results.push(...(await foldBatch(pool, [input], options)));
    } catch (error) {
      const code = sqlState(error);
      if (isTransientError(error) || !code || !ITEM_ERROR_CLASSES.has(code.slice(0, 2))) throw error;
      options.log?.warn({ err: error, teamId: input.teamId }, "trigger refused by the database");
      results.push({
        outcome: "invalid",
        violations: [{ field: "", message: `The trigger could not be stored (SQLSTATE ${code}).` }],
      });
    }
  }
  return results;
}

/** Data exceptions, integrity constraints, program limits (an index row too large): caused by the item. */
const ITEM_ERROR_CLASSES = new Set(["22", "23", "54"]);

/**
 * Lost races, tried again: a fold target resolved between classify and write,
 * a deadlock or serialization failure, and the unique index on open alerts
 * per key (a writer outside the advisory locks created one first).
 */
const RETRYABLE = new Set(["40001", "40P01", "23505"]);

class TargetMoved extends Error {
  readonly code = "40001";
  constructor() {
    super("an alert to fold into changed state before the write");
  }
}

async function foldBatch(
  pool: PgPool,
  inputs: FoldInput[],
  options: FoldOptions,
): Promise<(FoldResult | IdempotencyKeyReused)[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(pool, (client) => foldInTransaction(client, inputs, options));
    } catch (error) {
      const code = sqlState(error);
      if (attempt >= ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
    }
  }
}

/** Triggers with an Idempotency-Key are folded once per key (alert-idempotency-keys.ts); the others as they come. */
function foldInTransaction(
  client: PgClient,
  inputs: FoldInput[],
  options: FoldOptions,
): Promise<(FoldResult | IdempotencyKeyReused)[]> {
  return alertIdempotencyKeys.applyOnce(
    client,
    inputs,
    inputs.map((input) => input.idempotency ?? null),
    (claimed) => foldClaimed(client, claimed, options),
    FOLD_ANSWERS,
  );
}

async function foldClaimed(client: PgClient, inputs: FoldInput[], options: FoldOptions): Promise<FoldResult[]> {
  const { openKeys } = options;
  const results: FoldResult[] = new Array(inputs.length);
  const keys = new Map<string, KeyToFold & { index: number }>();
  const toFold: TriggerToFold[] = [];
  for (const input of inputs) {
    if (input.groupKey === null) continue;
    const id = keyOf(input.teamId, input.groupKey);
    let key = keys.get(id);
    if (!key) {
      key = {
        teamId: input.teamId,
        groupKey: input.groupKey,
        added: 0,
        lastSeenAt: input.receivedAt,
        tryFold: openKeys?.has(id) ?? false,
        index: keys.size,
      };
      keys.set(id, key);
    }
    key.added += 1;
    if (input.receivedAt > key.lastSeenAt) key.lastSeenAt = input.receivedAt;
    if (key.tryFold) toFold.push({ keyIndex: key.index, input });
  }

  // Locks every key; hinted keys with an open alert fold, all their triggers in batch order.
  const folded = keys.size > 0 ? await lockAndFold(client, [...keys.values()], toFold) : [];
  for (const [id, key] of keys) if (key.tryFold && !folded[key.index]) openKeys?.delete(id);
  const rest: { index: number; input: FoldInput }[] = [];
  const positions = new Map<number, number>();
  inputs.forEach((input, index) => {
    const key = input.groupKey === null ? undefined : keys.get(keyOf(input.teamId, input.groupKey));
    const into = key && folded[key.index];
    if (!key || !into) {
      rest.push({ index, input });
      return;
    }
    const position = (positions.get(key.index) ?? 0) + 1;
    positions.set(key.index, position);
    results[index] = {
      outcome: "occurrence_added",
      alertId: into.alertId,
      occurrenceCount: into.countAfter - key.added + position,
    };
  });
  if (rest.length === 0) return results;

  // The rest (keys without an open alert, triggers without a key) under those locks.
  const toClassify = new Map<string, KeyToClassify>();
  const quotas = new Map<string, QuotaToLock>();
  for (const { input } of rest) {
    // The first trigger of a key decides: its reopen window applies.
    if (input.groupKey !== null && !toClassify.has(keyOf(input.teamId, input.groupKey))) {
      toClassify.set(keyOf(input.teamId, input.groupKey), {
        teamId: input.teamId,
        groupKey: input.groupKey,
        reopenWindowSeconds: input.reopenWindowSeconds,
        receivedAt: input.receivedAt,
      });
    }
    if (input.alertQuotaMonthly > 0) {
      const month = quotaMonth(input.receivedAt);
      quotas.set(quotaKey(input.teamId, month), { teamId: input.teamId, month });
    }
  }
  const states = new Map<string, KeyState>();
  const usage = new Map<string, number>();
  if (toClassify.size > 0 || quotas.size > 0) {
    const classified = await classifyKeys(client, [...toClassify.values()], [...quotas.values()]);
    const ids = [...toClassify.keys()];
    classified.states.forEach((state, index) => {
      states.set(ids[index] as string, state);
    });
    for (const row of classified.usage) usage.set(quotaKey(row.teamId, row.month), row.used);
  }
  const plan = planBatch(
    rest.map((entry) => entry.input),
    states,
    usage,
    options.newId ?? newAlertId,
  );
  let countAfter = new Map<string, number>();
  if (plan.occurrences.length > 0) {
    const written = await writeBatch(client, plan);
    if (written.countAfter.size !== plan.bumps.length) throw new TargetMoved();
    countAfter = written.countAfter;
  }
  resolveResults(plan, countAfter).forEach((result, position) => {
    results[(rest[position] as { index: number }).index] = result;
  });
  if (openKeys) {
    for (const alert of plan.creates) if (alert.groupKey !== null) openKeys.add(keyOf(alert.teamId, alert.groupKey));
    for (const [id, state] of states) if (state.kind !== "none") openKeys.add(id);
  }
  return results;
}

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}
