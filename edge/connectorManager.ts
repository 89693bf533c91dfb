import { planConnector, resnapshotAllowed, sameConfig, type ConnectorPlan, type ConsentState } from '../shared/boxConnector/consentGate';
import type { Logger } from '../shared/log/logger';
import { readConsent, writeConsent, type ConsentRecord } from './consentStore';
import { ConnectFailure, type ConnectFailureReason, type ConnectorStatus, type KafkaConnectClient } from './kafkaConnect';

/**
 * The box agent's management of the score-data connector (Debezium PostgreSQL on the box's Kafka
 * Connect): keeps the club's data-sharing consent (edge/consentStore.ts), enforces the consent gate
 * (shared/boxConnector/consentGate.ts) now and every check interval, and runs the Reset and
 * Re-Snapshot action. All actions run one at a time, so a re-snapshot never meets a gate check
 * half-way.
 */

export type ActionName = 'create' | 'update_config' | 'pause' | 'resume' | 'resnapshot' | 'check';
export type ActionFailureReason = ConnectFailureReason | 'consent_not_granted' | 'consent_not_stored';

export interface ActionError {
  reason: ActionFailureReason;
  message: string;
  httpStatus?: number;
  /** The REST call that failed, e.g. `DELETE /connectors/club-data-4711/offsets`. */
  step?: string;
}

export interface ConnectorAction {
  name: ActionName;
  /** What started it: the check loop, a consent change, or the operator's re-snapshot. */
  trigger: 'check' | 'consent' | 'operator';
  at: string;
  ok: boolean;
  /** The REST calls made, in order (the failed one last). */
  steps: string[];
  error: ActionError | null;
}

/** What GET /api/connector/status answers. */
export interface ConnectorStatusView {
  enabled: true;
  connectorName: string;
  kafkaConnectUrl: string;
  consent: ConsentRecord & { problem?: string };
  /** open: the connector may run; closed: it must not produce (absent, paused or stopped). */
  gate: 'open' | 'closed';
  /** The gate's sentence for the observed state, or why nothing could be observed. */
  reason: string;
  /** As Kafka Connect reports it; null when Kafka Connect could not be asked. */
  connector: { state: string; workerId?: string; trace?: string } | null;
  tasks: ConnectorStatus['tasks'];
  observedAt: string;
  /** The failure of this status read; null when Kafka Connect answered. */
  observeError: ActionError | null;
  lastAction: ConnectorAction | null;
  checkIntervalSeconds: number;
}

export type ActionOutcome = { ok: true; action: ConnectorAction | null } | { ok: false; action: ConnectorAction; error: ActionError };

export interface ConnectorManagerOptions {
  client: KafkaConnectClient;
  kafkaConnectUrl: string;
  name: string;
  config: Record<string, string>;
  stateFile: string;
  checkIntervalSeconds: number;
  now: () => Date;
  log: Logger;
}

export interface ConnectorManager {
  /** Checks the gate now and then every check interval. */
  start(): void;
  stop(): Promise<void>;
  /** One gate check: observe, plan, carry out. */
  check(trigger?: ConnectorAction['trigger']): Promise<ActionOutcome>;
  /** Records the consent (persisted before anything else) and enforces it at once. */
  setConsent(state: Exclude<ConsentState, 'NONE'>, by: string): Promise<{ consent: ConsentRecord; outcome: ActionOutcome }>;
  /** Deletes the connector, recreates it and triggers a full snapshot; only while consent is GRANTED. */
  resnapshot(): Promise<ActionOutcome>;
  status(): Promise<ConnectorStatusView>;
}

