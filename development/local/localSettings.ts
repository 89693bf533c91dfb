import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths';

/**
 * Loads app settings for local commands the way `func start` does: the Values of
 * local.settings.json (or the committed sample when there is none), without overriding
 * variables already set in the environment.
 */
export function loadLocalSettings(): string {
  const own = path.join(repoRoot, 'local.settings.json');
  const file = existsSync(own) ? own : path.join(repoRoot, 'local.settings.sample.json');
  const { Values } = JSON.parse(readFileSync(file, 'utf8')) as { Values: Record<string, string> };
  for (const [name, value] of Object.entries(Values)) {
    if (process.env[name] === undefined) process.env[name] = value;
  }
  return path.basename(file);
}
