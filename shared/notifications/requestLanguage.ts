import type { Queryable } from '../db/client';
import { loadContact } from './contactRepository';
import { headerLanguage, readerLanguage, type Language } from '../i18n/language';

/** The request headers the language is read from (an HttpRequest's `headers`). */
interface WithHeaders {
  headers: { get(name: string): string | null };
}

/**
 * The language of a signed-in member's request: Accept-Language when it names de or en, else the
 * member's stored language (one read, only then), else German.
 */
export async function requestLanguage(sql: Queryable, request: WithHeaders, userId: string): Promise<Language> {
  const header = headerLanguage(request.headers.get('accept-language'));
  if (header) return header;
  return readerLanguage(null, (await loadContact(sql, userId)).language);
}

/**
 * Headers of an answer written in the request's language: never cached (it is the member's own),
 * and a shared cache that ignored that would still have to key it by Accept-Language.
 */
export const READER_LANGUAGE_HEADERS: Readonly<Record<string, string>> = { 'cache-control': 'no-store', vary: 'Accept-Language' };
