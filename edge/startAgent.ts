import type { Logger } from '../shared/log/logger';
import { createAgent, type Agent } from './agent';
import type { Clock } from './clock';
import type { EdgeConfig } from './config';
import { connectMirror } from './mirror';
import { startAgentServer, type AgentServer } from './server';

export interface RunningAgent extends Pick<Agent, 'runOnce' | 'status'> {
  /** Base URL of the box interface. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the box agent in this process: mirror pool, push loop (when enabled) and the box
 * interface on config.host:config.port (port 0 picks a free one).
 */
export async function startAgent(config: EdgeConfig & { mirrorDatabaseUrl: string }, log: Logger, clock?: Clock): Promise<RunningAgent> {
  const mirror = connectMirror(config.mirrorDatabaseUrl);
  const agent = createAgent(config, mirror, log, clock);
  let server: AgentServer;
  try {
    server = await startAgentServer(agent, { host: config.host, port: config.port, log });
  } catch (error) {
    await mirror.end({ timeout: 5 });
    throw error;
  }
  agent.start();
  return {
    url: server.url,
    runOnce: () => agent.runOnce(),
    status: () => agent.status(),
    close: async () => {
      await server.close();
      await agent.stop();
      await mirror.end({ timeout: 5 });
    },
  };
}
