/** One piece of news about an agent that needs (or no longer needs) a person: what every channel sends. */
import type { PromptChoice } from '../../../shared/inbox';

export interface AttentionNews {
  event: 'attention' | 'resolved';
  /** One per agent: `project:entry`. */
  key: string;
  project: { id: string; name: string };
  entry: { id: string; name: string };
  reason: string;
  /** What it asks, as on its screen. */
  question?: string;
  /** The prompt on screen and the answers the inbox knows, when there is one. */
  prompt?: { fingerprint: string; choices: PromptChoice[] };
  at: number;
}
