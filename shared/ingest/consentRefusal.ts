import type { Queryable } from '../db/client';
import type { Classified } from './contract';
import { storableText, TEXT_CAPS } from './storableText';

/**
 * Data-sharing consent at ingest (docs/ingest-contract.md, "Consent"): score rows (hits,
 * shooters) of a club whose recorded consent is NONE or REVOKED are refused with the reject
 * reason consent_not_granted. A club that never reported a consent is not refused (transition
 * rule for boxes older than the consent report).
 */
export const CONSENT_REJECT_REASON = 'consent_not_granted' as const;

/**
 * The club numbers (vereinsId, as in the topic) among `vereinsIds` whose service club recorded a
 * consent other than GRANTED, with that state. One query for a whole batch.
 */
export async function readRefusingClubs(sql: Queryable, vereinsIds: readonly string[]): Promise<Map<string, string>> {
  if (!vereinsIds.length) return new Map();
  const rows = await sql<{ vereinsId: string; state: string }[]>`
    select c.vereins_id as "vereinsId", cc.state
    from club c join club_consent cc on cc.club_id = c.id
    where c.vereins_id = any(${sql.array([...vereinsIds])}::text[]) and cc.state <> 'GRANTED'`;
  return new Map(rows.map((row) => [row.vereinsId, row.state]));
}

/** The batch with every change of a refusing club turned into a consent_not_granted reject. Pure. */
export function refuseWithoutConsent(classified: readonly Classified[], refusing: ReadonlyMap<string, string>): Classified[] {
  if (!refusing.size) return classified as Classified[];
  return classified.map((item) => {
    if (item.kind !== 'change') return item;
    const state = refusing.get(item.change.clubId);
    if (state === undefined) return item;
    const { topic, clubId, entity, sequence } = item.change;
    return {
      kind: 'reject',
      reject: {
        reason: CONSENT_REJECT_REASON,
        topic,
        clubId,
        entity,
        detail: storableText(`club ${clubId} recorded consent ${state}: score rows may leave the club only with GRANTED`, TEXT_CAPS.detail),
        sequence,
      },
    };
  });
}

/** Classified changes checked against the recorded consent of the batch's clubs: one lookup per batch, none without changes. */
export async function applyConsent(sql: Queryable, classified: readonly Classified[]): Promise<Classified[]> {
  const clubs = new Set<string>();
  for (const item of classified) if (item.kind === 'change') clubs.add(item.change.clubId);
  if (!clubs.size) return classified as Classified[];
  return refuseWithoutConsent(classified, await readRefusingClubs(sql, [...clubs]));
}
