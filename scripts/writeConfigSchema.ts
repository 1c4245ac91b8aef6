/** Writes resources/switchboard.schema.json from the zod schema (the single source of truth). */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { configJsonSchema } from '../src/shared/configJsonSchema';

const target = resolve(__dirname, '../resources/switchboard.schema.json');
writeFileSync(target, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target}`);
