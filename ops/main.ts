import { runCommand } from './runCommand';

/**
 * The production commands' entry, bundled to dist/ops.js: `node dist/ops.js <command> [args]`.
 * Settings come from the environment alone (docs/decisions/007-production-commands.md).
 */
void runCommand(process.argv.slice(2), process.env).then((code) => process.exit(code));
