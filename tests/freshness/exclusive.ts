import { useAdvisoryTurn } from '../support/advisoryTurn';

/**
 * The freshness check evaluates every club at the instant it is given: two test files running it
 * at once, each at its own simulated instant, would each evaluate the other's clubs. They take turns.
 */
const FRESHNESS_CHECK_LOCK = 8_311_043;

export function useFreshnessCheckExclusively(): void {
  useAdvisoryTurn(FRESHNESS_CHECK_LOCK);
}
