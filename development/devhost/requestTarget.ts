import { HttpProblem } from '../../shared/http/problem';

/**
 * The URL of a request as the local host hands it on, built only from a checked Host header and
 * an origin-form target; anything else is the client's mistake (400), never a 500. Problems
 * never quote what the client sent: a Host like `user:pw@host` carries credentials.
 */
export function requestUrl(target: string | undefined, hostHeader: string | undefined, fallbackHost: string): URL | HttpProblem {
  // Origin form only: `*` (OPTIONS), authority form (CONNECT) and absolute form are not served,
  // and `//x` would read as a protocol-relative URL naming another host.
  if (!target || !target.startsWith('/') || target.startsWith('//')) {
    return new HttpProblem(400, 'Bad Request', 'The request target must be a path starting with a single "/".');
  }
  const authority = hostHeader ?? fallbackHost;
  if (!isValidAuthority(authority)) {
    return new HttpProblem(400, 'Bad Request', 'The Host header must be a host name or address with an optional port.');
  }
  try {
    return new URL(`http://${authority}${target}`);
  } catch {
    return new HttpProblem(400, 'Bad Request', 'The request target is not a valid path.');
  }
}

// A DNS name or IPv4 address, or a bracketed IPv6 address, and an optional port; no user info.
const AUTHORITY =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;

function isValidAuthority(authority: string): boolean {
  const match = AUTHORITY.exec(authority);
  if (!match) return false;
  return match[1] === undefined || Number(match[1]) <= 65_535;
}
