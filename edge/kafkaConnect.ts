import type { ConnectorState } from '../shared/boxConnector/consentGate';
import { tracedFetch } from '../shared/telemetry/tracedFetch';

/**
 * A small client of the Kafka Connect REST API on the box (default http://127.0.0.1:8083), for the
 * calls the connector management needs. Kafka Connect answers errors as
 * `{"error_code":<status>,"message":"..."}`; every failure becomes a ConnectFailure with a reason.
 * A 409 (a rebalance in progress, or a configuration change still being applied) is retried a few
 * times before it is reported.
 */

export type ConnectFailureReason =
  /** Kafka Connect did not answer (connection refused, timeout). */
  | 'connect_unreachable'
  /** 404 where the connector must exist. */
  | 'connector_not_found'
  /** 409 still after the retries: a rebalance in progress or a conflicting operation. */
  | 'rebalance_in_progress'
  /** Another 4xx: Kafka Connect refused the request (its message says why). */
  | 'connect_rejected'
  /** 5xx or an unexpected answer. */
  | 'connect_error';

export class ConnectFailure extends Error {
  constructor(
    readonly reason: ConnectFailureReason,
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = 'ConnectFailure';
  }
}

export interface ConnectorStatus {
  state: ConnectorState;
  workerId?: string;
  trace?: string;
  tasks: { id: number; state: string; workerId?: string; trace?: string }[];
}

export interface KafkaConnectOptions {
  baseUrl: string;
  timeoutSeconds: number;
  /** Attempts for a request answered 409 (rebalance); default 5. */
  conflictAttempts?: number;
  /** Pause between those attempts; default 2000 ms. */
  conflictDelayMs?: number;
}

interface Answer {
  status: number;
  body: unknown;
}

export interface KafkaConnectClient {
  /** GET /connectors: the names of every connector on the worker. */
  list(): Promise<string[]>;
  /** GET /connectors/{name}/status; ABSENT on 404. */
  status(name: string): Promise<ConnectorStatus>;
  /** GET /connectors/{name}/config; undefined on 404. */
  config(name: string): Promise<Record<string, string> | undefined>;
  /** PUT /connectors/{name}/config: 201 created, 200 updated. */
  putConfig(name: string, config: Record<string, string>): Promise<'created' | 'updated'>;
  /** POST /connectors with initial_state STOPPED (Kafka 3.7+, KIP-980): created without running a task. */
  createStopped(name: string, config: Record<string, string>): Promise<void>;
  /** PUT /connectors/{name}/pause (202). */
  pause(name: string): Promise<void>;
  /** PUT /connectors/{name}/resume (202). */
  resume(name: string): Promise<void>;
  /** DELETE /connectors/{name} (204); 'absent' on 404. */
  remove(name: string): Promise<'deleted' | 'absent'>;
  /** DELETE /connectors/{name}/offsets (200; Kafka 3.6+, KIP-875): the connector must be STOPPED. */
  resetOffsets(name: string): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createKafkaConnectClient(options: KafkaConnectOptions): KafkaConnectClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const attempts = options.conflictAttempts ?? 5;
  const delayMs = options.conflictDelayMs ?? 2000;
  const path = (name: string, suffix = '') => `/connectors/${encodeURIComponent(name)}${suffix}`;

