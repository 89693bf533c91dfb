import type {
  EffectiveFunctionOptions,
  FunctionInput,
  FunctionOutput,
  InvocationContext,
  InvocationContextExtraInputs,
  InvocationContextExtraOutputs,
  InvocationContextInit,
  LogHandler,
  RetryContext,
  TraceContext,
  TriggerMetadata,
} from '@azure/functions';

/**
 * The context the local host hands a function: the Functions library's InvocationContext
 * interface with the same defaults (`options` of an unknown trigger, empty extra inputs and
 * outputs) and the same log methods, each handing its level and arguments to the host's log
 * handler. The library's own class keeps its private state in WeakMaps, three entries per
 * context; made per request, it cost the local host more than the request's own logging. What
 * differs: `instanceof InvocationContext` is false.
 */
export class LocalInvocationContext implements InvocationContext {
  invocationId: string;
  functionName: string;
  retryContext?: RetryContext;
  traceContext?: TraceContext;
  triggerMetadata?: TriggerMetadata;
  readonly #logHandler: LogHandler;
  #extraInputs: InvocationContextExtraInputs | undefined;
  #extraOutputs: InvocationContextExtraOutputs | undefined;
  #options: EffectiveFunctionOptions | undefined;

  constructor(init: InvocationContextInit & { logHandler: LogHandler }) {
    this.invocationId = init.invocationId ?? 'unknown';
    this.functionName = init.functionName ?? 'unknown';
    this.retryContext = init.retryContext;
    this.traceContext = init.traceContext;
    this.triggerMetadata = init.triggerMetadata;
    this.#logHandler = init.logHandler;
  }

  // Made on first use: most invocations never read them.
  get extraInputs(): InvocationContextExtraInputs {
    return (this.#extraInputs ??= new NamedValues());
  }
  set extraInputs(value: InvocationContextExtraInputs) {
    this.#extraInputs = value;
  }

  get extraOutputs(): InvocationContextExtraOutputs {
    return (this.#extraOutputs ??= new NamedValues());
  }
  set extraOutputs(value: InvocationContextExtraOutputs) {
    this.#extraOutputs = value;
  }

  get options(): EffectiveFunctionOptions {
    return (this.#options ??= { trigger: { name: 'unknown', type: 'unknown' }, return: undefined, extraInputs: [], extraOutputs: [] });
  }
  set options(value: EffectiveFunctionOptions) {
    this.#options = value;
  }

  log(...args: unknown[]): void {
    this.#logHandler.call(this, 'information', ...args);
  }
  trace(...args: unknown[]): void {
    this.#logHandler.call(this, 'trace', ...args);
  }
  debug(...args: unknown[]): void {
    this.#logHandler.call(this, 'debug', ...args);
  }
  info(...args: unknown[]): void {
    this.#logHandler.call(this, 'information', ...args);
  }
  warn(...args: unknown[]): void {
    this.#logHandler.call(this, 'warning', ...args);
  }
  error(...args: unknown[]): void {
    this.#logHandler.call(this, 'error', ...args);
  }
}

/** Extra inputs or outputs by binding name, as the library keeps them. */
class NamedValues implements InvocationContextExtraInputs, InvocationContextExtraOutputs {
  readonly #values: Record<string, unknown> = {};
  get(inputOrName: FunctionInput | string): unknown {
    return this.#values[typeof inputOrName === 'string' ? inputOrName : inputOrName.name];
  }
  set(binding: FunctionInput | FunctionOutput | string, value: unknown): void {
    this.#values[typeof binding === 'string' ? binding : binding.name] = value;
  }
}
