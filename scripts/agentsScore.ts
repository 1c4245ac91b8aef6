/** `npm run agents:score`: the agent-status score table (see bench/agents.ts). */
import { printAgentScores, scoreAgents } from '../bench/agents';

scoreAgents().then(
  (rows) => {
    printAgentScores(rows);
    process.exit(0);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