  async function once(method: string, target: string, body?: unknown): Promise<Answer> {
    let response: Response;
    try {
      response = await tracedFetch(base + target, {
        method,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutSeconds * 1000),
      });
    } catch (error) {
      const detail =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${options.timeoutSeconds} s`
          : error instanceof Error && error.cause instanceof Error
            ? error.cause.message
            : String(error);
      throw new ConnectFailure('connect_unreachable', `Kafka Connect at ${base} could not be reached: ${detail}.`);
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: response.status, body: parsed };
  }

  /** One call; a 409 is tried again up to `attempts` times in all. */
  async function call(method: string, target: string, body?: unknown): Promise<Answer> {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await once(method, target, body);
      if (answer.status !== 409 || attempt >= attempts) return answer;
      await sleep(delayMs);
    }
  }

  function failure(step: string, answer: Answer): ConnectFailure {
    const message = messageOf(answer.body);
    const what = `${step} answered ${answer.status}${message ? `: ${message}` : ''}`;
    if (answer.status === 404) return new ConnectFailure('connector_not_found', `Kafka Connect ${what}.`, 404);
    if (answer.status === 409)
      return new ConnectFailure('rebalance_in_progress', `Kafka Connect ${what} (still after ${attempts} attempts).`, 409);
    if (answer.status >= 400 && answer.status < 500) return new ConnectFailure('connect_rejected', `Kafka Connect ${what}.`, answer.status);
    return new ConnectFailure('connect_error', `Kafka Connect ${what}.`, answer.status);
  }

  async function expect(method: string, target: string, ok: number[], body?: unknown): Promise<Answer> {
    const answer = await call(method, target, body);
    if (!ok.includes(answer.status)) throw failure(`${method} ${target}`, answer);
    return answer;
  }

  return {
    async list() {
      const answer = await call('GET', '/connectors');
      if (answer.status !== 200 || !Array.isArray(answer.body) || !answer.body.every((item) => typeof item === 'string')) {
        throw failure('GET /connectors', answer);
      }
      return answer.body;
    },
    async status(name) {
      const answer = await call('GET', path(name, '/status'));
      if (answer.status === 404) return { state: 'ABSENT', tasks: [] };
      if (answer.status !== 200) throw failure(`GET ${path(name, '/status')}`, answer);
      return parseStatus(answer.body);
    },
    async config(name) {
      const answer = await call('GET', path(name, '/config'));
      if (answer.status === 404) return undefined;
      if (answer.status !== 200 || typeof answer.body !== 'object' || answer.body === null) {
        throw failure(`GET ${path(name, '/config')}`, answer);
      }
      return answer.body as Record<string, string>;
    },
    async putConfig(name, config) {
      const answer = await expect('PUT', path(name, '/config'), [200, 201], config);
      return answer.status === 201 ? 'created' : 'updated';
    },
    async createStopped(name, config) {
      await expect('POST', '/connectors', [201], { name, config, initial_state: 'STOPPED' });
    },
    async pause(name) {
      await expect('PUT', path(name, '/pause'), [202]);
    },
    async resume(name) {
      await expect('PUT', path(name, '/resume'), [202]);
    },
    async remove(name) {
      const answer = await call('DELETE', path(name));
      if (answer.status === 404) return 'absent';
      if (answer.status !== 204) throw failure(`DELETE ${path(name)}`, answer);
      return 'deleted';
    },
    async resetOffsets(name) {
      // Creating a connector STOPPED is asynchronous too: a 400 "must be in the STOPPED state"
      // right after the create is tried again, like a 409.
      for (let attempt = 1; ; attempt += 1) {
        const answer = await call('DELETE', path(name, '/offsets'));
        if (answer.status === 200) return;
        if (answer.status !== 400 || attempt >= attempts) throw failure(`DELETE ${path(name, '/offsets')}`, answer);
        await sleep(delayMs);
      }
    },
  };
}

function messageOf(body: unknown): string {
  if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') {
    return (body as { message: string }).message.slice(0, 500);
  }
  return typeof body === 'string' ? body.slice(0, 200) : '';
}

const STATES = new Set(['UNASSIGNED', 'RUNNING', 'PAUSED', 'STOPPED', 'FAILED', 'RESTARTING']);

/** Kafka Connect's ConnectorStateInfo: `{ name, connector: { state, worker_id, trace? }, tasks: [...], type }`. */
function parseStatus(body: unknown): ConnectorStatus {
  const info = body as {
    connector?: { state?: unknown; worker_id?: unknown; trace?: unknown };
    tasks?: { id?: unknown; state?: unknown; worker_id?: unknown; trace?: unknown }[];
  };
  const state = info?.connector?.state;
  if (typeof state !== 'string' || !STATES.has(state)) {
    throw new ConnectFailure('connect_error', 'Kafka Connect answered the status with an unexpected body.', 200);
  }
  return {
    state: state as ConnectorState,
    ...(typeof info.connector?.worker_id === 'string' ? { workerId: info.connector.worker_id } : {}),
    ...(typeof info.connector?.trace === 'string' ? { trace: info.connector.trace } : {}),
    tasks: (Array.isArray(info.tasks) ? info.tasks : []).map((task) => ({
      id: typeof task.id === 'number' ? task.id : -1,
      state: typeof task.state === 'string' ? task.state : 'UNKNOWN',
      ...(typeof task.worker_id === 'string' ? { workerId: task.worker_id } : {}),
      ...(typeof task.trace === 'string' ? { trace: task.trace } : {}),
    })),
  };
}
