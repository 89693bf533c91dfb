import { withQuery } from '../api';
import { formatNumber, t } from '../i18n';
import { hashOf } from '../routes';
import type { LeaderboardPage, LeaderboardRow } from '../types';
import { BoardNameCell, BoardTable, Empty, LoadState, useApp, useLoad } from '../ui';

/**
 * A challenge's leaderboard, switching between the global board and the member's club board.
 * The member's own row is marked; when it is not on the first page, the rows around it follow.
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
  return (
    <section aria-labelledby="page-title">
      <p>
        <a href={hashOf({ screen: 'challenges', tab: 'global' })}>← {t('leaderboard.back')}</a>
      </p>
      <h1 id="page-title" tabIndex={-1}>
        {t('leaderboard.title')}
      </h1>
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
        <Rows rows={page.items} caption={t(`board.${page.board}`)} />
      )}
      {page.me && !meOnPage ? (
        <>
          <h2>{t('leaderboard.around')}</h2>
          <Rows rows={[...page.around, page.me].sort((a, b) => a.rank - b.rank)} caption={t('leaderboard.around')} />
        </>
      ) : null}
    </div>
  );
}

function Rows(props: { rows: LeaderboardRow[]; caption: string }) {
  return (
    <div class="table-wrap">
      <BoardTable caption={props.caption} figure={t('leaderboard.score')} last={t('leaderboard.status')}>
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
