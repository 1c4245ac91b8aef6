/**
 * What a turn that ended on an error leaves the agent in, from the CLI's own report of the error
 * (a TurnError hook: the HTTP status the API answered and the CLI's name for the error), before
 * its screen has drawn it. The details agree with the screen rules that read the same error once
 * drawn, so the status does not change when the screen catches up. docs/agent-status.md,
 * "A turn that ended on an error".
 */
import type { AgentHookEvent, BlockedDetail } from '../../../shared/status';

interface TurnErrorRule {
  detail: BlockedDetail;
  statusCodes?: readonly number[];
  errorNames?: readonly string[];
  /** A real report (the hook's fields as the CLI sent them) and where it was seen. */
  sample: Pick<AgentHookEvent, 'statusCode' | 'errorName' | 'message'>;
  source: string;
}

/** First match wins; any other error the turn ended on is `api_error`. */
const TURN_ERROR_RULES: readonly TurnErrorRule[] = [
  {
    // The screen's `opencode/api-key-refused`.
    detail: 'login',
    statusCodes: [401, 403],
    errorNames: ['ProviderAuthError'],
    sample: {
      statusCode: 401,
      errorName: 'APIError',
      message:
        'Incorrect API key provided: sk-mock-********************0000. You can find your API key at https://platform.openai.com/account/api-keys.',
    },
    source: "opencode 1.18.33 status plugin, session.error for the mock's 401 invalid_api_key (2026-11-28)",
  },
];

const ANY_ERROR: TurnErrorRule = {
  // The screen's `opencode/api-error-gave-up`: any error block that ended the turn.
  detail: 'api_error',
  sample: { statusCode: 500, errorName: 'APIError', message: 'The server had an error while processing your request. Sorry about that!' },
  source: "opencode 1.18.33 status plugin, session.error after five retries of the mock's 500 server_error (2026-11-28)",
};

export function turnErrorDetail(e: Pick<AgentHookEvent, 'statusCode' | 'errorName'>): BlockedDetail {
  const matches = (r: TurnErrorRule) =>
    (e.statusCode !== undefined && r.statusCodes?.includes(e.statusCode)) ||
    (e.errorName !== undefined && r.errorNames?.includes(e.errorName));
  return (TURN_ERROR_RULES.find(matches) ?? ANY_ERROR).detail;
}

/** Every rule with its sample, for the test that each sample reads as its own rule. */
export const TURN_ERROR_SAMPLES: readonly { detail: BlockedDetail; sample: TurnErrorRule['sample'] }[] = [...TURN_ERROR_RULES, ANY_ERROR];
