import { generateServiceToken, hashServiceToken } from '../shared/challenges/serviceCredential';

/**
 * `npm run challenges:service-token`: a new credential for the personalization service. The
 * token goes to the calling service's secret store; only its SHA-256 goes into the app setting
 * CHALLENGES_SERVICE_TOKEN_SHA256 (append it after a comma to rotate, drop the old one after).
 */
const token = generateServiceToken();
console.log('Service token (give it to the calling service; it is not shown again):');
console.log(token);
console.log('CHALLENGES_SERVICE_TOKEN_SHA256 value:');
console.log(hashServiceToken(token));
