import path from 'node:path';
import { chartModel, nearestIndex, niceStep } from '../../portal/src/chartModel';
import { de, en } from '../../portal/src/labels';
import { FRESHNESS_STATUSES } from '../../shared/freshness/evaluation';
import { HINT_CODES } from '../../shared/freshness/hints';
import {
  ATTENTION_KINDS,
  groupIngestFields,
  highlightedFields,
  incidentNoteFields,
  ingestAttention,
  ingestState,
} from '../../portal/src/runbook';
import { contrastRatio } from '../../web/kit/contrast';
import { BASE_PAIRS, paletteOf } from '../web/kit/palette';

const BOX = { width: 720, height: 300, margin: { top: 16, right: 32, bottom: 40, left: 72 } };

describe('the trend chart geometry', () => {
  const series = Array.from({ length: 30 }, (_, i) => ({
    date: `2026-11-${String(i + 1).padStart(2, '0')}`,
    cost: i === 10 ? 218.7 : i % 3,
  }));

  it('places one point per day across the plot, the highest below a round maximum', () => {
    const model = chartModel(series, BOX);
    expect(model.points).toHaveLength(30);
    expect(model.points[0]?.x).toBe(72);
    expect(model.points[29]?.x).toBe(688);
    expect(model.max).toBe(300);
    expect(model.yTicks.map((tick) => tick.value)).toEqual([0, 100, 200, 300]);
    expect(model.points[10]?.y).toBeCloseTo(260 - (244 * 218.7) / 300, 1);
    // Labels every 7 days counted back from the newest day, which always has one.
    expect(model.xTicks.map((tick) => tick.date)).toEqual(['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23', '2026-11-30']);
    expect(nearestIndex(model, 690)).toBe(29);
    expect(nearestIndex(model, 0)).toBe(0);
  });

  it('copes with a month without costs and a single day', () => {
    expect(chartModel([{ date: '2026-11-01', cost: 0 }], BOX)).toMatchObject({ max: 1, points: [{ x: 380, y: 260 }] });
    expect([niceStep(0, 4), niceStep(9, 4), niceStep(1000, 4), niceStep(0.3, 4)]).toEqual([1, 2.5, 250, 0.1]);
  });
});

describe('what the ingest block asks of the operator', () => {
  it('names each condition with its runbook section, most urgent first', () => {
    expect(ingestAttention({ status: 'up', admissionState: 'quarantined', sourceDriftState: 'suspected', catchUpState: 'live' })).toEqual([
      { kind: 'quarantined', section: 'Quarantined', severity: 'danger' },
      { kind: 'drift', section: 'Drift suspected', severity: 'warning' },
    ]);
    expect(ingestAttention({ status: 'down', admissionState: 'rejecting', catchUpState: 'stalled' }).map((item) => item.section)).toEqual([
      'Rejecting',
      'Stalled',
      'Rollback',
    ]);
    expect(
      ingestAttention({ status: 'up', admissionState: 'none', sourceDriftState: 'none', catchUpState: 'live', incidentState: 'none' }),
    ).toEqual([]);
    expect(ingestAttention({ status: 'up', admissionState: 'none', incidentState: 'recovered' })).toEqual([
      { kind: 'recovered', section: 'Rejecting', severity: 'info' },
    ]);
  });

  it('highlights the fields of a quarantine and of drift, not the healthy ones', () => {
    const fields = highlightedFields({ admissionState: 'quarantined', sourceDriftState: 'suspected' });
    expect([...fields]).toEqual(expect.arrayContaining(['admissionState', 'quarantineTopic', 'quarantineReason', 'sourceDriftDetail']));
    expect(fields.has('heartbeatAt')).toBe(false);
    expect(highlightedFields({ status: 'up', admissionState: 'none' }).size).toBe(0);
  });
});

