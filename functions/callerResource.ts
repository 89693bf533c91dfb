import type * as v from 'valibot';
import { getSql, type Sql } from '../shared/db/client';
import { authenticatedUser } from '../shared/http/guards';
import { defineRoute, json, type Route } from '../shared/http/route';

/** One method on a resource of the caller's own: what it does to the caller's data, and the data it answers. */
interface CallerOperation {
  summary: string;
  /** The body the method takes (PUT, PATCH); its validated value is `run`'s third argument. */
  body?: v.GenericSchema;
  run(sql: Sql, userId: string, body: unknown): Promise<unknown>;
}

/**
 * The routes of a resource the signed-in caller owns (their settings, preferences, contact
 * details, clubs): each method reads or changes it for the caller's own user id and answers it
 * as it now stands, never cached.
 */
export function callerResource(
  path: string,
  response: v.GenericSchema,
  operations: Partial<Record<'GET' | 'PUT' | 'PATCH', CallerOperation>>,
): Route[] {
  return Object.entries(operations).map(([method, operation]) =>
    defineRoute({
      method: method as Route['method'],
      path,
      summary: operation.summary,
      guard: authenticatedUser,
      body: operation.body,
      response,
      async handle({ caller, body: input }) {
        return json(await operation.run(getSql(), caller.userId, input), 200, { 'cache-control': 'no-store' });
      },
    }),
  );
}
