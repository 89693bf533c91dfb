import { badRequest, HttpProblem } from './problem';

export const FORM_MEDIA_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'] as const;

/**
 * An HTML form body as an object of its fields, for a route whose body schema expects one.
 * Both encodings a form (and an RFC 8058 mail provider) may use are read; a field sent twice or a
 * file upload answers 400 naming the field, since a schema of plain strings would otherwise see
 * only one of the values or a file's name.
 */
export async function parseFormBody(bytes: Uint8Array, contentType: string): Promise<Record<string, string>> {
  const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (!(FORM_MEDIA_TYPES as readonly string[]).includes(mediaType)) {
    throw new HttpProblem(415, 'Unsupported Media Type', `The body must be sent as ${FORM_MEDIA_TYPES.join(' or ')}.`);
  }
  let form: FormData;
  try {
    if (mediaType === 'application/x-www-form-urlencoded') {
      // Decoded strictly: malformed UTF-8 would otherwise turn into U+FFFD and pass as a value.
      const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      form = new FormData();
      for (const [name, value] of new URLSearchParams(text)) form.append(name, value);
    } else {
      form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
    }
  } catch {
    throw badRequest('The body is not a well-formed form.', [{ path: 'body', message: 'malformed form body' }]);
  }
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name);
    if (values.length > 1)
      throw badRequest('A form field was sent twice.', [{ path: `body.${name.slice(0, 100)}`, message: 'must be sent once' }]);
    const [value] = values;
    if (typeof value !== 'string')
      throw badRequest('A form field is a file.', [{ path: `body.${name.slice(0, 100)}`, message: 'must be a text field' }]);
    fields[name] = value;
  }
  return { ...fields };
}
