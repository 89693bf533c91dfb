import { replace, type Child } from './dom';

/**
 * Draws `draw(width)` into `holder` now, and again whenever the holder's width changes (a phone
 * turned sideways, a resized window), so a chart drawn one unit per CSS pixel keeps its label
 * size. Returns a function that redraws at the current width (after a state change such as a
 * switch).
 */
export function drawAtWidth(holder: HTMLElement, initialWidth: number, draw: (width: number) => Child): () => void {
  let drawn = Math.round(initialWidth);
  const redraw = () => replace(holder, draw(drawn));
  redraw();
  if (typeof ResizeObserver !== 'undefined') {
    new ResizeObserver((entries) => {
      const width = Math.round(entries[0]?.contentRect.width ?? 0);
      // 0 while the page is being replaced; a pixel either way is rounding, not a new width.
      if (width > 0 && Math.abs(width - drawn) > 1) {
        drawn = width;
        redraw();
      }
    }).observe(holder);
  }
  return redraw;
}
