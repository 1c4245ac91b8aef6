/**
 * docs/mcp.md's "Rights per tool" is the tool list's declarations: one row per tool, and a row
 * says "every token" exactly when the tool is declared open. (What each right allows is walked
 * through the real endpoint in test/trust/toolRights.test.ts.) A tool that slips past the type
 * without a declaration is refused at registration.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_TOOLS, McpService } from './mcpService';
import type { AnyToolDefinition, ToolCore } from './toolContext';

function rightsTable(): Map<string, string> {
  const doc = readFileSync(join(__dirname, '../../../../docs/mcp.md'), 'utf8');
  const section = doc.split('### Rights per tool')[1]?.split('\n### ')[0] ?? '';
  const rows = [...section.matchAll(/^\| `([a-z_]+)` +\| (.+?) +\|$/gm)];
  return new Map(rows.map(([, tool, needs]) => [tool, needs]));
}

describe('the rights table in docs/mcp.md', () => {
  it('has one row per tool, "every token" exactly for the tools declared open', () => {
    const table = rightsTable();
    expect([...table.keys()].sort()).toEqual(CORE_TOOLS.map((t) => t.name as string).sort());
    for (const tool of CORE_TOOLS) {
      const needs = table.get(tool.name as string)!;
      expect(needs.startsWith('every token'), `${tool.name}: ${needs}`).toBe('open' in tool.requires);
      if ('scope' in tool.requires) expect(needs, tool.name as string).toContain(tool.requires.scope);
      if ('appOnly' in tool.requires) expect(needs, tool.name as string).toBe('the app token only');
    }
  });
});

describe('registration', () => {
  it('refuses a tool that declares no right', async () => {
    const undeclared = { name: 'echo', title: 'Echo', summary: 'Echo.', description: 'Echo.', inputShape: {}, run: () => ({}) };
    await expect(
      McpService.start({ core: {} as ToolCore, dataDir: '/nonexistent', extraTools: [undeclared as unknown as AnyToolDefinition] }),
    ).rejects.toThrow('Tool echo declares no right (requires)');
  });
});
