import { useAdvisoryTurn } from './advisoryTurn';

/**
 * A delivery run claims every due row up to its clock, whoever queued it: the files that run one
 * (email, push, the delivery contract) take turns, each with rows due in a year of its own.
 */
const DELIVERY_LOCK = 8_311_077;

export function useDeliveryTurn(): void {
  useAdvisoryTurn(DELIVERY_LOCK);
}
