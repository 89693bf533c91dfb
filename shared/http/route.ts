import type { HttpRequest, HttpResponseInit } from '@azure/functions';
import type * as v from 'valibot';
import type { Logger } from '../log/logger';
import type { Guard } from './guards';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type Schema = v.GenericSchema;

/** Statuses a route may declare for its OpenAPI description (the pipeline's own 400/401/403/405/413/415/503 are derived). */
export type DeclaredStatus = 200 | 201 | 202 | 204 | 404 | 409 | 410 | 413 | 422 | 429 | 502 | 503;

/** One documented answer of a route. */
export interface RouteResponse {
  description: string;
  /** JSON body schema; for 4xx/5xx the body is always problem+json and this is ignored. */
  schema?: Schema;
  /** Response headers the answer carries, with their meaning (`retry-after`). */
  headers?: Record<string, string>;
}
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

/** The media types a route's body may be sent in. */
export type BodyType = 'json' | 'form';

/** The three inputs a route validates; field paths of a 400 start with one of them. */
export type RouteInputName = 'params' | 'query' | 'body';

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
  /** The success status (200 unless the route answers 201 or 204), for the OpenAPI document. */
  status?: 200 | 201 | 202 | 204;
  /** Media type of the success body in the OpenAPI document (default application/json). */
  responseType?: string;
  /** Further answers of the route (another success status, 404, 409, a 503 with Retry-After), for the OpenAPI document. */
  responses?: Partial<Record<DeclaredStatus, RouteResponse>>;
  /**
   * How the body is sent: JSON (the default) or an HTML form (`application/x-www-form-urlencoded`
   * or `multipart/form-data`), whose fields reach the body schema as an object of strings.
   */
  bodyType?: BodyType;
  /** Overrides HTTP_MAX_BODY_BYTES for this route. */
  maxBodyBytes?: number;
  /**
   * The input whose fields the area's InvalidError names (relative paths such as `clubId`); the
   * dispatcher prefixes it. Default: the body when the route takes one, else the query, else params.
   */
  fieldErrorsIn?: RouteInputName;
  /**
   * A turn the caller must take before anything reads the body (a per-box limit on concurrent
   * reports): called once the guard has named the caller, it resolves to the release of the turn,
   * which the dispatcher calls once the handler is done, or throws (a BusyError: 503 with
   * Retry-After). A request waiting for its turn has cost no body parsing and no validation.
   */
  admit?(caller: C): Promise<() => void>;
  handle(input: RouteInput<ParamsOut<P>, Out<Q>, Out<B>, C>): Promise<HttpResponseInit>;
}

/** A route with its types erased, as the dispatcher and the OpenAPI builder see it. */
export type Route = RouteDefinition<Schema | undefined, Schema | undefined, Schema | undefined, unknown>;

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
