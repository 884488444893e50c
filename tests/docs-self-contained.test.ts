// The repository explains itself: a newcomer who clones it finds everything it refers to inside
// it. No file cites documents kept outside the repository, every relative link of a Markdown file
// leads to a file that exists, and the README's queue table lists every queue with its consumer.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { QUEUE_NAMES, QUEUES } from '@catalogue/queue';
import { REPO_ROOT } from '@catalogue/testing';

/** Files tracked by git: what a clone has. */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(REPO_ROOT, file)));
}

const TEXT = /\.(ts|mts|mjs|js|json|md|ya?ml|tpl|sh|txt|html|css)$|(^|\/)(Dockerfile|run)$/;

/**
 * Ways the project once cited documents that live outside it (the specification's folder, a
 * design document and a conventions file beside the repository, the team's guide). Written in
 * pieces so that this file does not match itself.
 */
const OUTSIDE = [
  ['\\.\\.', '/shared'],
  ['DESIGN', '\\.md'],
  ['CONVENTIONS', '\\.md'],
  ["developers'", ' guide'],
  ["design's", ' scale-out'],
].map((parts) => new RegExp(parts.join(''), 'i'));

describe('the repository stands on its own', () => {
  const files = trackedFiles().filter((file) => TEXT.test(file));

  test('when every tracked text file is read, then none cites a document outside the repository', () => {
    const found = files.flatMap((file) => {
      const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
      return lines.flatMap((line, i) =>
        OUTSIDE.filter((pattern) => pattern.test(line)).map(() => `${file}:${i + 1}: ${line.trim()}`),
      );
    });

    expect(found).toEqual([]);
  });

  test('when a Markdown file links to a relative path, then that file exists in the repository', () => {
    const broken = files
      .filter((file) => file.endsWith('.md'))
      .flatMap((file) => {
        const text = readFileSync(join(REPO_ROOT, file), 'utf8');
        return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
          .map((match) => match[1]!)
          .filter((target) => !/^[a-z]+:|^#/i.test(target))
          .map((target) => target.split('#')[0]!)
          .filter((target) => !existsSync(join(REPO_ROOT, dirname(file), target)))
          .map((target) => `${file} → ${target}`);
      });

    expect(broken).toEqual([]);
  });

  test('when the README lists the queues, then every queue appears with the service that consumes it', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const rows = new Map(
      [...readme.matchAll(/^\| `([a-z-]+)` \| ([a-z-]+) \|/gm)].map((match) => [match[1]!, match[2]!]),
    );

    expect(QUEUE_NAMES.map((queue) => [queue, rows.get(queue)])).toEqual(
      QUEUE_NAMES.map((queue) => [queue, QUEUES[queue].consumer]),
    );
  });
});
