import type { TextParameters } from './catalogue';
import type { Language } from './language';

/**
 * A notification named by what happened rather than by its words: a key (`challenges.result`)
 * and the parameters its texts need. Stored with the inbox entry and its deliveries, it is
 * rendered when read, in the reader's language (messages.ts).
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
