import { defineCatalogue, textOf } from './catalogue';
import { dateTimeFormat } from './dateTimeFormat';
import type { Language } from './language';
import type { MessageRenderers } from './message';

/**
 * What the data-freshness check writes to a club's leaders, German first: no shot data arrived
 * for a training evening (with what the diagnostics make of it), and data arriving again.
 */
export const FRESHNESS_TEXTS = defineCatalogue({
  de: {
    'stale.title': 'Keine Schussdaten von {club}',
    'stale.body': 'Für den Trainingsabend am {evening} sind keine Schussdaten in der Cloud angekommen.',
    'stale.assumedPlan': '(Standardplan: Für den Verein ist kein Trainingsplan hinterlegt.)',
    'hint.box_offline': 'Die Box hat sich seit dem Ende des Abends nicht gemeldet: Sie ist ausgeschaltet oder offline.',
    'hint.transport_stalled': 'Die Box hat nach dem Abend Treffer gefunden, aber keiner kam in der Cloud an: Die Übertragung steht still.',
    'hint.shot_path_broken':
      'Nach Beginn des Abends kamen Starterlisten an, aber keine Treffer: Die Box läuft, der Weg der Schussdaten ist unterbrochen.',
    'hint.nothing_shot':
      'Die Box ist online, zeigt für den Abend aber nichts: Es wurde nicht geschossen oder die Vereinssoftware lief nicht.',
    'recovered.title': 'Schussdaten von {club} kommen wieder an',
    'recovered.body': 'Nach dem Trainingsabend am {evening} sind wieder Schussdaten in der Cloud angekommen.',
  },
  en: {
    'stale.title': 'No shot data from {club}',
    'stale.body': 'No shot data reached the cloud for the training evening of {evening}.',
    'stale.assumedPlan': '(default plan: no training plan is stored for the club)',
    'hint.box_offline': 'The box has not contacted the cloud since the evening ended: the box is off or offline.',
    'hint.transport_stalled': "The box's own check found hits after the evening, but none reached the cloud: the transport stands still.",
    'hint.shot_path_broken':
      'Starter lists arrived after the evening started but no hits did: the box lives and the shot-data path is broken.',
    'hint.nothing_shot': 'The box is online but shows no activity for the evening: nothing was shot or the club software did not run.',
    'recovered.title': 'Shot data from {club} arrives again',
    'recovered.body': 'Shot data reached the cloud again after the training evening of {evening}.',
  },
});

const HINTS = ['box_offline', 'transport_stalled', 'shot_path_broken', 'nothing_shot'] as const;
type HintCode = (typeof HINTS)[number];

/** "Mittwoch, 19. November 2025, 18:00" / "Wednesday, 19 November 2025, 18:00" on the club's own clock. */
function eveningText(iso: string, timeZone: string, language: Language): string | undefined {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return undefined;
  try {
    return dateTimeFormat(language, timeZone, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }).format(instant);
  } catch {
    return undefined; // a time zone this runtime does not know: the stored text is shown
  }
}

/** The freshness messages: the club's name, the evening's start (ISO) and the club's time zone; a stale one also the plan's source and the hint. */
export const FRESHNESS_MESSAGES: MessageRenderers = {
  'freshness.stale': (language, params) => {
    const { club, evening, timeZone, planSource, hint } = params;
    if (typeof club !== 'string' || typeof evening !== 'string' || typeof timeZone !== 'string') return undefined;
    if (hint !== undefined && !HINTS.includes(hint as HintCode)) return undefined;
    const when = eveningText(evening, timeZone, language);
    if (!when) return undefined;
    const body = [
      textOf(FRESHNESS_TEXTS, 'stale.body', language, { evening: when }),
      planSource === 'assumed' ? textOf(FRESHNESS_TEXTS, 'stale.assumedPlan', language) : null,
      hint ? textOf(FRESHNESS_TEXTS, `hint.${hint as HintCode}`, language) : null,
    ];
    return { title: textOf(FRESHNESS_TEXTS, 'stale.title', language, { club }), body: body.filter(Boolean).join(' ') };
  },
  'freshness.recovered': (language, params) => {
    const { club, evening, timeZone } = params;
    if (typeof club !== 'string' || typeof evening !== 'string' || typeof timeZone !== 'string') return undefined;
    const when = eveningText(evening, timeZone, language);
    if (!when) return undefined;
    return {
      title: textOf(FRESHNESS_TEXTS, 'recovered.title', language, { club }),
      body: textOf(FRESHNESS_TEXTS, 'recovered.body', language, { evening: when }),
    };
  },
};