export function createConnectorManager(options: ConnectorManagerOptions): ConnectorManager {
  const { client, name, config, log } = options;
  let lastAction: ConnectorAction | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let looping = false;
  let resnapshotInFlight: Promise<ActionOutcome> | undefined;

  /** Runs actions one after another (a failed one does not block the next). */
  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  const at = () => options.now().toISOString();

  function errorOf(error: unknown, step?: string): ActionError {
    if (error instanceof ConnectFailure) {
      return {
        reason: error.reason,
        message: error.message,
        ...(error.httpStatus ? { httpStatus: error.httpStatus } : {}),
        ...(step ? { step } : {}),
      };
    }
    return { reason: 'connect_error', message: error instanceof Error ? error.message : String(error), ...(step ? { step } : {}) };
  }

  function record(action: ConnectorAction): ConnectorAction {
    lastAction = action;
    if (action.ok) log.info('connector_action_succeeded', { action: action.name, trigger: action.trigger, steps: action.steps });
    else log.warn('connector_action_failed', { action: action.name, trigger: action.trigger, steps: action.steps, ...action.error });
    return action;
  }

  /** Runs REST steps in order; the first failure ends the action and names its step. */
  async function perform(
    actionName: ActionName,
    trigger: ConnectorAction['trigger'],
    steps: { label: string; run: () => Promise<unknown> }[],
  ): Promise<ActionOutcome> {
    const started = at();
    const done: string[] = [];
    for (const step of steps) {
      done.push(step.label);
      try {
        await step.run();
      } catch (error) {
        const failed = errorOf(error, step.label);
        const action = record({ name: actionName, trigger, at: started, ok: false, steps: done, error: failed });
        return { ok: false, action, error: failed };
      }
    }
    return { ok: true, action: record({ name: actionName, trigger, at: started, ok: true, steps: done, error: null }) };
  }

  const path = (suffix = '') => `/connectors/${name}${suffix}`;

  async function observe(consent: ConsentState): Promise<{ status: ConnectorStatus; plan: ConnectorPlan }> {
    const status = await client.status(name);
    let configMatches: boolean | undefined;
    // The configuration is compared only while the gate is open: a closed gate never changes it.
    if (consent === 'GRANTED' && status.state !== 'ABSENT') {
      const stored = await client.config(name);
      configMatches = stored === undefined ? undefined : sameConfig(stored, config, name);
    }
    const plan = planConnector(consent, { state: status.state, taskStates: status.tasks.map((task) => task.state), configMatches });
    return { status, plan };
  }

  async function checkNow(trigger: ConnectorAction['trigger']): Promise<ActionOutcome> {
    const { consent } = await readConsent(options.stateFile);
    let observed: Awaited<ReturnType<typeof observe>>;
    try {
      observed = await observe(consent.state);
    } catch (error) {
      const failed = errorOf(error, `GET ${path('/status')}`);
      const action = record({ name: 'check', trigger, at: at(), ok: false, steps: [`GET ${path('/status')}`], error: failed });
      return { ok: false, action, error: failed };
    }
    const { status, plan } = observed;
    if (plan.steps.length === 0) {
      // Kafka Connect answers again after a failed check: the status should not keep showing that failure.
      if (lastAction?.name === 'check' && !lastAction.ok) {
        return { ok: true, action: record({ name: 'check', trigger, at: at(), ok: true, steps: [`GET ${path('/status')}`], error: null }) };
      }
      return { ok: true, action: null };
    }
    const created = status.state === 'ABSENT';
    const actionName: ActionName = plan.steps.includes('pause')
      ? 'pause'
      : plan.steps.includes('put_config')
        ? created
          ? 'create'
          : 'update_config'
        : 'resume';
    return perform(
      actionName,
      trigger,
      plan.steps.map((step) =>
        step === 'put_config'
          ? { label: `PUT ${path('/config')}`, run: () => client.putConfig(name, config) }
          : step === 'pause'
            ? { label: `PUT ${path('/pause')}`, run: () => client.pause(name) }
            : { label: `PUT ${path('/resume')}`, run: () => client.resume(name) },
      ),
    );
  }

  function scheduleNext(): void {
    if (!looping) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void serial(() => checkNow('check')).finally(scheduleNext);
    }, options.checkIntervalSeconds * 1000);
  }

  return {
    start() {
      if (looping) return;
      looping = true;
      void serial(() => checkNow('check')).finally(scheduleNext);
    },
    async stop() {
      looping = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await queue;
    },
    check: (trigger = 'check') => serial(() => checkNow(trigger)),
    setConsent(state, by) {
      return serial(async () => {
        const consent: ConsentRecord = { state, changedAt: at(), changedBy: by };
        try {
          await writeConsent(options.stateFile, consent);
        } catch (error) {
          const failed: ActionError = {
            reason: 'consent_not_stored',
            message: `The consent could not be stored in ${options.stateFile}: ${error instanceof Error ? error.message : String(error)}.`,
          };
          const action = record({ name: 'check', trigger: 'consent', at: at(), ok: false, steps: [], error: failed });
          return { consent: (await readConsent(options.stateFile)).consent, outcome: { ok: false, action, error: failed } };
        }
        log.info('connector_consent_recorded', { state, by });
        return { consent, outcome: await checkNow('consent') };
      });
    },
    resnapshot() {
      // A second request while one runs joins it instead of deleting the connector again.
      resnapshotInFlight ??= serial(async (): Promise<ActionOutcome> => {
        const { consent } = await readConsent(options.stateFile);
        if (!resnapshotAllowed(consent.state)) {
          const failed: ActionError = {
            reason: 'consent_not_granted',
            message: `A re-snapshot publishes every score row of the club; the data-sharing consent is ${consent.state}, not GRANTED.`,
          };
          return {
            ok: false,
            action: record({ name: 'resnapshot', trigger: 'operator', at: at(), ok: false, steps: [], error: failed }),
            error: failed,
          };
        }
        // Deleting a connector keeps its offsets in Kafka Connect, so a plain recreate would resume
        // where it stopped. Created STOPPED, its offsets reset, then resumed, Debezium finds no
        // offset and runs the initial snapshot of snapshot.mode=initial.
        return perform('resnapshot', 'operator', [
          { label: `DELETE ${path()}`, run: () => client.remove(name) },
          { label: 'POST /connectors (initial_state STOPPED)', run: () => client.createStopped(name, config) },
          { label: `DELETE ${path('/offsets')}`, run: () => client.resetOffsets(name) },
          { label: `PUT ${path('/resume')}`, run: () => client.resume(name) },
        ]);
      }).finally(() => {
        resnapshotInFlight = undefined;
      });
      return resnapshotInFlight;
    },
    async status() {
      const reading = await readConsent(options.stateFile);
      const state = reading.consent.state;
      const base = {
        enabled: true as const,
        connectorName: name,
        kafkaConnectUrl: options.kafkaConnectUrl,
        consent: { ...reading.consent, ...(reading.problem ? { problem: reading.problem } : {}) },
        gate: state === 'GRANTED' ? ('open' as const) : ('closed' as const),
        observedAt: at(),
        lastAction,
        checkIntervalSeconds: options.checkIntervalSeconds,
      };
      try {
        const { status, plan } = await observe(state);
        const { tasks, ...connector } = status;
        return {
          ...base,
          reason: plan.steps.length === 0 ? plan.reason : `${plan.reason} (not yet: next step ${plan.steps.join(', ')})`,
          connector,
          tasks,
          observeError: null,
        };
      } catch (error) {
        const failed = errorOf(error, `GET ${path('/status')}`);
        return { ...base, reason: `Unknown: ${failed.message}`, connector: null, tasks: [], observeError: failed };
      }
    },
  };
}
