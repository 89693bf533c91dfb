import { getSettings } from '../config/settings';
import { azureCostProvider } from './azureProvider';
import { costProviderConfig } from './config';
import { createCostService, type CostService } from './service';

let service: CostService | undefined;

/** The process's one cost service, built from the settings on first use. */
export function getCostService(): CostService {
  if (!service) {
    const settings = getSettings();
    const config = costProviderConfig(settings);
    service = createCostService({
      provider: config ? () => azureCostProvider(config) : undefined,
      secrets: config ? [config.clientSecret] : [],
      budget: settings.COSTS_MONTHLY_BUDGET,
    });
  }
  return service;
}
