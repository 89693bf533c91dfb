import { serviceTokenMatches } from '../../shared/challenges/serviceCredential';
import { getSettings } from '../../shared/config/settings';
import { bearerCredentialGuard } from '../../shared/http/guards';

export interface ServiceCaller {
  kind: 'service';
  service: 'challenges-personalization';
}

/** `Authorization: Bearer <chsvc_ token>`, checked against CHALLENGE_SERVICE_TOKEN_HASH (challenges' serviceTokenMatches). */
export const challengesService = bearerCredentialGuard<ServiceCaller>({
  description: 'the personalization service with its own credential (CHALLENGE_SERVICE_TOKEN_HASH)',
  security: 'serviceToken',
  rejected: 'The service credential is missing or not valid.',
  identify: (token) =>
    Promise.resolve(
      serviceTokenMatches(token, getSettings().CHALLENGE_SERVICE_TOKEN_HASH)
        ? { kind: 'service', service: 'challenges-personalization' }
        : undefined,
    ),
});
