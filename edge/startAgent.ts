import type { Logger } from '../shared/log/logger';
import { createAgent, type Agent } from './agent';
import { createBoxFreshness } from './boxFreshness';
import { consentReport } from './consentStore';
import { systemClock, type Clock } from './clock';
import type { EdgeConfig } from './config';
import type { EdgeFreshnessConfig } from './freshnessConfig';
import { loadConnectorManager, type ConnectorSetup } from './connectorSetup';
import { connectorRoutes } from './connectorRoutes';
import { freshnessRoutes } from './freshnessRoutes';
import { connectMirror } from './mirror';
import { startAgentServer, type AgentServer } from './server';
import { createStarterlistPush } from './starterlistPush';
import { createBoxAccess, isLoopbackHost } from './boxUiAccess';
import { parsePasswordHash } from './boxUiCredential';
import { boxUiRoutes } from './boxUiRoutes';
import { boxIdentityRoutes } from './boxIdentity';

export interface RunningAgent extends Pick<Agent, 'runOnce' | 'status'> {
  /** Base URL of the box interface. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the box agent in this process: mirror pool, push loop (when enabled) and the box
 * interface on config.host:config.port (port 0 picks a free one).
 */
export async function startAgent(
  config: EdgeConfig & { mirrorDatabaseUrl: string },
  log: Logger,
  clock: Clock = systemClock,
  freshness: EdgeFreshnessConfig = { starterlistSyncEnabled: false, starterlistSyncSeconds: 900 },
  connectorSetup?: ConnectorSetup,
): Promise<RunningAgent> {
  // Read before anything starts: a missing or broken connector file fails the start-up.
  const connector = connectorSetup && (await loadConnectorManager(connectorSetup, log, clock));
  const mirror = connectMirror(config.mirrorDatabaseUrl);
  // Every push carries the consent as the box holds it, so the cloud can hold score rows to it.
  const consent = connectorSetup && (() => consentReport(connectorSetup.stateFile));
  const agent = createAgent(config, mirror, log, clock, consent);
  const check = createBoxFreshness(mirror, { now: () => clock.now() });
  const starterlists = createStarterlistPush(
    {
      enabled: freshness.starterlistSyncEnabled,
      intervalSeconds: freshness.starterlistSyncSeconds,
      edgeApiToken: config.edgeApiToken,
      cloudBaseUrl: config.cloudBaseUrl,
      cloudTimeoutSeconds: config.cloudTimeoutSeconds,
    },
    mirror,
    log,
    { boxCheck: () => check.lastCheck(), now: () => clock.now(), consent },
  );
  const access = createBoxAccess({
    hash: config.uiPasswordHash === undefined ? undefined : parsePasswordHash(config.uiPasswordHash),
    loopbackOnly: isLoopbackHost(config.host),
  });
  let server: AgentServer;
  try {
    server = await startAgentServer(agent, {
      host: config.host,
      port: config.port,
      log,
      access,
      routes: {
        ...freshnessRoutes(starterlists, check),
        ...connectorRoutes(connector),
        ...boxIdentityRoutes(mirror, connectorSetup?.managed?.clubId),
        ...boxUiRoutes(access),
      },
    });
  } catch (error) {
    await mirror.end({ timeout: 5 });
    throw error;
  }
  agent.start();
  check.start();
  starterlists.start();
  connector?.start();
  return {
    url: server.url,
    runOnce: () => agent.runOnce(),
    status: () => agent.status(),
    close: async () => {
      await server.close();
      await connector?.stop();
      check.stop();
      await starterlists.stop();
      await agent.stop();
      await mirror.end({ timeout: 5 });
    },
  };
}
