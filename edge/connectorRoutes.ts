import * as v from 'valibot';
import type { ConnectorManager } from './connectorManager';
import type { BoxRoute } from './server';

export const CONNECTOR_STATUS_PATH = '/api/connector/status';
export const CONNECTOR_RESNAPSHOT_PATH = '/api/connector/resnapshot';
export const CONNECTOR_CONSENT_PATH = '/api/connector/consent';
export const CONNECTOR_CONSENT_AUDIT_PATH = '/api/connector/consent/audit';

const ConsentBodySchema = v.object({
  state: v.picklist(['GRANTED', 'REVOKED'], 'must be GRANTED or REVOKED'),
  /** Who records the decision (a name, the board resolution): kept with the consent. */
  by: v.pipe(v.string('must be text'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters')),
});

const DISABLED = {
  ok: false,
  error: { reason: 'connector_disabled', message: 'This agent runs without the consent gate.' },
};

/**
 * The box interface's connector routes (same loopback interface and access as the club master
 * routes): GET status; POST resnapshot (200 done, 409 consent not GRANTED or no managed
 * connector, 502 a Kafka Connect call failed); PUT consent with `{ "state": "GRANTED" |
 * "REVOKED", "by": "..." }` (200 stored and enforced, 400 bad body, 502 stored but not yet
 * enforced); GET consent/audit (the consent changes, oldest first). The entry points always run
 * the gate; only an in-process agent started without it answers status `{ enabled: false }` and 409.
 */
export function connectorRoutes(manager: ConnectorManager | undefined): Record<string, BoxRoute> {
  return {
    [CONNECTOR_STATUS_PATH]: {
      method: 'GET',
      handle: async () => ({ status: 200, body: manager ? await manager.status() : { enabled: false } }),
    },
    [CONNECTOR_RESNAPSHOT_PATH]: {
      method: 'POST',
      async handle() {
        if (!manager) return { status: 409, body: DISABLED };
        const outcome = await manager.resnapshot();
        const status = outcome.ok ? 200 : ['consent_not_granted', 'connector_not_managed'].includes(outcome.error.reason) ? 409 : 502;
        return { status, body: { ...outcome, status: await manager.status() } };
      },
    },
    [CONNECTOR_CONSENT_AUDIT_PATH]: {
      method: 'GET',
      async handle() {
        if (!manager) return { status: 409, body: DISABLED };
        return { status: 200, body: { entries: await manager.consentAudit() } };
      },
    },
    [CONNECTOR_CONSENT_PATH]: {
      method: 'PUT',
      async handle(request) {
        if (!manager) return { status: 409, body: DISABLED };
        const parsed = v.safeParse(ConsentBodySchema, request.body);
        if (!parsed.success) {
          const issues = parsed.issues.map((issue) => ({
            path: `body.${v.getDotPath(issue) ?? ''}`.replace(/\.$/, ''),
            message: issue.message,
          }));
          return {
            status: 400,
            body: { error: 'bad_request', message: 'The consent body is invalid; nothing was changed.', errors: issues },
          };
        }
        const { consent, outcome } = await manager.setConsent(parsed.output.state, parsed.output.by);
        const status = outcome.ok ? 200 : outcome.error.reason === 'consent_not_stored' ? 500 : 502;
        return { status, body: { ...outcome, consent, status: await manager.status() } };
      },
    },
  };
}
