import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Reads the places where app settings are named: the sample, infra's settings file and its helpers. */

export const root = path.resolve(__dirname, '..', '..');
const read = (relative: string) => readFileSync(path.join(root, relative), 'utf8');
const readJson = <T>(relative: string) => JSON.parse(read(relative)) as T;

export interface InfraSettings {
  /** Settings the app reads, with the same names as local.settings.sample.json. */
  app: Record<string, string>;
  /** Settings only the platform reads (Application Insights and the like). */
  platform: Record<string, string>;
}

export const infraSettings = () => readJson<InfraSettings>('infra/app-settings.json');
export const localOnlySettings = () => readJson<Record<string, string>>('infra/local-only-settings.json');
export const sampleSettingNames = () => Object.keys(readJson<{ Values: Record<string, string> }>('local.settings.sample.json').Values);
export const environments = ['staging', 'production'] as const;
export const environmentSettings = (environment: string) => readJson<Record<string, string>>(`infra/env/${environment}.settings.json`);
export const bicepParamFile = (environment: string) => read(`infra/env/${environment}.bicepparam`);
export const mainBicep = () => read('infra/main.bicep');
export const bicepModules = () =>
  readdirSync(path.join(root, 'infra', 'modules'))
    .filter((file) => file.endsWith('.bicep'))
    .map((file) => read(path.join('infra', 'modules', file)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/**
 * Settings the Functions host resolves itself, before any code runs: `%NAME%` expressions and
 * binding `connection` names in the registrations (functions/, where every trigger is declared).
 */
export function bindingSettings(): { expressions: string[]; connections: string[] } {
  const text = sourceFiles(path.join(root, 'functions')).map((file) => withoutComments(readFileSync(file, 'utf8')));
  const expressions = new Set<string>();
  const connections = new Set<string>();
  for (const source of text) {
    for (const match of source.matchAll(/['"`]%([A-Za-z0-9_]+)%['"`]/g)) expressions.add(match[1] ?? '');
    for (const match of source.matchAll(/\bconnection:\s*['"`]([A-Za-z0-9_]+)['"`]/g)) connections.add(match[1] ?? '');
  }
  return { expressions: [...expressions].sort(), connections: [...connections].sort() };
}

/** Keys of `var resourceSettingValues = { ... }` in main.bicep: what `resource:<key>` may name. */
export function resourceSettingKeys(bicep: string): string[] {
  const block = /var resourceSettingValues = \{([\s\S]*?)\n\}/.exec(bicep)?.[1] ?? '';
  return [...block.matchAll(/^\s*([A-Za-z0-9_]+):/gm)].map((match) => match[1] ?? '').sort();
}
