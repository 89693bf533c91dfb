import type { HttpRequest, HttpResponseInit } from '@azure/functions';
import type * as v from 'valibot';
import type { Logger } from '../log/logger';
import type { Guard } from './guards';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type Schema = v.GenericSchema;
type Out<S> = S extends Schema ? v.InferOutput<S> : undefined;
/** Without a params schema the handler gets the raw path parameters. */
type ParamsOut<S> = S extends Schema ? v.InferOutput<S> : Record<string, string>;

export interface RouteInput<TParams, TQuery, TBody, TCaller> {
  request: HttpRequest;
  requestId: string;
  log: Logger;
  caller: TCaller;
  params: TParams;
  query: TQuery;
  body: TBody;
}

/**
 * One endpoint: method, path template (`/api/notifications/{id}/read`), who may call it, the
 * valibot schemas its input must satisfy, and the handler. The same object feeds the
 * dispatcher and the OpenAPI document.
 */
export interface RouteDefinition<P, Q, B, C> {
  method: HttpMethod;
  path: string;
  summary: string;
  guard: Guard<C>;
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of the success body, for the OpenAPI document. */
  response?: Schema;
  /** Overrides HTTP_MAX_BODY_BYTES for this route. */
  maxBodyBytes?: number;
  handle(input: RouteInput<ParamsOut<P>, Out<Q>, Out<B>, C>): Promise<HttpResponseInit>;
}

/** A route with its types erased, as the dispatcher and the OpenAPI builder see it. */
export interface Route {
  method: HttpMethod;
  path: string;
  summary: string;
  guard: Guard<unknown>;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  response?: Schema;
  maxBodyBytes?: number;
  handle(input: RouteInput<unknown, unknown, unknown, unknown>): Promise<HttpResponseInit>;
}

export function defineRoute<
  C,
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(definition: RouteDefinition<P, Q, B, C>): Route {
  return definition;
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): HttpResponseInit {
  return { status, jsonBody: body, headers };
}

export function noContent(): HttpResponseInit {
  return { status: 204 };
}
