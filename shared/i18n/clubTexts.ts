import { defineCatalogue, textOf } from './catalogue';
import type { MessageRenderers } from './message';

/**
 * What the clubs area writes for members, German first: the inbox messages of membership changes.
 * Add a key to both languages; the catalogue test fails when one is missing or an English text was
 * copied into the German side.
 */
export const CLUB_TEXTS = defineCatalogue({
  de: {
    'joined.title': 'Willkommen im Verein {club}',
    'joined.body': 'Du bist jetzt Mitglied. Die Challenges und Ranglisten deines Vereins findest du in der App.',
    'invitationAccepted.title': 'Einladung angenommen: {club}',
    'invitationAccepted.body': 'Mit deiner Einladung ist ein neues Mitglied dem Verein beigetreten.',
    'removed.title': 'Nicht mehr Mitglied: {club}',
    'removed.body': 'Die Vereinsleitung hat dich aus dem Verein entfernt. Frag sie, falls das ein Versehen war.',
    'madeLeader.title': 'Du leitest jetzt {club}',
    'madeLeader.body': 'Du kannst Mitglieder einladen, Schützen-Verknüpfungen bestätigen und Vereins-Challenges anlegen.',
  },
  en: {
    'joined.title': 'Welcome to {club}',
    'joined.body': 'You are a member now. Your club’s challenges and leaderboards are in the app.',
    'invitationAccepted.title': 'Invitation accepted: {club}',
    'invitationAccepted.body': 'A new member joined the club with your invitation.',
    'removed.title': 'No longer a member: {club}',
    'removed.body': 'The club’s leaders removed you from the club. Ask them if this was a mistake.',
    'madeLeader.title': 'You now lead {club}',
    'madeLeader.body': 'You can invite members, confirm shooter links and create club challenges.',
  },
});

export type ClubMessage = 'joined' | 'invitationAccepted' | 'removed' | 'madeLeader';
const CLUB_MESSAGE_NAMES: readonly ClubMessage[] = ['joined', 'invitationAccepted', 'removed', 'madeLeader'];

/** Every membership message names the club and nothing else. */
export const CLUB_MESSAGES: MessageRenderers = Object.fromEntries(
  CLUB_MESSAGE_NAMES.map((name) => [
    `clubs.${name}`,
    (language: 'de' | 'en', params: { club?: unknown }) =>
      typeof params.club === 'string'
        ? {
            title: textOf(CLUB_TEXTS, `${name}.title`, language, { club: params.club }),
            body: textOf(CLUB_TEXTS, `${name}.body`, language),
          }
        : undefined,
  ]),
);
