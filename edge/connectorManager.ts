import { planConnector, resnapshotAllowed, sameConfig, type ConnectorPlan, type ConsentState } from '../shared/boxConnector/consentGate';
import { capturesScoreData } from '../shared/boxConnector/scoreCapture';
import type { Logger } from '../shared/log/logger';
import {
  appendConsentAudit,
  readConsent,
  readConsentAudit,
  writeConsent,
  type ConsentAuditEntry,
  type ConsentRecord,
} from './consentStore';
import { ConnectFailure, type ConnectFailureReason, type ConnectorStatus, type KafkaConnectClient } from './kafkaConnect';

/**
 * The box agent's consent gate over the box's Kafka Connect, and its management of the score-data
 * connector (Debezium PostgreSQL). It keeps the club's data-sharing consent and its audit log
 * (edge/consentStore.ts) and enforces the gate (shared/boxConnector/consentGate.ts):
 *
 * - While the consent is not GRANTED, every connector that captures score tables
 *   (shared/boxConnector/scoreCapture.ts), whoever created it, is paused, checked every watch
 *   interval (a few seconds): Kafka Connect has no change notifications, so a connector resumed
 *   or created by hand runs at most that long.
 * - While it is GRANTED and a managed connector is configured (SVC_CONNECTOR_ENABLED), that
 *   connector is created, kept at the file's configuration and resumed, every check interval; the
 *   Reset and Re-Snapshot action is available. Other connectors are left to the operator.
 *
 * All actions run one at a time, so a re-snapshot never meets a gate check half-way.
 */

export type ActionName = 'create' | 'update_config' | 'pause' | 'resume' | 'resnapshot' | 'check';
export type ActionFailureReason = ConnectFailureReason | 'consent_not_granted' | 'consent_not_stored' | 'connector_not_managed';

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

/** A connector that captures score tables, as the gate last saw it. */
export interface ScoreConnectorView {
  name: string;
  state: string;
  /** Whether it is the connector the agent manages from the file. */
  managed: boolean;
}

/** What GET /api/connector/status answers. */
export interface ConnectorStatusView {
  /** Whether the agent manages the connector from the file (SVC_CONNECTOR_ENABLED); the gate holds either way. */
  managed: boolean;
  /** The managed connector's name; null when none is managed. */
  connectorName: string | null;
  kafkaConnectUrl: string;
  consent: ConsentRecord & { problem?: string };
  /** open: the connector may run; closed: it must not produce (absent, paused or stopped). */
  gate: 'open' | 'closed';
  /** The gate's sentence for the observed state, or why nothing could be observed. */
  reason: string;
  /** The managed connector as Kafka Connect reports it; null when none is managed or Kafka Connect could not be asked. */
  connector: { state: string; workerId?: string; trace?: string } | null;
  tasks: ConnectorStatus['tasks'];
  /** Every connector capturing score tables (the managed one too); empty when Kafka Connect could not be asked. */
  scoreConnectors: ScoreConnectorView[];
  observedAt: string;
  /** The failure of this status read; null when Kafka Connect answered. */
  observeError: ActionError | null;
  lastAction: ConnectorAction | null;
  checkIntervalSeconds: number;
  watchIntervalSeconds: number;
}

export type ActionOutcome = { ok: true; action: ConnectorAction | null } | { ok: false; action: ConnectorAction; error: ActionError };

export interface ConnectorManagerOptions {
  client: KafkaConnectClient;
  kafkaConnectUrl: string;
  /** The connector the agent manages (from the file); undefined: the gate only. */
  managed?: { name: string; config: Record<string, string> };
  stateFile: string;
  /** Between two checks while the consent is GRANTED. */
  checkIntervalSeconds: number;
  /** Between two checks while it is not: the longest a connector resumed by hand may run. */
  watchIntervalSeconds: number;
  now: () => Date;
  log: Logger;
}

export interface ConnectorManager {
  /** Checks the gate now and then every watch or check interval. */
  start(): void;
  stop(): Promise<void>;
  /** One gate check: observe, plan, carry out. */
  check(trigger?: ConnectorAction['trigger']): Promise<ActionOutcome>;
  /** Records the consent (persisted before anything else) and enforces it at once. */
  setConsent(state: Exclude<ConsentState, 'NONE'>, by: string): Promise<{ consent: ConsentRecord; outcome: ActionOutcome }>;
  /** Deletes the managed connector, recreates it and triggers a full snapshot; only while consent is GRANTED. */
  resnapshot(): Promise<ActionOutcome>;
  status(): Promise<ConnectorStatusView>;
  /** The consent changes recorded on this box, oldest first (bounded, edge/consentStore.ts). */
  consentAudit(): Promise<ConsentAuditEntry[]>;
}

