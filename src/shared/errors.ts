/**
 * Typed error family (after the MCP SDK's auth errors): each code has a class, every message is
 * one a person can act on. Errors cross IPC/WebSocket as `{ code, message }` and are rebuilt here.
 */
type ErrorCode =
  | 'unknown_process'
  | 'invalid_argument'
  | 'spawn_failed'
  | 'not_running'
  | 'wrong_kind'
  | 'config_invalid'
  | 'bad_pattern'
  | 'too_many_waits'
  | 'stale_revision'
  | 'stale_prompt'
  | 'not_found'
  | 'unauthorized'
  | 'forbidden'
  | 'not_trusted'
  | 'timeout'
  | 'held'
  | 'internal';

export class SwitchboardError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'SwitchboardError';
  }
  toJSON(): SerializedError {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export interface SerializedError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export class UnknownProcessError extends SwitchboardError {
  constructor(id: string) {
    super('unknown_process', `Unknown process id "${id}". Call list_processes to see the ids.`);
  }
}

export class SpawnError extends SwitchboardError {
  constructor(
    message: string,
    readonly reason: 'command_not_found' | 'bad_cwd' | 'permission_denied' | 'other',
  ) {
    super('spawn_failed', message, { reason });
  }
}

export class NotRunningError extends SwitchboardError {
  constructor(id: string, name: string) {
    super('not_running', `Process "${name}" (${id}) is not running. Start it first.`);
  }
}

export class InvalidArgumentError extends SwitchboardError {
  constructor(message: string) {
    super('invalid_argument', message);
  }
}

/** The caller's token lacks a scope; the message names it and where it is granted. */
export class MissingScopeError extends SwitchboardError {
  constructor(scope: string, action: string) {
    super(
      'forbidden',
      `Missing scope "${scope}": ${action}. A person grants it in switchboard.json ("mcp": {"scopes": ["${scope}"]} on your entry) or in the Switchboard UI.`,
      { missing_scope: scope },
    );
  }
}

/** A config entry that waits for the user's trust cannot run. */
export class NotTrustedError extends SwitchboardError {
  constructor(key: string, commandLine: string) {
    super(
      'not_trusted',
      `${key} (${commandLine}) is not trusted yet: switchboard.json defines or changed it since it was trusted. A person trusts it in the Switchboard UI (or \`serve --trust\`).`,
      { key },
    );
  }
}

export function toSerializedError(err: unknown): SerializedError {
  if (err instanceof SwitchboardError) return err.toJSON();
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}

export function fromSerializedError(e: SerializedError): SwitchboardError {
  return new SwitchboardError(e.code, e.message, e.details);
}

/** Schema problems as one line: each named by its path (`whole` for the value itself), `; `-separated. */
export function formatZodIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[], whole = ''): string {
  return issues.map((i) => `${i.path.join('.') || whole}: ${i.message}`).join('; ');
}
