import type { Page } from 'playwright-core';

/**
 * Presses Tab until the focused element's accessible name (aria-label, its label, or its text)
 * is `name`, or matches it, as a keyboard user moves through a page; fails after `limit` presses.
 */
export async function tabTo(page: Page, name: string | RegExp, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate<string>(`(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return '';
      return (e.getAttribute('aria-label') || (e.labels && e.labels[0] && e.labels[0].textContent) || e.textContent || '').trim();
    })()`);
    if (typeof name === 'string' ? label === name : name.test(label)) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}