describe('the state the diagnostics page leads with', () => {
  it.each([
    [{ status: 'unknown', admissionState: null }, 'unknown'],
    [{ status: 'up', admissionState: 'none', sourceDriftState: 'none', catchUpState: 'live', incidentState: 'none' }, 'live'],
    [{ status: 'up', admissionState: 'none', incidentState: 'recovered' }, 'live'],
    [{ status: 'up', admissionState: 'quarantined', sourceDriftState: 'suspected' }, 'quarantined'],
    [{ status: 'up', admissionState: 'rejecting', catchUpState: 'stalled' }, 'rejecting'],
    [{ status: 'up', admissionState: 'none', sourceDriftState: 'suspected' }, 'drift'],
    [{ status: 'up', admissionState: 'none', catchUpState: 'stalled' }, 'stalled'],
    [{ status: 'down', admissionState: 'none' }, 'down'],
  ])('%o is %s', (health, expected) => {
    expect(ingestState(health)).toBe(expected);
  });

  it('groups the fields by concern, keeps unknown fields in "other" and leaves the record lists out', () => {
    const groups = groupIngestFields({
      status: 'up',
      heartbeatAt: '2026-11-21T10:00:00Z',
      totalLag: 3,
      admissionState: 'quarantined',
      quarantineTopic: 'club.1.hits',
      lastContractRejectReason: 'club_scope_mismatch',
      consentState: 'granted',
      recentRejects: [],
      backfills: [],
    });
    expect(groups).toEqual([
      { id: 'runner', fields: ['status', 'heartbeatAt'] },
      { id: 'lag', fields: ['totalLag'] },
      { id: 'admission', fields: ['admissionState'] },
      { id: 'quarantine', fields: ['quarantineTopic'] },
      { id: 'reject', fields: ['lastContractRejectReason'] },
      { id: 'other', fields: ['consentState'] },
    ]);
    expect(groupIngestFields({ status: 'unknown' })).toEqual([{ id: 'runner', fields: ['status'] }]);
  });
});

describe('the portal palette', () => {
  const colour = paletteOf(path.join(__dirname, '../../portal/src/styles.css'));

  it.each([...BASE_PAIRS, ['danger-text', 'danger-bg'], ['warning-text', 'warning-bg'], ['ok-text', 'ok-bg'], ['info-text', 'info-bg']])(
    '--%s on --%s meets WCAG AA (4.5:1)',
    (foreground, background) => {
      expect(contrastRatio(colour(foreground), colour(background))).toBeGreaterThanOrEqual(4.5);
    },
  );
});

describe('the labels', () => {
  it('have a German and an English text for every state, step, status and hint the pages look up by name', () => {
    const needed = [
      ...ATTENTION_KINDS.flatMap((kind) => [`diag.state.${kind}`, `diag.step.${kind}`]),
      ...FRESHNESS_STATUSES.map((status) => `diag.status.${status}`),
      ...HINT_CODES.map((code) => `diag.hint.${code}`),
    ];
    for (const key of needed) {
      expect([key, typeof (en as Record<string, string>)[key], typeof (de as Record<string, string>)[key]]).toEqual([
        key,
        'string',
        'string',
      ]);
    }
    // Placeholders match between the languages.
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) expect([key, placeholders(de[key])]).toEqual([key, placeholders(en[key])]);
  });
});

describe('the incident note: the fields of the open conditions', () => {
  it('names a quarantine by its own fields, a reject series by the last reject, a drift by its detail', () => {
    expect(incidentNoteFields({ admissionState: 'quarantined', sourceDriftState: 'suspected' })).toEqual([
      'quarantineTopic',
      'quarantineClubId',
      'quarantineEntity',
      'quarantineReason',
      'quarantineDetail',
      'sourceDriftDetail',
    ]);
    expect(incidentNoteFields({ admissionState: 'rejecting' })).toEqual([
      'lastContractRejectReason',
      'lastContractRejectTopic',
      'lastContractRejectEntity',
      'lastContractRejectClubId',
    ]);
    expect(incidentNoteFields({ admissionState: 'none', sourceDriftState: 'none' })).toEqual([]);
  });
});
