/**
 * The letters of a person's avatar: the first letter of the first and of the last word of their
 * name, upper case ("Anna Maria Schütz" → "AS", "Ümit" → "Ü", "Дмитрий Иванов" → "ДИ"). A letter
 * is a whole grapheme (a base letter with its combining marks, an emoji), never half a surrogate
 * pair. Words start at a letter or a number, so "(Toni) Berger" gives "TB". A name with no letter
 * or number at all gives its first grapheme.
 */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/\s+/u)
    .map(firstSignificantGrapheme)
    .filter((letter): letter is string => letter !== undefined);
  const first = words[0];
  if (first === undefined) return (graphemesOf(name.trim())[0] ?? '').toLocaleUpperCase().normalize('NFC');
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  // Composed, so an "e" with a combining accent shows as the one letter "É".
  return (first + (last ?? '')).toLocaleUpperCase().normalize('NFC');
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const LETTER_OR_NUMBER = /^[\p{L}\p{N}]/u;

// Every character of U+0020..U+024F (outside the C1 controls) is a grapheme of its own: the
// combining marks, joiners and surrogates that make graphemes of several start at U+0300. Most
// names are written in these, and each segmenter call costs V8 a copy of ICU's break iterator,
// tens of microseconds, which made the names of a board page cost more than its query.
const ONE_GRAPHEME_PER_CHARACTER = /^[\u0020-\u007e\u00a0-\u024f]*$/;

function graphemesOf(text: string): string[] {
  if (ONE_GRAPHEME_PER_CHARACTER.test(text)) return text.split('');
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

function firstSignificantGrapheme(word: string): string | undefined {
  return graphemesOf(word).find((grapheme) => LETTER_OR_NUMBER.test(grapheme));
}
