import { contrastRatio } from '../../web/kit/contrast';

/**
 * The colour a badge's icon is drawn in on the badge's own colour (screens/BadgeArt.tsx): black or
 * white, whichever has the higher contrast on `background`. Pure, so unit tests import it.
 */
export function readableOn(background: string): '#000000' | '#ffffff' {
  return contrastRatio('#000000', background) >= contrastRatio('#ffffff', background) ? '#000000' : '#ffffff';
}
