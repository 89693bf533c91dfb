import type { IncomingHttpHeaders } from 'node:http';
import { HttpRequest, type HttpRequestParams, type HttpRequestUser } from '@azure/functions';

export interface LocalHttpRequestInit {
  /** As Node parsed it: upper case, one of the methods the function accepts. */
  method: string;
  /** The request's URL, already parsed and checked by the host (requestTarget.ts). */
  url: URL;
  /** The request headers as Node parsed them (names in lower case). */
  headers: IncomingHttpHeaders;
  params: HttpRequestParams;
  body: Buffer;
}

/**
 * The request the local host hands an HTTP function: the same interface as the Functions
 * library's HttpRequest (what the Azure worker gives a function), answered from what the host
 * has already parsed. `method`, `url`, `headers` (a real `Headers`), `query` and `params` are
 * made once here; the library's HttpRequest, an undici `Request` with its own URL parses and
 * abort signal, is built only when a function first touches the body (`arrayBuffer`, `text`,
 * `json`, `formData`, `blob`, `body`, `bodyUsed`), `user` or `clone`, and those members are its.
 * A GET that reads only its headers and query, most of the API, never builds one.
 *
 * What differs from the library's object: `instanceof HttpRequest` is false, and a header a
 * function changes on `headers` after it read the body is not seen by the body's object (the
 * headers are copied into it when it is built).
 */
export class LocalHttpRequest implements HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly query: URLSearchParams;
  readonly params: HttpRequestParams;
  readonly #body: Buffer;
  #full: HttpRequest | undefined;

  constructor(init: LocalHttpRequestInit) {
    this.method = init.method;
    this.url = init.url.href;
    this.headers = headersOf(init.headers);
    this.query = init.url.searchParams;
    this.params = init.params;
    this.#body = init.body;
  }

  /** The library's own request, for the body and the rest: made on first use, with the same method, URL, headers and body. */
  #fullRequest(): HttpRequest {
    this.#full ??= new HttpRequest({
      method: this.method,
      url: this.url,
      headers: Object.fromEntries(this.headers),
      params: this.params,
      ...(this.#body.length ? { body: { bytes: this.#body } } : {}),
    });
    return this.#full;
  }

  get user(): HttpRequestUser | null {
    return this.#fullRequest().user;
  }

  get body(): ReadableStream | null {
    return this.#fullRequest().body;
  }

  get bodyUsed(): boolean {
    // A body nobody asked for yet is unused.
    return this.#full?.bodyUsed ?? false;
  }

  // Methods on the prototype rather than arrow fields: nothing is made per request for them.
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#fullRequest().arrayBuffer();
  }

  blob(): Promise<Blob> {
    return this.#fullRequest().blob();
  }

  formData(): Promise<FormData> {
    return this.#fullRequest().formData();
  }

  json(): Promise<unknown> {
    return this.#fullRequest().json();
  }

  text(): Promise<string> {
    return this.#fullRequest().text();
  }

  clone(): HttpRequest {
    return this.#fullRequest().clone();
  }
}

/**
 * A `Headers` with one entry per name, a repeated one's values joined with `, `. Appended one by
 * one: the same entries as `new Headers(record)`, without converting a record first (a quarter
 * less time for the usual four or five headers).
 */
function headersOf(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const name of Object.keys(incoming)) {
    const value = incoming[name];
    if (value !== undefined) headers.append(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}
