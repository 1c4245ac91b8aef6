/**
 * Who is calling: the app token (the UI, agents started elsewhere, people) and one token per
 * process entry, handed to its runs in SWITCHBOARD_MCP_TOKEN. A per-process token identifies its
 * entry; the two kinds are distinct so an agent can never pass as the app or as another entry.
 */
import { generateToken, tokensEqual } from '../security';

export type Caller =
  /** A holder of the app token: the UI or a client started outside Switchboard. */
  | { kind: 'external' }
  /** A process Switchboard spawned, identified by its own token. */
  | { kind: 'process'; processId: string };

export class IdentityRegistry {
  readonly appToken: string;
  /** token → entry id. Looked up by hashing the candidate, so lookups stay constant-time per token. */
  private readonly byProcess = new Map<string, string>();

  constructor(appToken: string = generateToken()) {
    this.appToken = appToken;
  }

  /** The entry's current token (issued on first use); `issue` replaces it at each run. */
  tokenFor(processId: string): string {
    return this.byProcess.get(processId) ?? this.issue(processId);
  }

  /**
   * A fresh token for a new run of the entry; the previous one stops working at once (401), so a
   * token that leaked from an old run, or a child the old run left behind, can no longer call.
   */
  issue(processId: string): string {
    const token = generateToken();
    this.byProcess.set(processId, token);
    return token;
  }

  /** Forget an entry's token (the entry was closed): its leftover processes can no longer call. */
  revoke(processId: string): void {
    this.byProcess.delete(processId);
  }

  /**
   * The caller a bearer token stands for, or undefined. Every known token is compared in constant
   * time (no early exit), so timing does not reveal which one matched or how many exist.
   */
  resolve(token: string | undefined): Caller | undefined {
    if (!token) return undefined;
    let caller: Caller | undefined = tokensEqual(token, this.appToken) ? { kind: 'external' } : undefined;
    for (const [processId, processToken] of this.byProcess) {
      if (tokensEqual(token, processToken)) caller = { kind: 'process', processId };
    }
    return caller;
  }
}

export function callerKey(caller: Caller): string {
  return caller.kind === 'process' ? caller.processId : 'external';
}
