/**
 * Applies a unified diff (as `git diff` writes it) to file texts, strictly: every context and
 * removed line must be found where its hunk says, or it throws. Returns the changed files' texts,
 * keyed by the path on the diff's `+++` line without its `a/` or `b/` prefix.
 */
export function applyUnifiedDiff(diff: string, read: (path: string) => string): Map<string, string> {
  const result = new Map<string, string>();
  const lines = diff.split('\n');
  let at = 0;
  while (at < lines.length) {
    const header = /^\+\+\+ [ab]\/(.+)$/.exec(lines[at] ?? '');
    at += 1;
    if (!header) continue;
    const path = header[1]!;
    const source = read(path).split('\n');
    const output: string[] = [];
    let copied = 0;
    while (at < lines.length && lines[at]!.startsWith('@@')) {
      const hunk = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(lines[at]!);
      if (!hunk) throw new Error(`Bad hunk header in the diff of ${path}: ${lines[at]}`);
      // A hunk of no old lines names the line after which it adds.
      const start = Number(hunk[1]) - (hunk[2] === '0' ? 0 : 1);
      output.push(...source.slice(copied, start));
      copied = start;
      at += 1;
      for (; at < lines.length && /^[ +\-\\]/.test(lines[at]!); at += 1) {
        const line = lines[at]!;
        if (line.startsWith('\\')) continue;
        if (line.startsWith('+')) {
          output.push(line.slice(1));
          continue;
        }
        if (source[copied] !== line.slice(1)) throw new Error(`The diff of ${path} does not apply at line ${copied + 1}`);
        if (line.startsWith(' ')) output.push(line.slice(1));
        copied += 1;
      }
    }
    output.push(...source.slice(copied));
    result.set(path, output.join('\n'));
  }
  return result;
}
