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
