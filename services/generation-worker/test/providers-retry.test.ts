// The providers' retry rules (src/providers/retry.ts) on their own: which failures are retried,
// the waits between attempts (backoff, Retry-After, both capped) and when the attempts stop.
// The openai provider's tests (providers-openai*.test.ts) show the same through nock.
import {
  retryableStatus,
  retryAfterMs,
  waitAfter,
  withRetries,
  type Attempt,
  type Failure,
} from '../src/providers/retry';

const failure = (overrides: Partial<Failure> = {}): Failure => ({
  ok: false,
  reason: 'HTTP 503: busy',
  status: 503,
  retryable: true,
  ...overrides,
});

/** An attempt that answers `outcomes` in turn and counts its calls. */
function scripted<T>(outcomes: Array<Attempt<T>>) {
  let calls = 0;
  return {
    attempt: () => Promise.resolve(outcomes[Math.min(calls++, outcomes.length - 1)]!),
    calls: () => calls,
  };
}

const hooks = (signal?: AbortSignal) => ({
  label: 'test provider',
  fail: (message: string, status: number | undefined) => Object.assign(new Error(message), { status }),
  aborted: () => new Error('aborted'),
  signal,
});

const fast = { maxAttempts: 4, backoffMs: 1, maxBackoffMs: 5 };

describe('provider retries', () => {
  test('when a status is 429, 408 or 5xx, then it is retried; other 4xx are not', () => {
    expect([429, 408, 500, 502, 503, 504].map(retryableStatus)).toEqual([true, true, true, true, true, true]);
    expect([400, 401, 403, 404, 422].map(retryableStatus)).toEqual([false, false, false, false, false]);
  });

  test('when the endpoint sends Retry-After (ms, seconds or a date), then that is the wait asked for', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(retryAfterMs(new Headers(), now)).toBeNull();
  });

  test('when waits are computed, then the backoff doubles up to the cap, jittered from half to whole, and Retry-After is capped too', () => {
    const policy = { maxAttempts: 9, backoffMs: 1000, maxBackoffMs: 30_000 };
    const low = { ...policy, random: () => 0 };
    const high = { ...policy, random: () => 1 };
    expect([1, 2, 3, 6].map((n) => waitAfter(failure(), n, high))).toEqual([1000, 2000, 4000, 30_000]);
    expect([1, 2, 3, 6].map((n) => waitAfter(failure(), n, low))).toEqual([500, 1000, 2000, 15_000]);
    expect(waitAfter(failure({ retryAfterMs: 7000 }), 1, low)).toBe(7000);
    expect(waitAfter(failure({ retryAfterMs: 120_000 }), 1, low)).toBe(30_000);
  });

  test('when attempts fail with retryable failures, then it tries maxAttempts times and gives up with the last reason and status', async () => {
    const run = scripted<string>([
      failure(),
      failure(),
      failure({ reason: 'HTTP 502: gateway', status: 502 }),
    ]);
    await expect(withRetries(run.attempt, { ...fast, maxAttempts: 3 }, hooks())).rejects.toMatchObject({
      message: 'test provider gave up after 3 attempts: HTTP 502: gateway',
      status: 502,
    });
    expect(run.calls()).toBe(3);
  });

  test('when an attempt succeeds after failures, then its value is returned', async () => {
    const run = scripted<string>([failure(), { ok: true, value: 'done' }]);
    await expect(withRetries(run.attempt, fast, hooks())).resolves.toBe('done');
    expect(run.calls()).toBe(2);
  });

  test('when a failure is not retryable, then it stops at once with that reason', async () => {
    const run = scripted<string>([failure({ reason: 'HTTP 401: bad key', status: 401, retryable: false })]);
    await expect(withRetries(run.attempt, fast, hooks())).rejects.toMatchObject({
      message: 'test provider: HTTP 401: bad key',
      status: 401,
    });
    expect(run.calls()).toBe(1);
  });

  test('when two answers are malformed, then it stops after the second even with attempts left', async () => {
    const bad = failure({ reason: 'malformed answer: no JSON', status: undefined, malformed: true });
    const run = scripted<string>([bad, failure(), bad]);
    await expect(withRetries(run.attempt, fast, hooks())).rejects.toThrow(
      'test provider: malformed answer: no JSON (twice)',
    );
    expect(run.calls()).toBe(3);
  });

  test('when maxAttempts is below 1, then one attempt is still made', async () => {
    const run = scripted<string>([failure()]);
    await expect(withRetries(run.attempt, { ...fast, maxAttempts: 0 }, hooks())).rejects.toThrow(
      'test provider gave up after 1 attempt: HTTP 503: busy',
    );
    expect(run.calls()).toBe(1);
  });

  test('when the signal aborts during a wait, then the abort error is thrown and no further attempt is made', async () => {
    const controller = new AbortController();
    const run = scripted<string>([failure({ retryAfterMs: 10_000 })]);
    const started = Date.now();
    const result = withRetries(run.attempt, { ...fast, maxBackoffMs: 10_000 }, hooks(controller.signal));
    setTimeout(() => controller.abort(), 20); // while the 10 s wait runs
    await expect(result).rejects.toThrow('aborted');
    expect(run.calls()).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000); // the 10 s wait was cut short
  });
});
