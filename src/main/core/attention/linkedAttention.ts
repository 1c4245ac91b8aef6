/**
 * A remote host's agents call the person through THIS machine's channels (the person's devices and
 * settings are here): the linked projects' waiting rows, read whenever their counts change, become
 * the same attention / resolved news as a local agent's. Their news carries no Approve / Deny: an
 * action token is answered by a local core, while a remote prompt is answered in the phone view or
 * the inbox, which reach the host.
 */
import type { ProjectWaitingAgent } from '../../../shared/inbox';
import type { AttentionNews } from './attentionNews';

/** What the rows say that `announced` (the linked agents' last news) does not: new or changed questions, and resolutions. */
export function linkedNews(
  announced: ReadonlyMap<string, AttentionNews>,
  rows: readonly ProjectWaitingAgent[],
  now: number,
): AttentionNews[] {
  const news: AttentionNews[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const key = `${row.project.id}:${row.id}`;
    seen.add(key);
    const last = announced.get(key);
    if (last && last.question === row.question) continue;
    news.push({
      event: 'attention',
      key,
      project: { id: row.project.id, name: row.project.host ? `${row.project.name} on ${row.project.host}` : row.project.name },
      entry: { id: row.id, name: row.name },
      reason: row.blocked ? row.blocked.message : row.detail === 'question' ? 'Asks you a question' : 'Waiting for your permission',
      question: row.question,
      at: now,
    });
  }
  for (const [key, last] of announced) if (!seen.has(key)) news.push({ ...last, event: 'resolved', at: now });
  return news;
}
