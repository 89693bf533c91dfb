import type { TextParameters } from '../i18n/catalogue';
import type { Language } from '../i18n/language';

/**
 * A notification named by what happened rather than by its words: a key (`challenges.result`)
 * and the parameters its texts need. Stored with the inbox entry and its deliveries, it is
 * rendered when read, in the reader's language (messageRegistry.ts).
 */
export interface Message {
  key: string;
  params: TextParameters;
}

export interface RenderedMessage {
  title: string;
  body?: string;
}

/** An area's messages: each renders its title and body in a language, or undefined for parameters it cannot read. */
export type MessageRenderers = Readonly<Record<string, (language: Language, params: TextParameters) => RenderedMessage | undefined>>;
