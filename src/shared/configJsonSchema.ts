/** JSON Schema for editors, generated from the zod schema of switchboard.json. */
import { z } from 'zod';
import { SwitchboardConfigSchema } from './config';

export function configJsonSchema(): Record<string, unknown> {
  // 'input' mode: what a person writes (defaults not yet applied). Refinements such as "is a valid
  // regex" cannot be expressed in JSON Schema; the app reports those itself.
  const schema = z.toJSONSchema(SwitchboardConfigSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, title: 'switchboard.json', $id: 'https://switchboard.dev/schema/switchboard.schema.json' };
}
