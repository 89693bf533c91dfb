import type { InvocationContext } from '@azure/functions';
import { closeSql } from '../../shared/db/client';
import type { FunctionDefinition } from '../../shared/host/definition';
import { createLogger } from '../../shared/log/logger';
import type { EventHubTriggerSettings } from '../devhost/eventHubTriggers';
import { type DevHost, startDevHost } from '../devhost/host';

/**
 * The local host as the soak, the federation run and the hub benchmark measure it: every given
 * function, settings read from process.env at each call (the caller sets them per run), no timer
 * but the progress drain (it puts the shots on the boards, as in production; a sweep firing
 * mid-run would be a figure of its own; CHALLENGE_PROGRESS_DRAIN_SHOOTERS=0 stops the drain too),
 * and only errors written, so logging costs nothing the figures would carry.
 */
export function startMeasuredHost(definitions: readonly FunctionDefinition[], eventHubTriggers: EventHubTriggerSettings): Promise<DevHost> {
  return startDevHost(definitions, {
    port: 0,
    log: createLogger({ minLevel: 'error' }),
    functionLog: (level, line) => {
      if (level === 'error') process.stderr.write(line + '\n');
    },
    setting: (name) => process.env[name],
    runTimers: ['challengeProgressDrain'],
    eventHubTriggers,
  });
}

type IngestHandler = (messages: unknown, invocation: InvocationContext) => Promise<unknown>;

/**
 * `definitions` with the real `ingest` function followed by `finished`, which sees each batch once
 * the function is through with it: how a run knows what has been applied without asking the database.
 */
export function afterIngest(
  definitions: readonly FunctionDefinition[],
  finished: (messages: unknown[], invocation: InvocationContext) => void,
): FunctionDefinition[] {
  return definitions.map((definition): FunctionDefinition => {
    if (definition.kind !== 'eventHub' || definition.name !== 'ingest') return definition;
    const ingest = definition.options.handler as IngestHandler;
    return {
      ...definition,
      options: {
        ...definition.options,
        handler: async (messages: unknown, invocation: InvocationContext) => {
          const outcome = await ingest(messages, invocation);
          finished(messages as unknown[], invocation);
          return outcome;
        },
      },
    };
  });
}

/**
 * Runs the measured host as a child process spoken to over IPC (development/local/ipcChild.ts):
 * sends `{ url }` once listening, answers a message named in `answers` with `{ [name]: answer() }`,
 * and on `stop` closes the host and the database pool before it exits. `label` names the process
 * when it fails to start.
 */
export function serveMeasuredHost(
  label: string,
  definitions: readonly FunctionDefinition[],
  eventHubTriggers: EventHubTriggerSettings,
  answers: Record<string, () => unknown>,
): void {
  const serve = async () => {
    const host = await startMeasuredHost(definitions, eventHubTriggers);
    process.on('message', (message: unknown) => {
      if (typeof message === 'string' && Object.hasOwn(answers, message)) process.send?.({ [message]: answers[message]?.() });
      if (message === 'stop') {
        void host
          .close()
          .then(() => closeSql())
          .finally(() => process.exit(0));
      }
    });
    process.send?.({ url: host.url });
  };
  serve().catch((error: unknown) => {
    process.stderr.write(`${label} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
