import { parseSomeSettings, type Settings } from '../shared/config/settings';
import type { CommandEnv } from './command';

/** A setting the command cannot run without; its message is the one line the operator sees. */
export class MissingSettingError extends Error {
  constructor(
    readonly setting: string,
    purpose: string,
  ) {
    super(`${setting} is not set: ${purpose}.`);
    this.name = 'MissingSettingError';
  }
}

/**
 * The app settings a command reads, parsed by the one schema (shared/config/settings.ts) from the
 * environment alone: no settings file, no defaults beyond the schema's own. Throws a SettingsError
 * naming each invalid setting.
 */
export function commandSettings<K extends keyof Settings>(names: readonly K[], env: CommandEnv): Pick<Settings, K> {
  return parseSomeSettings(names, env);
}

/** The value of a setting the schema allows to be unset but this command needs. */
export function requireSetting(value: string | undefined, setting: string, purpose: string): string {
  if (!value) throw new MissingSettingError(setting, purpose);
  return value;
}
