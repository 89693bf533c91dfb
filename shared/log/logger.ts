import { telemetry } from '../telemetry/telemetry';
import type { LogFields, LogLevel } from './logRecord';

export type { LogFields, LogLevel } from './logRecord';

/**
 * Structured JSON logging. One line per event: `{"level","event","time",...fields}`.
 * Inside a function invocation the line goes through the invocation's logger so the host
 * correlates it; elsewhere it goes to stdout/stderr. With telemetry on, every record also goes to
 * OpenTelemetry as a structured log record (the event as its message, the fields as custom
 * dimensions, secrets redacted); inside an invocation it then goes there only, since the host
 * no longer collects the worker's own log lines.
 */
export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
  /** A logger that adds these fields to every line. */
  with(fields: LogFields): Logger;
}

export type LogSink = ((level: LogLevel, line: string) => void) & {
  /** The sink's lines reach Application Insights only through the host: telemetry's record replaces them. */
  replacedByTelemetry?: boolean;
};

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const consoleSink: LogSink = (level, line) => {
  if (level === 'error' || level === 'warn') process.stderr.write(line + '\n');
  else process.stdout.write(line + '\n');
};

/** Keeps an Error's name and message (never its stack) so logs stay one line and leak nothing. */
function serialise(value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { name: value.name, message: value.message, ...(code !== undefined ? { code } : {}) };
  }
  return value;
}

export function createLogger(options: { sink?: LogSink; minLevel?: LogLevel; fields?: LogFields } = {}): Logger {
  return new LineLogger(options.sink ?? consoleSink, undefined, rank[options.minLevel ?? 'info'], options.fields ?? {});
}

/** What an Azure Functions InvocationContext offers to log through. */
export interface InvocationLog {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/**
 * A logger writing through an Azure Functions InvocationContext (with telemetry on, its lines are
 * replaced by telemetry's records: the host no longer collects them). One is made per request:
 * the context is kept as it is rather than wrapped in a sink function, a function object made
 * per request (with a property of its own) having cost more than the rest of the logger.
 */
export function createInvocationLogger(context: InvocationLog, options: { minLevel?: LogLevel; fields?: LogFields } = {}): Logger {
  return new LineLogger(undefined, context, rank[options.minLevel ?? 'info'], options.fields ?? {});
}

/**
 * A class rather than an object of closures: one is made per request that logs (the access line),
 * and its methods are shared on the prototype instead of made anew each time.
 */
class LineLogger implements Logger {
  constructor(
    /** Where lines go, unless `invocation` is set. */
    private readonly sink: LogSink | undefined,
    /** The invocation lines go through, if any. */
    private readonly invocation: InvocationLog | undefined,
    private readonly minRank: number,
    private readonly base: LogFields,
  ) {}

  private write(level: LogLevel, event: string, fields: LogFields | undefined): void {
    if (rank[level] < this.minRank) return;
    const line: LogFields = { level, event, time: new Date().toISOString(), ...this.base };
    if (fields) for (const key of Object.keys(fields)) line[key] = serialise(fields[key]);
    const backend = telemetry();
    if (backend) {
      const { level: _level, event: _event, time: _time, ...attributes } = line;
      backend.log(level, event, attributes);
      if (this.invocation || this.sink?.replacedByTelemetry) return;
    }
    if (this.invocation) this.invocation[level](JSON.stringify(line));
    else this.sink?.(level, JSON.stringify(line));
  }

  debug(event: string, fields?: LogFields): void {
    this.write('debug', event, fields);
  }
  info(event: string, fields?: LogFields): void {
    this.write('info', event, fields);
  }
  warn(event: string, fields?: LogFields): void {
    this.write('warn', event, fields);
  }
  error(event: string, fields?: LogFields): void {
    this.write('error', event, fields);
  }
  with(fields: LogFields): Logger {
    return new LineLogger(this.sink, this.invocation, this.minRank, { ...this.base, ...fields });
  }
}

/**
 * A logger built by `make` on its first line (or first `with`): a request that logs nothing,
 * the common case with telemetry on, never pays for building one. A class, so that the lazy
 * logger itself is one small object and no closures.
 */
export function lazyLogger(make: () => Logger): Logger {
  return new LazyLogger(make);
}

class LazyLogger implements Logger {
  private made: Logger | undefined;
  constructor(private readonly make: () => Logger) {}
  private real(): Logger {
    return (this.made ??= this.make());
  }
  debug(event: string, fields?: LogFields): void {
    this.real().debug(event, fields);
  }
  info(event: string, fields?: LogFields): void {
    this.real().info(event, fields);
  }
  warn(event: string, fields?: LogFields): void {
    this.real().warn(event, fields);
  }
  error(event: string, fields?: LogFields): void {
    this.real().error(event, fields);
  }
  with(fields: LogFields): Logger {
    return this.real().with(fields);
  }
}
