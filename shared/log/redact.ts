/**
 * Removes credentials from text bound for a log line or a telemetry record: the given secret
 * values (a client secret, a connection string), and whatever has the shape of one, so a secret
 * the process was never told about (a caller's token echoed in an error) is caught too.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let clean = text;
  // includes first: most text holds no secret, and the check allocates nothing.
  for (const secret of secrets) if (secret && clean.includes(secret)) clean = clean.replaceAll(secret, '[redacted]');
  if (!MAYBE_SECRET.test(clean)) return clean;
  return (
    clean
      // Bearer tokens are JWTs; none belongs in a log line.
      .replace(/eyJ[\w-]+\.[\w-]+\.[\w-]*/g, '[token]')
      .replace(/\b(Bearer|Basic)\s+[^\s",;]+/gi, '$1 [redacted]')
      // The box's edge tokens and the personalization service's credential carry their prefix.
      .replace(/\b(edge|chsvc)_[A-Za-z0-9_-]{16,}/g, '$1_[redacted]')
      // Connection strings: storage, Event Hubs, Communication Services, Application Insights.
      .replace(/\b(AccountKey|SharedAccessKey|AccessKey|InstrumentationKey|Password|Pwd|ClientSecret)=([^;"'\s]+)/gi, '$1=[redacted]')
      // Credentials inside a URL (postgres://user:password@host).
      .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s"']+:)[^@/\s"']+@/gi, '$1[redacted]@')
  );
}

// A cheap first look, so the common line without anything secret-shaped skips the replacements.
const MAYBE_SECRET = /eyJ|bearer|basic|edge_|chsvc_|key=|password=|pwd=|secret=|:\/\/[^/\s]*@/i;

/** `redact` over every string of a flat record of fields; other values pass unchanged. */
export function redactFields<T extends Record<string, unknown>>(fields: T, secrets: readonly string[] = []): T {
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue;
    const clean = redact(value, secrets);
    if (clean !== value) (copy ??= { ...fields })[key] = clean;
  }
  return (copy ?? fields) as T;
}
