/** The tones an inbox entry can carry. */
export const TONES = ['info', 'success', 'warning', 'error'] as const;
export type Tone = (typeof TONES)[number];

/** The email categories of the preferences; an inbox entry may belong to one of them. */
export const CATEGORIES = ['training', 'competition', 'board', 'youth', 'club'] as const;
export type Category = (typeof CATEGORIES)[number];
