import type { RequestFacts } from './boxUiAccess';

/**
 * One endpoint of the box interface; `body` is the parsed JSON request body (undefined when empty).
 * An answer is JSON unless it carries `text` (the UI's page and assets). Every route needs the
 * box access (edge/boxUiAccess.ts) unless it is `public` (the UI's page, assets and sign-in).
 */
export interface BoxRoute {
  method: string;
  public?: boolean;
  handle(request: { body: unknown; facts: RequestFacts }): Promise<BoxAnswer>;
}

export interface BoxAnswer {
  status: number;
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
}
