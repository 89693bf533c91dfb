/** The npm scripts a workflow may run: checks and the build, never a command with local fall-backs. */
const ALLOWED_NPM_SCRIPTS = new Set(['lint', 'build', 'test', 'typecheck', 'test:unit']);

/** The workflow's lines outside comments. */
const codeLines = (source: string) =>
  source
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => !line.trim().startsWith('#'));

/**
 * Lines of a workflow that run development tooling: tsx, a file under development/ (or the old
 * scripts/), or an npm script other than the checks and the build (`npm run migrate` would fill
 * unset settings from the sample and start an embedded database).
 */
export function developmentCalls(source: string): string[] {
  return codeLines(source)
    .filter(({ line }) => {
      if (/\btsx\b|(^|[\s'"(])(\.\/)?(development|scripts)\//.test(line)) return true;
      return [...line.matchAll(/\bnpm run(?:\s+--?[\w-]+)*\s+([\w:-]+)/g)].some((match) => !ALLOWED_NPM_SCRIPTS.has(match[1] ?? ''));
    })
    .map(({ line, number }) => `${number}: ${line.trim()}`);
}

/** The command names a workflow passes to `node dist/ops.js`. */
export function opsCommands(source: string): string[] {
  return codeLines(source).flatMap(({ line }) => [...line.matchAll(/\bnode\s+dist\/ops\.js\s+([\w:-]+)/g)].map((match) => match[1] ?? ''));
}
