import { describe, expect, it } from 'vitest';
import { TopLevelJsonSplitter, qwenApiRetryOf } from './qwenRetryRecords';

/** A retry record as Qwen Code 0.24.4 appended it to its telemetry outfile after a 429 from the mock API (resource trimmed). */
const RETRY_RECORD = JSON.stringify(
  {
    resource: { _rawAttributes: [['service.name', 'qwen-code']] },
    instrumentationScope: { name: 'qwen-code' },
    attributes: {
      'session.id': '0420a6ed-9ab5-403d-aa65-7e1492f185cd',
      'event.name': 'qwen-code.api_retry',
      'event.timestamp': '2026-11-28T10:04:52.238Z',
      model: 'switchboard-mock',
      prompt_id: '0420a6ed-9ab5-403d-aa65-7e1492f185cd########0',
      attempt_number: 1,
      error_type: 'RateLimitError',
      error_message: '429 Rate limit reached',
      status_code: 429,
      retry_delay_ms: 1705.8341815435542,
      duration_ms: 1705.8341815435542,
    },
    _hrTime: [1795860292, 238000000],
    _body: 'API retry attempt 1 for switchboard-mock (status 429).',
  },
  null,
  2,
);

/** Another record of the same file, whose text names the retry event without being one. */
const OTHER_RECORD = JSON.stringify(
  { attributes: { 'event.name': 'qwen-code.api_error', error_message: 'see qwen-code.api_retry {' } },
  null,
  2,
);

describe('Qwen Code telemetry records', () => {
  it('reads attempt, status, the rounded back-off and when it was logged from a retry record', () => {
    expect(qwenApiRetryOf(RETRY_RECORD)).toEqual({
      attempt: 1,
      statusCode: 429,
      delayMs: 1706,
      loggedAt: Date.parse('2026-11-28T10:04:52.238Z'),
    });
  });

  it('ignores other records and broken text', () => {
    expect(qwenApiRetryOf(OTHER_RECORD)).toBeUndefined();
    expect(qwenApiRetryOf('{"attributes": {"event.name": "qwen-code.api_retry"')).toBeUndefined();
    expect(qwenApiRetryOf('{"attributes": {"event.name": "qwen-code.api_retry", "attempt_number": 0}}')).toBeUndefined();
  });

  it('splits appended text into whole top-level objects, across chunks and past braces in strings', () => {
    const file = `${OTHER_RECORD}\n${RETRY_RECORD}\n`;
    const splitter = new TopLevelJsonSplitter();
    const cut = file.indexOf('attempt_number');
    const objects = [...splitter.push(file.slice(0, cut)), ...splitter.push(file.slice(cut))];
    expect(objects).toEqual([OTHER_RECORD, RETRY_RECORD]);
    expect(objects.map(qwenApiRetryOf).filter(Boolean)).toHaveLength(1);
  });
});
