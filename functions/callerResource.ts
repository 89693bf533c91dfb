import type * as v from 'valibot';
import { getSql, type Sql } from '../shared/db/client';
import { authenticatedUser, type UserCaller } from '../shared/http/guards';
import { defineRoute, json, type Route } from '../shared/http/route';

/**
 * One method on a resource of the caller's own: what it does to the caller's data, and the data
 * it answers. `Who` is what `run` is handed of the caller: their user id, or the whole verified
 * caller where the answer depends on what the sign-in says (the address it vouches for).
 */
interface CallerOperation<Who> {
  summary: string;
  /** The body the method takes (PUT, PATCH, POST); its validated value is `run`'s third argument. */
  body?: v.GenericSchema;
  /** The method's own failures (a 409, a 410), for the OpenAPI document. */
  responses?: Route['responses'];
  run(sql: Sql, who: Who, body: unknown): Promise<unknown>;
}

type Operations<Who> = Partial<Record<'GET' | 'PUT' | 'PATCH' | 'POST', CallerOperation<Who>>>;

function routesOf<Who>(path: string, response: v.GenericSchema, operations: Operations<Who>, who: (caller: UserCaller) => Who): Route[] {
  return Object.entries(operations).map(([method, operation]) =>
    defineRoute({
      method: method as Route['method'],
      path,
      summary: operation.summary,
      guard: authenticatedUser,
      body: operation.body,
      response,
      responses: operation.responses,
      async handle({ caller, body: input }) {
        return json(await operation.run(getSql(), who(caller), input), 200, { 'cache-control': 'no-store' });
      },
    }),
  );
}

/**
 * The routes of a resource the signed-in caller owns (their settings, preferences, clubs): each
 * method reads or changes it for the caller's own user id and answers it as it now stands, never
 * cached.
 */
export function callerResource(path: string, response: v.GenericSchema, operations: Operations<string>): Route[] {
  return routesOf(path, response, operations, (caller) => caller.userId);
}

/** The same for a resource whose answer depends on the caller's sign-in (contact details): `run` gets the verified caller. */
export function signedInResource(path: string, response: v.GenericSchema, operations: Operations<UserCaller>): Route[] {
  return routesOf(path, response, operations, (caller) => caller);
}
