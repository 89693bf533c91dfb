import type { Sql } from '../../shared/db/client';
import { dueRowsStatement } from '../../shared/notifications/outbox/outboxClaims';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Actual Total Time'?: number;
  Plans?: PlanNode[];
}

export interface ClaimPlan {
  channel: 'email' | 'push';
  /** The plan's nodes, one line each, indented by depth (EXPLAIN's own words and figures). */
  excerpt: string[];
  /** What makes it not the claim the worker needs; empty when it is. */
  problems: string[];
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the worker's claim statement (outboxClaims.ts, dueRowsStatement)
 * on the outbox as it is, in a transaction rolled back afterwards. The claim must read the due
 * rows in the due index's order and stop after about a batch: no sequential scan of the outbox,
 * no sort, the index scan returning at most a batch and a quarter of rows, none removed by a
 * filter, and at most `maxBlocks` buffers touched.
 */
export async function explainClaim(sql: Sql, channel: 'email' | 'push', batch: number, maxBlocks: number): Promise<ClaimPlan> {
  let plan: PlanNode | undefined;
  await sql
    .begin(async (tx) => {
      const [row]: [{ 'QUERY PLAN': [{ Plan: PlanNode }] }] = await tx`
        explain (analyze, buffers, format json) ${dueRowsStatement(tx, channel, new Date(), batch)}`;
      plan = row['QUERY PLAN'][0].Plan;
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  if (!plan) throw new Error('EXPLAIN answered no plan');
  const nodes: { node: PlanNode; depth: number }[] = [];
  const walk = (node: PlanNode, depth: number) => {
    nodes.push({ node, depth });
    for (const child of node.Plans ?? []) walk(child, depth + 1);
  };
  walk(plan, 0);
  const problems: string[] = [];
  const outbox = nodes.filter(({ node }) => node['Relation Name'] === 'notification_outbox');
  if (outbox.some(({ node }) => node['Node Type'] === 'Seq Scan')) problems.push('a Seq Scan on notification_outbox');
  if (nodes.some(({ node }) => node['Node Type'] === 'Sort')) problems.push('a Sort');
  const scan = outbox.find(
    ({ node }) => node['Node Type'] === 'Index Scan' && node['Index Name'] === 'notification_outbox_due_channel_idx',
  );
  if (!scan) problems.push('no Index Scan using notification_outbox_due_channel_idx');
  else {
    const rows = (scan.node['Actual Rows'] ?? 0) * (scan.node['Actual Loops'] ?? 1);
    if (rows > batch * 1.25) problems.push(`the index scan returned ${rows} rows for a batch of ${batch}`);
    if ((scan.node['Rows Removed by Filter'] ?? 0) > 0) problems.push(`${scan.node['Rows Removed by Filter']} rows removed by a filter`);
  }
  const blocks = (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
  if (blocks > maxBlocks) problems.push(`${blocks} buffers touched (at most ${maxBlocks} expected)`);
  const excerpt = nodes.map(({ node, depth }) => {
    const what = [
      node['Node Type'],
      node['Index Name'] && `using ${node['Index Name']}`,
      node['Relation Name'] && `on ${node['Relation Name']}`,
    ]
      .filter(Boolean)
      .join(' ');
    const removed = node['Rows Removed by Filter'] ? `, removed by filter ${node['Rows Removed by Filter']}` : '';
    return `${'  '.repeat(depth)}${depth ? '-> ' : ''}${what} (actual rows=${node['Actual Rows']} loops=${node['Actual Loops']}${removed}, ${node['Actual Total Time']?.toFixed(3)} ms; buffers shared hit=${node['Shared Hit Blocks'] ?? 0} read=${node['Shared Read Blocks'] ?? 0})`;
  });
  return { channel, excerpt, problems };
}

class RolledBack extends Error {}
