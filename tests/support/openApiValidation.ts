import { spawn } from 'node:child_process';
import path from 'node:path';

export interface OpenApiValidation {
  valid: boolean;
  version: string;
  errors: unknown;
}

/** Validates a document with @seriousme/openapi-schema-validator (in a child process: the package is ESM only). */
export function validateOpenApi(document: unknown): Promise<OpenApiValidation> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'validateOpenApi.mjs')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`the OpenAPI validator exited with ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as OpenApiValidation);
    });
    child.stdin.end(JSON.stringify(document));
  });
}
