import * as v from 'valibot';
import { optionalText, readEnvSettings } from '../shared/config/envValues';
import { seedChallenges } from '../shared/challenges/seed';
import type { CommandRun } from './command';
import { openCommandDatabase } from './database';

/** The command's own variables (not app settings): which club and user the presets are for. */
const SeedTargetsSchema = v.object({ SEED_CLUB_ID: optionalText, SEED_PERSONAL_USER_ID: optionalText });

/**
 * `seed:challenges`: upserts the badge registry and the 15 challenge presets. Club presets need
 * SEED_CLUB_ID (a service club id); SEED_PERSONAL_USER_ID binds the personal ones to one user
 * (else they are personal templates for everyone). Safe to re-run. Exit 0 done, 1 failed.
 */
export const runSeedChallenges: CommandRun = async (_args, env) => {
  const reading = readEnvSettings(SeedTargetsSchema, ['SEED_CLUB_ID', 'SEED_PERSONAL_USER_ID'], env);
  if (!reading.ok) {
    console.error(reading.problems.map((problem) => `${problem.setting} ${problem.message}`).join('; '));
    return 1;
  }
  const database = openCommandDatabase(env);
  try {
    console.log(`Database: ${database.description}`);
    const outcome = await seedChallenges(database.sql, {
      clubId: reading.value.SEED_CLUB_ID,
      personalUserId: reading.value.SEED_PERSONAL_USER_ID,
    });
    console.log(`Upserted ${outcome.templates} templates and ${outcome.badges} badges.`);
    if (outcome.skipped.length) console.log(`Skipped without SEED_CLUB_ID: ${outcome.skipped.join(', ')}`);
    return 0;
  } finally {
    await database.close();
  }
};
