/**
 * A remote host's agents call the person through THIS machine's channels (the person's devices and
 * settings are here): the linked projects' waiting rows, read whenever their counts change, become
 * the same attention / resolved news as a local agent's, with the prompt's fingerprint and answers,
 * so a notification's Approve / Deny reaches the host the way the inbox's answer does.
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
    if (last && last.question === row.question && last.prompt?.fingerprint === row.fingerprint) continue;
    news.push({
      event: 'attention',
      key,
      project: { id: row.project.id, name: row.project.host ? `${row.project.name} on ${row.project.host}` : row.project.name },
      entry: { id: row.id, name: row.name },
      reason: row.blocked ? row.blocked.message : row.detail === 'question' ? 'Asks you a question' : 'Waiting for your permission',
      question: row.question,
      ...(row.fingerprint && { prompt: { fingerprint: row.fingerprint, choices: row.choices } }),
      at: now,
    });
  }
  for (const [key, last] of announced) if (!seen.has(key)) news.push({ ...last, event: 'resolved', at: now });
  return news;
}
