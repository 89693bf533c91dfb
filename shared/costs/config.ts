import type { Settings } from '../config/settings';

/** The cost reader's settings; present only when all four credentials are. */
export interface CostProviderConfig {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  subscriptionId: string;
  authUrl: string;
  apiUrl: string;
}

export function costProviderConfig(settings: Settings): CostProviderConfig | undefined {
  const {
    INTERNAL_CLOUD_COST_TENANT_ID: tenantId,
    INTERNAL_CLOUD_COST_CLIENT_ID: clientId,
    INTERNAL_CLOUD_COST_CLIENT_SECRET: clientSecret,
    INTERNAL_CLOUD_COST_SUBSCRIPTION_ID: subscriptionId,
  } = settings;
  if (!tenantId || !clientId || !clientSecret || !subscriptionId) return undefined;
  return {
    tenantId,
    clientId,
    clientSecret,
    subscriptionId,
    authUrl: settings.INTERNAL_CLOUD_COST_AUTH_URL,
    apiUrl: settings.INTERNAL_CLOUD_COST_API_URL,
  };
}
