import { CHALLENGE_MESSAGES } from './challengeTexts';
import { CLUB_MESSAGES } from './clubTexts';
import { FRESHNESS_MESSAGES } from './freshnessTexts';
import type { TextParameters } from './catalogue';
import type { Language } from './language';
import type { Message, MessageRenderers, RenderedMessage } from './message';

/**
 * Every area's messages by key. An area adds its renderers here once; its keys start with the
 * area's name, so two areas cannot claim one key.
 */
const MESSAGES: MessageRenderers = { ...CHALLENGE_MESSAGES, ...CLUB_MESSAGES, ...FRESHNESS_MESSAGES };

/** Whether a message key is known, so a producer cannot store one that would never render. */
export function isKnownMessage(key: string): boolean {
  return Object.hasOwn(MESSAGES, key);
}

/**
 * The message in `language`; undefined when the key is unknown (removed since the entry was
 * written) or its parameters do not fit, so the reader falls back to the stored text.
 */
export function renderMessage(message: Message, language: Language): RenderedMessage | undefined {
  if (!isKnownMessage(message.key)) return undefined;
  return MESSAGES[message.key]?.(language, message.params);
}

/** A stored entry's text in `language`: rendered from its message when it has one, else as stored. */
export function entryText(
  stored: { title: string; body: string | null; messageKey: string | null; messageParams: TextParameters | null },
  language: Language,
): { title: string; body: string | null } {
  const rendered = stored.messageKey ? renderMessage({ key: stored.messageKey, params: stored.messageParams ?? {} }, language) : undefined;
  return rendered ? { title: rendered.title, body: rendered.body ?? null } : { title: stored.title, body: stored.body };
}
