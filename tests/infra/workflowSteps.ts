import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The `run: |` script of the step named `name` in a workflow's source (enough of YAML for the
 * workflows here: block scalars under `- name:`), dedented, so a test can run it with bash.
 */
export function stepScript(source: string, name: string): string {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => line.trim() === `- name: ${name}`);
  if (start === -1) throw new Error(`No step named "${name}"`);
  const stepIndent = lines[start]!.indexOf('-');
  for (let index = start + 1; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line.trim() !== '' && line.search(/\S/) <= stepIndent) break;
    const run = /^(\s*)run: \|\s*$/.exec(line);
    if (!run) continue;
    const runIndent = run[1]!.length;
    const body: string[] = [];
    for (let next = index + 1; next < lines.length; next += 1) {
      const text = lines[next]!;
      if (text.trim() !== '' && text.search(/\S/) <= runIndent) break;
      body.push(text);
    }
    const indent = Math.min(...body.filter((text) => text.trim() !== '').map((text) => text.search(/\S/)));
    return (
      body
        .map((text) => text.slice(indent))
        .join('\n')
        .trimEnd() + '\n'
    );
  }
  throw new Error(`The step "${name}" has no run block`);
}

/** Writes an executable script `name` into `dir` (created if needed) and returns its path. */
export function fakeCommand(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}
