/**
 * A binding value as the Functions host reads it: `%NAME%` is replaced by that app setting,
 * anything else is taken literally.
 */
export function resolveSettingExpression(value: string, setting: (name: string) => string | undefined, what: string): string {
  const match = /^%([A-Za-z0-9_]+)%$/.exec(value.trim());
  if (!match?.[1]) return value.trim();
  const resolved = setting(match[1])?.trim();
  // A local.settings.json made from an older sample lacks the settings added since: say where they are.
  if (!resolved)
    throw new Error(`${what} refers to setting ${match[1]}, which is not set: local.settings.sample.json has every setting the app reads`);
  return resolved;
}
