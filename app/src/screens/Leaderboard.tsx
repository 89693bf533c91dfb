import { withQuery } from '../api';
import { daysLeft } from '../cards';
import { formatNumber, t, type TextKey } from '../i18n';
import { hashOf } from '../routes';
import type { LeaderboardPage, LeaderboardRow } from '../types';
import { BoardNameCell, BoardTable, Empty, LoadState, useApp, useLoad } from '../ui';

/**
 * A challenge's leaderboard, switching between the global board and the member's club board.
 * It names its challenge, the score's unit and the days left. The member's own row is marked;
 * when it is not on the first page, the rows around it follow.
 */
export function Leaderboard(props: { challengeId: string; board: 'global' | 'club' }) {
  const { api } = useApp();
  const { loaded, reload } = useLoad(
    () =>
      api.get<LeaderboardPage>(
        withQuery(`/api/challenges/${encodeURIComponent(props.challengeId)}/leaderboard`, { scope: props.board, limit: 20 }),
      ),
    [props.challengeId, props.board],
  );
  const boards = ['global', 'club'] as const;
  const challenge = loaded.state === 'ready' ? loaded.data.challenge : undefined;
  return (
    <section aria-labelledby="page-title">
      <p>
        <a href={hashOf({ screen: 'challenges', tab: 'global' })}>← {t('leaderboard.back')}</a>
      </p>
      <h1 id="page-title" tabIndex={-1}>
        {challenge ? challenge.title : t('leaderboard.title')}
      </h1>
      {challenge ? (
        <p class="small muted" data-testid="board-about">
          {t('leaderboard.title')} · {t('leaderboard.unit', { unit: t(`metric.${challenge.metric}` as TextKey) })}
          {challenge.endsAt ? ` · ${t('leaderboard.daysLeft', { days: daysLeft(challenge.endsAt, new Date()) })}` : ''}
        </p>
      ) : null}
      <div class="segmented" role="group" aria-label={t('leaderboard.board')}>
        {boards.map((board) => (
          <a
            key={board}
            class="segment"
            href={hashOf({ screen: 'leaderboard', challengeId: props.challengeId, board })}
            aria-current={board === props.board ? 'true' : undefined}
            data-testid={`board-${board}`}
          >
            {t(`board.${board}`)}
          </a>
        ))}
      </div>
      <LoadState loaded={loaded} onRetry={reload} />
      {loaded.state === 'ready' ? <Board page={loaded.data} /> : null}
    </section>
  );
}

function Board(props: { page: LeaderboardPage }) {
  const { page } = props;
  const meOnPage = page.items.some((row) => row.isOwn);
  // The score column is headed by its unit (shots, average ring, …) where the board says which.
  const figure = page.challenge ? t(`metric.${page.challenge.metric}` as TextKey) : t('leaderboard.score');
  return (
    <div data-testid="leaderboard" data-board={page.board}>
      <p role="status" class="small">
        {page.me ? t('leaderboard.yourPlace', { rank: page.me.rank }) : t('leaderboard.notJoined')}
      </p>
      {page.items.length === 0 ? (
        <Empty>
          <p>{t('leaderboard.empty')}</p>
        </Empty>
      ) : (
        <Rows rows={page.items} caption={t(`board.${page.board}`)} figure={figure} />
      )}
      {page.me && !meOnPage ? (
        <>
          <h2>{t('leaderboard.around')}</h2>
          <Rows rows={[...page.around, page.me].sort((a, b) => a.rank - b.rank)} caption={t('leaderboard.around')} figure={figure} />
        </>
      ) : null}
    </div>
  );
}

function Rows(props: { rows: LeaderboardRow[]; caption: string; figure: string }) {
  return (
    <div class="table-wrap">
      <BoardTable caption={props.caption} figure={props.figure} last={t('leaderboard.status')}>
        {props.rows.map((row) => (
          <tr key={row.participationId} class={row.isOwn ? 'own' : undefined} data-testid="board-row" data-user={row.userId}>
            <td>{row.rank}</td>
            <BoardNameCell row={row} />
            <td class="number">{formatNumber(row.score)}</td>
            <td>{t(`status.${row.status}`)}</td>
          </tr>
        ))}
      </BoardTable>
    </div>
  );
}
