import { execFileSync } from 'node:child_process';
import path from 'node:path';

let script: string | undefined;

/**
 * The box UI's script (edge/ui/boxUi.ts), bundled on first use when the agent runs from its
 * sources: edge/ui/bundle.mjs, an ES module the build imports, run as a command. The agent's
 * bundle never runs this: development/build.mjs puts the built script in this module's place.
 */
export function boxUiScript(): string {
  script ??= execFileSync(process.execPath, [path.join(__dirname, 'ui', 'bundle.mjs')], { encoding: 'utf8' });
  return script;
}
