/**
 * A blocked episode: from the turn an agent is first blocked until it does real work again. A
 * person hears about an episode once (docs/agent-status.md, "Attention once"): the CLI retrying,
 * going idle or failing again on the same cause is the same episode; another cause is news.
 */
import { isBlockedDetail, type AgentStatusInfo, type BlockedDetail } from '../../../shared/status';

interface EpisodeStep {
  /** The cause of the episode still open after this status, if any. */
  open: BlockedDetail | undefined;
  /** True when this status began an episode (or changed its cause): raise attention. */
  began: boolean;
}

export function nextEpisode(open: BlockedDetail | undefined, status: AgentStatusInfo | undefined): EpisodeStep {
  if (!status || status.primary === 'dead') return { open: undefined, began: false };
  if (status.primary === 'waiting' && isBlockedDetail(status.detail)) return { open: status.detail, began: status.detail !== open };
  return { open: isWorking(status) ? undefined : open, began: false };
}

/** Real progress ends an episode: a turn that is not the CLI retrying, or a prompt it asks. */
export function isWorking(status: AgentStatusInfo): boolean {
  if (status.primary === 'active' || status.primary === 'stuck') return status.detail !== 'retrying';
  return status.primary === 'waiting' && !isBlockedDetail(status.detail);
}

/**
 * Work that proves a continue went through: the model answering or acting, or the CLI asking. A turn
 * that has only begun (`active · thinking`: Codex draws its Working row before the service refuses
 * again) may still meet the same limit.
 */
export function showsProgress(status: AgentStatusInfo): boolean {
  if (status.primary === 'active' || status.primary === 'stuck') return status.detail === 'responding' || status.detail === 'using_tools';
  return status.primary === 'waiting' && !isBlockedDetail(status.detail);
}
