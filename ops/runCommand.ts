import { SettingsError } from '../shared/config/settings';
import { EventHubNotConfiguredError } from '../shared/ingest/eventHubNotConfigured';
import { StorageNotConfiguredError } from '../shared/storage/notConfigured';
import { COMMAND_EXIT, type Command, type CommandEnv } from './command';
import { traceCommand } from './commandTelemetry';
import { COMMANDS, findCommand } from './commands';
import { MissingSettingError } from './settings';

const usage = () => ['Usage: node dist/ops.js <command> [args]', ...COMMANDS.map((command) => `  ${command.usage}`)].join('\n');

/**
 * Runs `<command> [args]` and resolves with the exit code: the command's own, 2 with one line
 * naming the setting when a setting is missing or invalid, 1 with the message when it throws,
 * 64 for no or an unknown command. Never rejects.
 */
export async function runCommand(argv: readonly string[], env: CommandEnv): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--help' || name === 'help') {
    console.log(usage());
    return 0;
  }
  const command = findCommand(name);
  if (!command) {
    console.error(`${name === undefined ? 'No command given' : `Unknown command "${name}"`}\n${usage()}`);
    return COMMAND_EXIT.usage;
  }
  return traceCommand(command.name, env, () => runOne(command, args, env));
}

/** The command's exit code, with every failure mapped to one (settings 2, anything else 1). */
async function runOne(command: Command, args: string[], env: CommandEnv): Promise<number> {
  try {
    return await command.run(args, env);
  } catch (error) {
    if (error instanceof MissingSettingError || error instanceof StorageNotConfiguredError || error instanceof EventHubNotConfiguredError) {
      console.error(`${command.name}: ${error.message}`);
      return COMMAND_EXIT.settings;
    }
    if (error instanceof SettingsError) {
      console.error(`${command.name}: invalid settings: ${error.problems.map((p) => `${p.setting} ${p.message}`).join('; ')}`);
      return COMMAND_EXIT.settings;
    }
    console.error(`${command.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    return COMMAND_EXIT.failed;
  }
}
