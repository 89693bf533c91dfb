import { ApiError } from '../../web/kit/apiError';

// Why push on this device cannot work, in terms the switch explains (screens/PushDevice.tsx). Pure, so unit tests import it.

/**
 * Why a browser without push has none: iOS and iPadOS give web push only to a web app added to
 * the Home Screen and opened from there (iPadOS says it is a Mac, but has touch points).
 */
export function whyUnsupported(device: { userAgent: string; maxTouchPoints: number; standalone: boolean }): 'ios' | 'unsupported' {
  const ios = /iPhone|iPad|iPod/.test(device.userAgent) || (/Macintosh/.test(device.userAgent) && device.maxTouchPoints > 1);
  return ios && !device.standalone ? 'ios' : 'unsupported';
}

/** What a failed switch means for the member: the browser refused, its push service failed, or ours did. */
export function pushFailure(error: unknown): 'blocked' | 'pushService' | 'service' {
  if (error instanceof ApiError) return 'service';
  return (error as { name?: unknown } | null)?.name === 'NotAllowedError' ? 'blocked' : 'pushService';
}
