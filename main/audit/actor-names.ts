/** The audit's rows as a person reads them: each operator's name beside their id. */
import { RESERVED_OPERATOR_IDS } from '../../shared/operators';

/**
 * Rows as a person reads them: each operator's display name beside their id, looked up once per actor. The trail's own
 * actors (system, anonymous) and ids no longer in the directory keep their id alone.
 */
export async function withActorNames<R extends { actor: string }>(
  rows: readonly R[],
  nameOf: (id: string) => Promise<string | undefined>,
): Promise<(R & { actorName?: string })[]> {
  const names = new Map<string, string | undefined>();
  for (const actor of new Set(rows.map((row) => row.actor)))
    names.set(actor, RESERVED_OPERATOR_IDS.includes(actor) ? undefined : await nameOf(actor));
  return rows.map((row) => {
    const actorName = names.get(row.actor);
    return actorName === undefined ? row : { ...row, actorName };
  });
}
