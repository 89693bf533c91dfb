import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { createClubIfAbsent, findClubId } from '../shared/clubMaster/clubRepository';
import { listEdgeTokens, revokeEdgeToken } from '../shared/clubMaster/edgeTokenRepository';
import { createEdgeToken } from '../shared/clubMaster/edgeTokens';
import { VereinsIdSchema } from '../shared/clubMaster/schemas';
import type { CommandEnv, CommandRun } from './command';
import { openCommandDatabase } from './database';

const USAGE = `Usage:
  edge:token --club <clubId>                    create a token for the club's box (printed once)
  edge:token --club <clubId> --create-club --name <name> [--vereins-id <number>]
                                                same, creating the service club first (local setup)
  edge:token --list --club <clubId>             list the club's token ids (never the tokens)
  edge:token --revoke <tokenId>                 revoke a token`;

/**
 * `edge:token`: Edge API tokens of on-site boxes: create (printed once, stored only as a hash),
 * list, revoke. Exit 0 done, 1 failed.
 */
export const runEdgeToken: CommandRun = async (args, env) => {
  await edgeToken(args, env);
  return 0;
};

async function edgeToken(args: string[], env: CommandEnv): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      club: { type: 'string' },
      revoke: { type: 'string' },
      list: { type: 'boolean', default: false },
      'create-club': { type: 'boolean', default: false },
      name: { type: 'string' },
      'vereins-id': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const vereinsId = values['vereins-id'] === undefined ? null : parseVereinsId(values['vereins-id']);
  const database = openCommandDatabase(env);
  try {
    // Which database the command changes, so a token is not created in the wrong one unnoticed
    // (the description hides the password).
    console.log(`Database: ${database.description}`);
    const sql = database.sql;
    if (values.revoke) {
      const revoked = await revokeEdgeToken(sql, values.revoke);
      if (!revoked) throw new Error(`No unrevoked edge token with id ${values.revoke}`);
      console.log(`Revoked edge token ${values.revoke}`);
      return;
    }
    if (!values.club) throw new Error(`--club <clubId> is required\n${USAGE}`);
    if (values.list) {
      const tokens = await listEdgeTokens(sql, values.club);
      if (tokens.length === 0) console.log(`Club ${values.club} has no edge tokens`);
      for (const token of tokens) {
        const state = token.revokedAt ? `revoked ${token.revokedAt.toISOString()}` : 'active';
        console.log(
          `${token.id}  created ${token.createdAt.toISOString()}  last used ${token.lastUsedAt?.toISOString() ?? 'never'}  ${state}`,
        );
      }
      return;
    }
    if (values['create-club']) {
      if (!values.name) throw new Error('--create-club needs --name <club name>');
      const created = await createClubIfAbsent(sql, { id: values.club, name: values.name, vereinsId });
      console.log(created ? `Created club ${values.club} (${values.name}).` : `Club ${values.club} exists already; left as it is.`);
    }
    const clubId = await findClubId(sql, values.club);
    if (!clubId) throw new Error(`No service club with id ${values.club} (use --create-club --name <name> for local setup)`);
    const { id, token } = await createEdgeToken(sql, clubId);
    console.log(`Edge token ${id} for club ${clubId}. Put it into the box's .env as SVC_EDGE_API_TOKEN; it is not shown again:`);
    console.log(token);
  } finally {
    await database.close();
  }
}

/** The club number under the same rules as the box's report, so adopt and the sync can find it. */
function parseVereinsId(value: string): string {
  const parsed = v.safeParse(VereinsIdSchema, value);
  if (!parsed.success) throw new Error(`--vereins-id ${parsed.issues[0].message}`);
  return parsed.output;
}
