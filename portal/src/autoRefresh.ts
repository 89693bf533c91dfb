import { h, replace } from './dom';
import { t, locale } from './i18n';

/** The overview reads its signals again this often while the tab is visible. */
export const REFRESH_MS = 30_000;

/** "just now", "2 minutes ago": how long ago a moment was, in the reader's language. */
export function ago(then: number, now: number): string {
  const seconds = Math.round((then - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' });
  if (Math.abs(seconds) < 60) return format.format(Math.abs(seconds) < 10 ? 0 : seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return format.format(minutes, 'minute');
  return format.format(Math.round(minutes / 60), 'hour');
}

/**
 * Runs `load` now and every REFRESH_MS while the page is shown and the tab visible; a hidden tab
 * pauses it (nobody reads it, and the API is spared), a visible one reloads at once. The line it
 * returns says when the signals were read ("Updated 1 minute ago") or that updates are paused.
 * The refresh ends when the line leaves the page (navigating elsewhere).
 */
export function autoRefresh(load: () => Promise<void>): HTMLElement {
  const line = h('p', { class: 'muted small', 'data-testid': 'updated', 'aria-live': 'off' });
  let loadedAt: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const say = () => {
    if (document.hidden) replace(line, t('board.paused'));
    else if (loadedAt !== null) replace(line, t('board.updated', { ago: ago(loadedAt, Date.now()) }));
  };
  const run = async () => {
    clearTimeout(timer);
    if (!line.isConnected && loadedAt !== null) return stop();
    if (document.hidden) return say();
    await load();
    loadedAt = Date.now();
    say();
    timer = setTimeout(() => void run(), REFRESH_MS);
  };
  const tick = setInterval(() => (line.isConnected || loadedAt === null ? say() : stop()), 10_000);
  const onVisibility = () => (document.hidden ? say() : void run());
  const stop = () => {
    clearTimeout(timer);
    clearInterval(tick);
    document.removeEventListener('visibilitychange', onVisibility);
  };
  document.addEventListener('visibilitychange', onVisibility);
  void run();
  return line;
}
