/** The headless runner for each task agent; a new agent is one more runner file and one more line here. */
import type { TaskAgent } from '../../../shared/task';
import { InvalidArgumentError } from '../../../shared/errors';
import { claudeRunner } from './claudeRunner';
import type { TaskRunner } from './taskRunner';

const RUNNERS: Readonly<Record<TaskAgent, TaskRunner>> = { claude: claudeRunner };

export function runnerFor(agent: TaskAgent): TaskRunner {
  const runner = RUNNERS[agent];
  if (!runner) throw new InvalidArgumentError(`No headless runner for agent "${agent}"; known: ${Object.keys(RUNNERS).join(', ')}`);
  return runner;
}
