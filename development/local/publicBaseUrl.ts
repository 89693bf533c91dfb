/**
 * Locally the unsubscribe links of the emails point at the local host, on whatever PORT it
 * listens: an empty NOTIFY_PUBLIC_BASE_URL (as the sample ships it) becomes
 * http://127.0.0.1:<PORT>. A value someone set (a tunnel's https address) stays.
 */
export function followLocalPort(env: Record<string, string | undefined>): void {
  if (env['NOTIFY_PUBLIC_BASE_URL']?.trim()) return;
  env['NOTIFY_PUBLIC_BASE_URL'] = `http://127.0.0.1:${env['PORT']?.trim() || '7071'}`;
}
