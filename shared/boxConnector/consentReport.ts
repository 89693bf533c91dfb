import * as v from 'valibot';
import { CONSENT_STATES } from './consentGate';

/**
 * The club's data-sharing consent as a box reports it with its pushes (club master sync,
 * starter lists): the state and when it was recorded on the box (null for NONE on a new box).
 * The cloud records it for the service club of the box's edge token, never another club
 * (shared/boxConnector/consentRepository.ts).
 */
export const BoxConsentReportSchema = v.strictObject(
  {
    state: v.picklist(CONSENT_STATES, 'must be GRANTED, NONE or REVOKED'),
    changedAt: v.nullable(v.pipe(v.string('must be a string'), v.isoTimestamp('must be an ISO timestamp'))),
  },
  'must carry only state and changedAt',
);
export type BoxConsentReport = v.InferOutput<typeof BoxConsentReportSchema>;
