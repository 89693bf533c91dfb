/**
 * The letters of a person's avatar: the first letter of the first and of the last word of their
 * name, upper case ("Anna Maria Schütz" → "AS", "Ümit" → "Ü", "Дмитрий Иванов" → "ДИ"). A letter
 * is a whole grapheme (a base letter with its combining marks, an emoji), never half a surrogate
 * pair. Words start at a letter or a number, so "(Toni) Berger" gives "TB". A name with no letter
 * or number at all gives its first grapheme.
 */
export function initialsOf(name: string): string {
  let initials = known.get(name);
  if (initials === undefined) {
    initials = initialsOfName(name);
    if (known.size >= KNOWN_NAMES) known.clear();
    known.set(name, initials);
  }
  return initials;
}

// A name's initials never change, and a board's first page shows the same twenty names to every
// member who opens it: reading them here costs a lookup, where working them out cost a board page
// about a tenth of its time. Bounded: emptied when full, so a rare name is worked out again.
const KNOWN_NAMES = 10_000;
const known = new Map<string, string>();

function initialsOfName(name: string): string {
  const trimmed = name.trim();
  const words = trimmed.split(/\s+/u);
  // Decided once for the name; only the first and the last word with a letter are read (a board
  // page names twenty people, and the initials cost more per name than the name's bytes).
  const initialOf = ONE_GRAPHEME_PER_CHARACTER.test(trimmed) ? firstSignificantCharacter : firstSignificantGrapheme;
  let firstWord = 0;
  let first: string | undefined;
  for (; firstWord < words.length && first === undefined; firstWord += 1) first = initialOf(words[firstWord] as string);
  if (first === undefined) return (graphemesOf(trimmed)[0] ?? '').toLocaleUpperCase().normalize('NFC');
  let last: string | undefined;
  for (let word = words.length - 1; word >= firstWord && last === undefined; word -= 1) last = initialOf(words[word] as string);
  // Composed, so an "e" with a combining accent shows as the one letter "É".
  return (first + (last ?? '')).toLocaleUpperCase().normalize('NFC');
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const LETTER_OR_NUMBER = /^[\p{L}\p{N}]/u;
const FIRST_LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

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

/** firstSignificantGrapheme of a word whose characters are graphemes each: its first letter or number. */
function firstSignificantCharacter(word: string): string | undefined {
  return FIRST_LETTER_OR_NUMBER.exec(word)?.[0];
}
