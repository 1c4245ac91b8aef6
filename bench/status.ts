/** Agent-status figures: classifier cost per screen update and reaction latency with 32 agents. */
import { benchClassifier, benchReactionLatency } from '../src/main/core/status';
import type { BenchRow } from './report';

export async function benchStatus(): Promise<BenchRow[]> {
  const classifier = await benchClassifier();
  const reaction = await benchReactionLatency({ entries: 32 });
  return [
    {
      section: 'status',
      name: `classifier per screen update p50 (${classifier.screens} recorded screens)`,
      value: classifier.p50Us,
      unit: 'µs',
    },
    { section: 'status', name: 'classifier per screen update p99', value: classifier.p99Us, unit: 'µs' },
    { section: 'status', name: 'screen change → status event p50 (32 agents)', value: reaction.p50Ms, unit: 'ms' },
    { section: 'status', name: 'screen change → status event p95 (32 agents)', value: reaction.p95Ms, unit: 'ms', goal: '≤ 300 ms' },
  ];
}
