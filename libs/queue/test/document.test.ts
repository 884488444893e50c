// The chart's queue lists and the README's queue table are generated from QUEUES
// (`npm run gen:queues`); `npm run lint` runs the same comparison (scripts/gen-queues.mjs --check).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderQueueFiles, type QueueFiles } from '@catalogue/queue';
import { REPO_ROOT } from '@catalogue/testing';

const FILES: Record<keyof QueueFiles, string> = {
  helpers: join(REPO_ROOT, 'helm/catalogue-content/templates/_helpers.tpl'),
  readme: join(REPO_ROOT, 'README.md'),
};

describe("the chart's queue lists and the README's queue table", () => {
  test('when generated again from QUEUES, then the committed files are the same (else: npm run gen:queues)', () => {
    const current: QueueFiles = {
      helpers: readFileSync(FILES.helpers, 'utf8'),
      readme: readFileSync(FILES.readme, 'utf8'),
    };
    expect(renderQueueFiles(current)).toEqual(current);
  });

  test('when a generated block is missing, then generating fails instead of writing a file without it', () => {
    const current: QueueFiles = { helpers: readFileSync(FILES.helpers, 'utf8'), readme: 'no table here\n' };
    expect(() => renderQueueFiles(current)).toThrow(/README.md has no/);
  });
});
