import { resolveSettingExpression } from './settingExpression';

/**
 * Turns a timer's schedule into a croner pattern: `%NAME%` is replaced by that app setting (as
 * the Functions host does), and the six NCRONTAB fields (seconds first) are kept as they are,
 * which croner reads the same way.
 */
export function resolveSchedule(schedule: string, setting: (name: string) => string | undefined): string {
  const expression = resolveSettingExpression(schedule, setting, 'Timer schedule');
  const fields = expression.split(/\s+/);
  if (fields.length !== 6) {
    throw new Error(`NCRONTAB schedule "${expression}" must have six fields: second minute hour day month weekday`);
  }
  return expression;
}