export function createConnectorManager(options: ConnectorManagerOptions): ConnectorManager {
  const { client, managed, log } = options;
  let lastAction: ConnectorAction | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let looping = false;
  let resnapshotInFlight: Promise<ActionOutcome> | undefined;
  /** The consent of the last check: it decides the next check's interval. */
  let lastConsent: ConsentState = 'NONE';

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
    // A check that fails the same way as the one before (Kafka Connect down, watched every few
    // seconds) is logged once, not on every watch.
    const repeated =
      action.name === 'check' &&
      !action.ok &&
      lastAction?.name === 'check' &&
      !lastAction.ok &&
      lastAction.error?.reason === action.error?.reason;
    lastAction = action;
    if (action.ok) log.info('connector_action_succeeded', { action: action.name, trigger: action.trigger, steps: action.steps });
    else if (!repeated)
      log.warn('connector_action_failed', { action: action.name, trigger: action.trigger, steps: action.steps, ...action.error });
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

  const path = (name: string, suffix = '') => `/connectors/${name}${suffix}`;

  interface Observed {
    name: string;
    managed: boolean;
    status: ConnectorStatus;
    plan: ConnectorPlan;
  }

  /** The managed connector, observed and planned for this consent. */
  async function observeManaged(consent: ConsentState, target: { name: string; config: Record<string, string> }): Promise<Observed> {
    const status = await client.status(target.name);
    let configMatches: boolean | undefined;
    // The configuration is compared only while the gate is open: a closed gate never changes it.
    if (consent === 'GRANTED' && status.state !== 'ABSENT') {
      const stored = await client.config(target.name);
      configMatches = stored === undefined ? undefined : sameConfig(stored, target.config, target.name);
    }
    const plan = planConnector(consent, { state: status.state, taskStates: status.tasks.map((task) => task.state), configMatches });
    return { name: target.name, managed: true, status, plan };
  }

  /** Every connector on the worker that captures score tables, plus the managed one (even absent). */
  async function observeAll(consent: ConsentState): Promise<Observed[]> {
    const observed: Observed[] = [];
    for (const name of await client.list()) {
      if (name === managed?.name) continue;
      const config = await client.config(name);
      // Deleted between the list and this call: nothing left to gate.
      if (config === undefined || !capturesScoreData(config)) continue;
      const status = await client.status(name);
      if (status.state === 'ABSENT') continue;
      const plan = planConnector(consent, { state: status.state, taskStates: status.tasks.map((task) => task.state) });
      observed.push({ name, managed: false, status, plan });
    }
    if (managed) observed.unshift(await observeManaged(consent, managed));
    return observed;
  }

  function stepsOf(target: Observed): { label: string; run: () => Promise<unknown> }[] {
    return target.plan.steps.map((step) =>
      step === 'put_config'
        ? { label: `PUT ${path(target.name, '/config')}`, run: () => client.putConfig(target.name, managed?.config ?? {}) }
        : step === 'pause'
          ? { label: `PUT ${path(target.name, '/pause')}`, run: () => client.pause(target.name) }
          : { label: `PUT ${path(target.name, '/resume')}`, run: () => client.resume(target.name) },
    );
  }

  async function checkNow(trigger: ConnectorAction['trigger']): Promise<ActionOutcome> {
    const { consent } = await readConsent(options.stateFile);
    lastConsent = consent.state;
    // With the gate open only the managed connector is touched; closed, every score connector is.
    const firstCall = consent.state === 'GRANTED' ? `GET ${path(managed?.name ?? '', '/status')}` : 'GET /connectors';
    if (consent.state === 'GRANTED' && !managed) return { ok: true, action: null };
    let observed: Observed[];
    try {
      observed = consent.state === 'GRANTED' && managed ? [await observeManaged(consent.state, managed)] : await observeAll(consent.state);
    } catch (error) {
      const failed = errorOf(error, firstCall);
      const action = record({ name: 'check', trigger, at: at(), ok: false, steps: [firstCall], error: failed });
      return { ok: false, action, error: failed };
    }
    const pending = observed.filter((target) => target.plan.steps.length > 0);
    if (pending.length === 0) {
      // Kafka Connect answers again after a failed check: the status should not keep showing that failure.
      if (lastAction?.name === 'check' && !lastAction.ok) {
        return { ok: true, action: record({ name: 'check', trigger, at: at(), ok: true, steps: [firstCall], error: null }) };
      }
      return { ok: true, action: null };
    }
    const steps = pending.flatMap((target) => target.plan.steps);
    const created = pending.some((target) => target.managed && target.status.state === 'ABSENT');
    const actionName: ActionName = steps.includes('pause')
      ? 'pause'
      : steps.includes('put_config')
        ? created
          ? 'create'
          : 'update_config'
        : 'resume';
    return perform(actionName, trigger, pending.flatMap(stepsOf));
  }

  function scheduleNext(): void {
    if (!looping) return;
    if (timer) clearTimeout(timer);
    const seconds = lastConsent === 'GRANTED' ? options.checkIntervalSeconds : options.watchIntervalSeconds;
    timer = setTimeout(() => {
      timer = undefined;
      void serial(() => checkNow('check')).finally(scheduleNext);
    }, seconds * 1000);
  }

  const notManaged = (): ActionError => ({
    reason: 'connector_not_managed',
    message: 'The agent does not manage a connector (SVC_CONNECTOR_ENABLED=false); a re-snapshot needs the managed connector.',
  });

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
        const previous = (await readConsent(options.stateFile)).consent;
        const changedAt = at();
        const consent: ConsentRecord = { state, changedAt, changedBy: by };
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
        log.info('connector_consent_recorded', { state, by, from: previous.state });
        // The decision is stored and enforced even when the audit cannot be written; the log says so.
        await appendConsentAudit(options.stateFile, { at: changedAt, by, from: previous.state, to: state }).catch((error: unknown) =>
          log.error('connector_consent_audit_failed', { message: error instanceof Error ? error.message : String(error) }),
        );
        return { consent, outcome: await checkNow('consent') };
      });
    },
    resnapshot() {
      // A second request while one runs joins it instead of deleting the connector again.
      resnapshotInFlight ??= serial(async (): Promise<ActionOutcome> => {
        if (!managed) {
          const failed = notManaged();
          return {
            ok: false,
            action: record({ name: 'resnapshot', trigger: 'operator', at: at(), ok: false, steps: [], error: failed }),
            error: failed,
          };
        }
        const { name, config } = managed;
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
          { label: `DELETE ${path(name)}`, run: () => client.remove(name) },
          { label: 'POST /connectors (initial_state STOPPED)', run: () => client.createStopped(name, config) },
          { label: `DELETE ${path(name, '/offsets')}`, run: () => client.resetOffsets(name) },
          { label: `PUT ${path(name, '/resume')}`, run: () => client.resume(name) },
        ]);
      }).finally(() => {
        resnapshotInFlight = undefined;
      });
      return resnapshotInFlight;
    },
    consentAudit: () => readConsentAudit(options.stateFile),
    async status() {
      const reading = await readConsent(options.stateFile);
      const state = reading.consent.state;
      const base = {
        managed: managed !== undefined,
        connectorName: managed?.name ?? null,
        kafkaConnectUrl: options.kafkaConnectUrl,
        consent: { ...reading.consent, ...(reading.problem ? { problem: reading.problem } : {}) },
        gate: state === 'GRANTED' ? ('open' as const) : ('closed' as const),
        observedAt: at(),
        lastAction,
        checkIntervalSeconds: options.checkIntervalSeconds,
        watchIntervalSeconds: options.watchIntervalSeconds,
      };
      try {
        const observed = await observeAll(state);
        const own = observed.find((target) => target.managed);
        const pending = observed.filter((target) => target.plan.steps.length > 0 && (state !== 'GRANTED' || target.managed));
        const reason = own
          ? own.plan.reason
          : state === 'GRANTED'
            ? 'Open: the data-sharing consent is GRANTED; the agent manages no connector (SVC_CONNECTOR_ENABLED=false).'
            : (observed[0]?.plan.reason ??
              planConnector(state, { state: 'ABSENT', taskStates: [] }).reason.replace('Not created', 'None found'));
        const next = pending.flatMap((target) => target.plan.steps.map((step) => `${step} ${target.name}`));
        const { tasks, ...connector } = own?.status ?? { tasks: [] };
        return {
          ...base,
          reason: next.length === 0 ? reason : `${reason} (not yet: next step ${next.join(', ')})`,
          connector: own ? (connector as ConnectorStatusView['connector']) : null,
          tasks,
          scoreConnectors: observed
            .filter((target) => target.status.state !== 'ABSENT')
            .map((target) => ({ name: target.name, state: target.status.state, managed: target.managed })),
          observeError: null,
        };
      } catch (error) {
        const failed = errorOf(error, 'GET /connectors');
        return { ...base, reason: `Unknown: ${failed.message}`, connector: null, tasks: [], scoreConnectors: [], observeError: failed };
      }
    },
  };
}
