// azd's `api` service packages the folder named by `dist:` in azure.yaml: this copies the files of
// infra/app-package.json (the same list the Deploy workflows zip) into it, after `npm run build`.
import { cp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const target = path.join(root, '.package', 'api');
const { files } = JSON.parse(await readFile(path.join(root, 'infra', 'app-package.json'), 'utf8'));
await rm(target, { recursive: true, force: true });
for (const file of files) await cp(path.join(root, file), path.join(target, file), { recursive: true });
console.log(`Packaged ${files.length} entries of infra/app-package.json into .package/api`);
