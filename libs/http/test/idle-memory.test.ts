import { getHeapSpaceStatistics } from 'node:v8';
import { createLogger } from '@catalogue/logger';
import { lastResortCollection, releaseMemoryWhenIdle } from '../src/idle-memory';

const MiB = 1024 * 1024;
const logger = createLogger({ service: 'test', level: 'silent' });

/** A releaser on a fake heap and event loop, checked by hand (jest's fake timers). */
function fixture() {
  const state = { total: 300 * MiB, used: 60 * MiB, busy: 0.01, collections: 0 };
  const stop = releaseMemoryWhenIdle({
    logger,
    checkMs: 1_000,
    heap: () => ({ total: state.total, used: state.used }),
    utilization: () => state.busy,
    collect: () => {
      state.collections++;
      state.total = 40 * MiB;
      state.used = 30 * MiB;
    },
  });
  return { state, stop };
}

describe('releaseMemoryWhenIdle', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('collects once the event loop was idle for a whole check', () => {
    const { state, stop } = fixture();
    state.busy = 0.6;
    jest.advanceTimersByTime(3_000);
    expect(state.collections).toBe(0);
    state.busy = 0.01;
    jest.advanceTimersByTime(1_000);
    expect(state.collections).toBe(1);
    stop();
  });

  it('does not collect again while idle until a new burst has grown the heap', () => {
    const { state, stop } = fixture();
    jest.advanceTimersByTime(1_000);
    expect(state.collections).toBe(1);
    // Idle, the heap a little above what the collection left: no collection every check.
    state.total = 70 * MiB;
    state.used = 65 * MiB;
    jest.advanceTimersByTime(10_000);
    expect(state.collections).toBe(1);
    // A new burst: committed 32 MiB or more above what the last collection left.
    state.total = 72 * MiB;
    jest.advanceTimersByTime(1_000);
    expect(state.collections).toBe(2);
    stop();
  });

  it('counts dead objects as nothing: an idle heap full of garbage is collected', () => {
    const { state, stop } = fixture();
    // As the API a minute after the list load: 150 of 177 MiB "in use", none of it collected.
    state.total = 177 * MiB;
    state.used = 150 * MiB;
    jest.advanceTimersByTime(1_000);
    expect(state.collections).toBe(1);
    stop();
  });

  it('stops checking when stopped', () => {
    const { state, stop } = fixture();
    stop();
    jest.advanceTimersByTime(5_000);
    expect(state.collections).toBe(0);
  });
});

// The real collection: a burst of short-lived strings grows the young generation, which a
// plain collection would leave committed; this one gives it back.
it('the last-resort collection returns the young generation of a burst', () => {
  const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;
  const keep: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    keep.push(`${'x'.repeat(20_000)}${i}`);
    if (keep.length > 500) keep.length = 0;
  }
  keep.length = 0;
  const grown = newSpace();
  lastResortCollection()();
  expect(grown).toBeGreaterThan(8 * MiB);
  expect(newSpace()).toBeLessThan(grown / 4);
});
