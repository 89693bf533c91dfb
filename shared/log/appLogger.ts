import { configuredLogLevel } from '../config/settings';
import { createLogger, type LogFields, type Logger } from './logger';

/**
 * The app's logger for code that runs outside an invocation's logger (a repository noticing
 * drifted data): JSON lines at LOG_LEVEL, as every other log line of the app.
 */
export function appLogger(fields: LogFields = {}): Logger {
  return createLogger({ minLevel: configuredLogLevel(), fields });
}
