import { withQuery } from '../api';
import { formatNumber, t } from '../i18n';
import type { LadderPage } from '../types';
import { BoardNameCell, BoardTable, Empty, LoadState, useApp, useLoad } from '../ui';
import { useState } from 'preact/hooks';

type Period = 'lifetime' | 'season';
type Board = 'global' | 'club';

/**
 * The XP ladders: lifetime or this season, globally or in the member's club, with the same opt-in
 * as the boards. The member's own row is marked; off the first page, the rows around it follow.
 */
export function Ladder() {
  const { api } = useApp();
  const [period, setPeriod] = useState<Period>('lifetime');
  const [board, setBoard] = useState<Board>('global');
  const { loaded, reload } = useLoad(
    () => api.get<LadderPage>(withQuery('/api/challenges/ladder', { period, scope: board, limit: 20 })),
    [period, board],
  );
  return (
    <section aria-labelledby="ladder-title" data-testid="ladder">
      <h2 id="ladder-title">{t('ladder.title')}</h2>
      <div class="row">
        <Segmented
          label={t('ladder.period')}
          value={period}
          options={['lifetime', 'season']}
          onChange={setPeriod}
          text={(value) => t(value === 'season' ? 'ladder.thisSeason' : 'ladder.lifetime')}
        />
        <Segmented
          label={t('leaderboard.board')}
          value={board}
          options={['global', 'club']}
          onChange={setBoard}
          text={(value) => t(`board.${value}`)}
        />
      </div>
      <LoadState loaded={loaded} onRetry={reload} />
      {loaded.state === 'ready' ? <LadderRows page={loaded.data} /> : null}
    </section>
  );
}

/** A choice of two or more shown as pressed buttons (a group with a name). */
function Segmented<T extends string>(props: {
  label: string;
  value: T;
  options: T[];
  onChange: (value: T) => void;
  text: (value: T) => string;
}) {
  return (
    <div class="segmented segmented-small" role="group" aria-label={props.label}>
      {props.options.map((option) => (
        <button type="button" class="segment" aria-pressed={option === props.value} key={option} onClick={() => props.onChange(option)}>
          {props.text(option)}
        </button>
      ))}
    </div>
  );
}

function LadderRows(props: { page: LadderPage }) {
  const { page } = props;
  const meOnPage = page.items.some((row) => row.isOwn);
  const rows = page.me && !meOnPage ? [...page.items, ...page.around, page.me] : page.items;
  const unique = [...new Map(rows.map((row) => [row.userId, row])).values()].sort((a, b) => a.rank - b.rank);
  if (unique.length === 0) {
    return (
      <Empty>
        <p>{t('ladder.empty')}</p>
      </Empty>
    );
  }
  return (
    <div class="table-wrap">
      {page.season ? <p class="small muted">{t('ladder.season', { name: page.season.name })}</p> : null}
      <BoardTable caption={t('ladder.title')} figure={t('profile.xp')} last={t('profile.tier')}>
        {unique.map((row) => (
          <tr key={row.userId} class={row.isOwn ? 'own' : undefined} data-testid="ladder-row">
            <td>{row.rank}</td>
            <BoardNameCell row={row} />
            <td class="number">{formatNumber(row.xp)}</td>
            <td>{t(`tier.${row.tier}`)}</td>
          </tr>
        ))}
      </BoardTable>
    </div>
  );
}
