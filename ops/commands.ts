import { challengeServiceTokenCommand } from './challengeServiceToken';
import type { Command } from './command';
import { edgeTokenCommand } from './edgeToken';
import { freshnessCheckCommand } from './freshnessCheck';
import { ingestBackfillCommand, ingestBackfillShootersCommand } from './ingestBackfill';
import { ingestReplayDeadLettersCommand } from './ingestReplayDeadLetters';
import { ingestWorkerPlanCommand } from './ingestWorkerPlan';
import { migrateCommand } from './migrate';
import { rolloutGateCommand } from './rolloutGates';
import { seedChallengesCommand } from './seedChallenges';
import { checkSignInCommand } from './signInSettings';

/** Every production command, by the name `node dist/ops.js <name>` and `npm run <name>` take. */
export const COMMANDS: readonly Command[] = [
  migrateCommand,
  ingestBackfillCommand,
  ingestBackfillShootersCommand,
  ingestReplayDeadLettersCommand,
  freshnessCheckCommand,
  edgeTokenCommand,
  challengeServiceTokenCommand,
  seedChallengesCommand,
  rolloutGateCommand,
  ingestWorkerPlanCommand,
  checkSignInCommand,
];

export function findCommand(name: string | undefined): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}
