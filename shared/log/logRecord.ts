/**
 * What a log record is made of, apart from the logger that writes it: telemetry forwards records
 * of this shape, and the logger asks telemetry whether to, so neither file imports the other's types.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;
