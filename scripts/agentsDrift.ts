/** `npm run agents:drift`: each verified CLI's newest published version against the pinned one (see bench/agentsDrift.ts). */
import { measureDrift, printDrift } from '../bench/agentsDrift';

measureDrift().then(
  (rows) => {
    printDrift(rows);
    process.exit(0);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
