import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { configJsonSchema } from './configJsonSchema';

describe('shipped JSON Schema', () => {
  it('is the one generated from the zod schema (run `npm run schema` after changing it)', () => {
    const shipped = JSON.parse(readFileSync(resolve(__dirname, '../../resources/switchboard.schema.json'), 'utf8'));
    expect(shipped).toEqual(JSON.parse(JSON.stringify(configJsonSchema())));
  });

  it('describes processes and agents', () => {
    const schema = configJsonSchema() as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['processes', 'agents']));
  });
});
