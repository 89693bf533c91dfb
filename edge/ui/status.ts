/**
 * What the box UI reads of the agent's status routes (edge/connectorRoutes.ts, edge/server.ts,
 * edge/freshnessRoutes.ts): only the fields it shows, each optional where a route may leave it out.
 */
export interface StepError {
  message: string;
  step?: string;
  at?: string;
}

export interface PushStatus {
  enabled: boolean;
  lastRunAt?: string | null;
  lastSuccessAt?: string | null;
  lastError?: StepError | null;
  nextRunAt?: string | null;
}

export interface ConnectorStatus {
  enabled?: boolean;
  managed?: boolean;
  consent: { state: string; changedBy?: string | null; changedAt?: string | null; problem?: string | null };
  gate: string;
  reason?: string | null;
  connectorName?: string | null;
  connector?: { state: string } | null;
  tasks?: { id: number; state: string }[];
  lastAction?: { name: string; ok: boolean; at: string; error?: StepError | null } | null;
  observeError?: StepError | null;
}

export interface FreshnessStatus {
  lastCheck?: { checkedAt: string; result: string } | null;
  lastError?: { message: string; at: string } | null;
  nextCheckAt?: string | null;
}

export interface BoxIdentity {
  box: string;
  clubNumber: string | null;
  clubName: string | null;
}

/** The agent's state as last read: each route's answer, missing where the route refused. */
export interface BoxState {
  clubMaster?: PushStatus;
  starterlist?: PushStatus;
  freshness?: FreshnessStatus;
  connector?: ConnectorStatus;
  identity?: BoxIdentity;
}
