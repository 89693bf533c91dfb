import { readFileSync } from 'node:fs';

/** A site's palette as its stylesheet declares it (`--text: #1b1f24`): the colour of a name, or a failed test. */
export function paletteOf(cssFile: string): (name: string) => string {
  const css = readFileSync(cssFile, 'utf8');
  return (name) => {
    const value = new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(css)?.[1];
    if (!value) throw new Error(`no --${name}`);
    return value;
  };
}

/**
 * The colour pairs every site draws through web/kit/base.css: text and small print on the page and
 * on cards, links on cards, and the text on the accent. Each site's palette test adds its own.
 */
export const BASE_PAIRS: [foreground: string, background: string][] = [
  ['text', 'bg'],
  ['text', 'card'],
  ['muted', 'bg'],
  ['muted', 'card'],
  ['accent', 'card'],
  ['accent-text', 'accent'],
];
