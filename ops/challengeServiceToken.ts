import { generateServiceToken, hashServiceToken } from '../shared/challenges/serviceCredential';
import type { CommandRun } from './command';

/**
 * `challenges:service-token`: a new credential for the personalization service. The token goes to
 * the calling service's secret store; only its SHA-256 goes into the app setting
 * CHALLENGE_SERVICE_TOKEN_HASH (append it after a comma to rotate, drop the old one after).
 */
export const runChallengeServiceToken: CommandRun = () => {
  const token = generateServiceToken();
  console.log('Service token (give it to the calling service; it is not shown again):');
  console.log(token);
  console.log('CHALLENGE_SERVICE_TOKEN_HASH value:');
  console.log(hashServiceToken(token));
  return Promise.resolve(0);
};
