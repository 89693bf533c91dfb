import { serviceTokenMatches } from '../challenges/serviceCredential';
import { getSettings } from '../config/settings';
import { bearerToken, type Guard } from './guards';
import { unauthorized } from './problem';

export interface ServiceCaller {
  kind: 'service';
  service: 'challenges-personalization';
}

const REJECTED = 'The service credential is missing or not valid.';

/** `Authorization: Bearer <chsvc_ token>`, checked against CHALLENGE_SERVICE_TOKEN_HASH (challenges' serviceTokenMatches). */
export const challengesService: Guard<ServiceCaller> = {
  description: 'the personalization service with its own credential (CHALLENGE_SERVICE_TOKEN_HASH)',
  security: 'serviceToken',
  authorize(request) {
    const token = bearerToken(request);
    if (!serviceTokenMatches(token, getSettings().CHALLENGE_SERVICE_TOKEN_HASH)) return Promise.reject(unauthorized(REJECTED));
    return Promise.resolve({ kind: 'service', service: 'challenges-personalization' });
  },
};
