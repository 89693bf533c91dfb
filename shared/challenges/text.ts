import { hasNoInvisibleCharacters, humanTextSchema } from '../validation/humanText';

/** True when the text holds a format or default-ignorable (invisible) code point. */
export const hasInvisibleCharacters = (text: string): boolean => !hasNoInvisibleCharacters(text);

/**
 * Human-readable text (challenge titles, descriptions, badge and season names): the one rule for
 * names people read (shared/validation/humanText.ts), trimmed and bounded.
 */
export const visibleText = humanTextSchema;
