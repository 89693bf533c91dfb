import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { t } from '../i18n';
import type { PersonalizeResult } from '../types';
import { ErrorBox, useAction, useApp } from '../ui';

const METRICS = ['shots', 'sessions', 'averageRing', 'bestSeries'] as const;

/**
 * The member's own adaptive goal: the service computes the target from their recent training
 * (medium: 5 % above the personal average). Creating it again regenerates the same card.
 */
export function PersonalGoal(props: { onCreated: () => void }) {
  const { api } = useApp();
  const [metric, setMetric] = useState<(typeof METRICS)[number]>('shots');
  const [created, setCreated] = useState<PersonalizeResult | undefined>(undefined);
  const action = useAction();
  const insufficient = action.error instanceof ApiError && action.error.code === 'insufficient_history';
  return (
    <form
      class="card personal-goal"
      aria-labelledby="personal-goal-title"
      onSubmit={action.submit(async () => {
        setCreated(await api.send<PersonalizeResult>('POST', '/api/challenges/personalize/me', { metric }));
        props.onCreated();
      })}
    >
      <h2 id="personal-goal-title">{t('personalize.title')}</h2>
      <div class="row">
        <label class="field">
          <span>{t('personalize.metric')}</span>
          <select value={metric} onChange={(event) => setMetric(event.currentTarget.value as (typeof METRICS)[number])}>
            {METRICS.map((name) => (
              <option value={name} key={name}>
                {t(`metric.${name}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="button" disabled={action.busy}>
          {t('personalize.create')}
        </button>
      </div>
      <p role="status" class="small">
        {created ? t('card.regenerated', { target: created.recommendation.target }) : ''}
      </p>
      {insufficient ? (
        <p class="notice" role="alert">
          {t('card.insufficient')}
        </p>
      ) : action.error ? (
        <ErrorBox error={action.error} title={t('state.actionFailed')} />
      ) : null}
    </form>
  );
}
