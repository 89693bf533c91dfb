// Validates the OpenAPI document on stdin against the official schema of its version and prints
// { valid, version, errors } as JSON. A separate process because the validator is ESM only and
// jest runs the tests as CommonJS.
import { Validator } from '@seriousme/openapi-schema-validator';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(input));
process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));
