import * as v from 'valibot';
import { optionalText, readEnvSettings } from '../shared/config/envValues';
import { seedChallenges } from '../shared/challenges/seed';
import { closeSql, getSql } from '../shared/db/client';
import { prepareLocalEnvironment } from './local/environment';

/** The command's own variables (not app settings): which club and user the presets are for. */
const SeedTargetsSchema = v.object({ SEED_CLUB_ID: optionalText, SEED_PERSONAL_USER_ID: optionalText });

/**
 * `npm run seed:challenges`: upserts the badge registry and the 15 challenge presets. Club
 * presets need SEED_CLUB_ID (a service club id); SEED_PERSONAL_USER_ID binds the personal ones
 * to one user (else they are personal templates for everyone). Safe to re-run.
 */
async function main(): Promise<void> {
  const reading = readEnvSettings(SeedTargetsSchema, ['SEED_CLUB_ID', 'SEED_PERSONAL_USER_ID'], process.env);
  if (!reading.ok) throw new Error(reading.problems.map((problem) => `${problem.setting} ${problem.message}`).join('; '));
  const environment = await prepareLocalEnvironment({ storage: false });
  try {
    console.log(`Database: ${environment.database.description}`);
    const outcome = await seedChallenges(getSql(), {
      clubId: reading.value.SEED_CLUB_ID,
      personalUserId: reading.value.SEED_PERSONAL_USER_ID,
    });
    console.log(`Upserted ${outcome.templates} templates and ${outcome.badges} badges.`);
    if (outcome.skipped.length) console.log(`Skipped without SEED_CLUB_ID: ${outcome.skipped.join(', ')}`);
  } finally {
    await closeSql();
    await environment.release();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
