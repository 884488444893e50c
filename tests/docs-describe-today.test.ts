// Documents describe the project as it is today. A document, a code comment or a test name that
// names a tracker issue ("issue 12", "#12", "part 6 of issue …") or tells how the work was done
// (other engineers, what else ran on the machine, who ran a build) says nothing a reader of the
// code can use and soon says something false: git's history keeps the story, the files keep what
// holds. This test reads every tracked Markdown, YAML, TypeScript, JavaScript and shell file and
// fails on such wording, naming the file and line.
//
// Fixing a hit: say what the text means without the tracker or the story ("issue 12's
// reproduction" → "the reproduction: a field outside the write contract …"; "(issue 33)" → drop
// it; "measured while three other test suites ran" → the load average the run recorded). A
// reference to another project's bug tracker is a link to it, e.g.
// https://github.com/redis/ioredis/issues/1362, or GitHub's owner/repo#N form (npm/cli#9846),
// which no pattern below matches.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@catalogue/testing';

/** Files tracked by git: what a clone has. */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(REPO_ROOT, file)));
}

/** Prose and code whose comments and test names are read by people. */
const CHECKED = /\.(md|ya?ml|tpl|ts|mts|mjs|js|sh)$|(^|\/)(Dockerfile|run)$/;

/** This file: it has to spell the patterns out. */
const SELF = 'tests/docs-describe-today.test.ts';

/** Wording that names a tracker issue. */
const TRACKER: [string, RegExp][] = [
  ['an issue number', /\bissues?\s*#?\d+/i],
  // "#12" in prose; not an HTML entity (&#39;), a colour (#000; #111827) or a URL fragment.
  ['a "#number" reference', /(^|[\s([])#\d{1,4}(?![\w;])/],
  ['a part of an issue', /\b(part|item|goal|fault|slice|half|step)\s+\d+\s+of\s+(the\s+)?issue\b/i],
  ['an issue by its title', /\bissue\s+["“][^"”]+["”]/i],
];

/** Wording about the work around the project rather than the project. */
const AROUND: [string, RegExp][] = [
  ['other people working', /\bother\s+(engineers?|sessions|helpers|teams)\b/i],
  ['a session or helper as a worker', /\b(sessions|helpers|engineers)'\s/i],
  [
    'a count of sessions or helpers',
    /\b(two|three|four|five|six|seven|eight|nine|ten|several|many|\d+)\s+(helpers|sessions)\b(?!\s+(of|hold|holding|wait|waiting|that|which|per))/i,
  ],
  ['this session', /\bthis\s+session\b/i],
  ['who ran something', /\bwho\s+ran\b/i],
  ['what else ran', /\bwhat\s+else\s+(ran|was\s+running)\b/i],
  ['the machine at the time', /\bon\s+the\s+machine\s+at\s+the\s+time\b/i],
  ['a pull request of the project', /\bthis\s+(PR|pull request)\b/i],
  ['a dated merge', /\bafter\s+the\s+merges?\s+of\b/i],
];

/** Lines of a file that people read: all of a document; comments and test names of code. */
function readLines(file: string): { line: number; text: string }[] {
  const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
  const numbered = lines.map((text, i) => ({ line: i + 1, text }));
  if (/\.(md|ya?ml|tpl)$/.test(file)) return numbered;
  const shell = /\.sh$|(^|\/)(Dockerfile|run)$/.test(file);
  let inBlock = false;
  return numbered.flatMap(({ line, text }) => {
    if (shell) {
      const at = text.search(/(^|\s)#/);
      return at === -1 ? [] : [{ line, text: text.slice(at) }];
    }
    const parts: string[] = [];
    if (inBlock || /^\s*(\/\*|\*)/.test(text)) parts.push(text);
    if (text.includes('/*')) inBlock = true;
    if (text.includes('*/')) inBlock = false;
    const comment = text.search(/(^|[^:])\/\//);
    if (comment !== -1) parts.push(text.slice(comment));
    if (/\b(test|it|describe)(\.each\(.*\))?\(\s*['"`]/.test(text)) parts.push(text);
    return parts.length === 0 ? [] : [{ line, text: parts.join(' ') }];
  });
}

describe('documents describe the project today', () => {
  const files = trackedFiles().filter((file) => CHECKED.test(file) && file !== SELF);

  /** A line read with the next one, so that wording wrapped over two lines is caught once. */
  function hits(patterns: [string, RegExp][]): string[] {
    return files.flatMap((file) => {
      const lines = readLines(file);
      return lines.flatMap(({ line, text }, i) => {
        const next = lines[i + 1]?.line === line + 1 ? lines[i + 1]!.text : '';
        const joined = `${text} ${next.replace(/^\s*(\/\/|\*|#)?\s*/, '')}`;
        return patterns
          .filter(([, pattern]) => pattern.test(text) || (pattern.test(joined) && !pattern.test(next)))
          .map(([what]) => `${file}:${line}: ${what}: ${text.trim().slice(0, 160)}`);
      });
    });
  }

  test('when every document, code comment and test name is read, then none names a tracker issue', () => {
    expect(hits(TRACKER)).toEqual([]);
  });

  test('when every document, code comment and test name is read, then none tells of the work around the project', () => {
    expect(hits(AROUND)).toEqual([]);
  });

  test('when the patterns read legitimate wording, then they pass it and catch the diary wording', () => {
    const legit = [
      'an HTTP session cookie',
      'hold a session-level advisory lock for their whole run',
      'Sessions waiting for a lock this transaction holds',
      'two sessions hold the lock',
      "import { serve } from './helpers';",
      'test helpers: database, Redis, served apps',
      'color: #111827; border: 1px solid #000;',
      "'&#39;' is an apostrophe",
      'see https://github.com/redis/ioredis/issues/1362',
      'a bug of npm (npm/cli#9846)',
    ];
    const diary = [
      'as issue 12 asked',
      'Issue #40',
      'fixed in #40.',
      'part 6 of issue 33',
      'the issue "Events" first slice',
      'measured while other engineers ran their tests',
      "three helpers' test suites running too",
      'shared by five sessions',
      'what else ran on the machine',
      'who ran the build',
      'on the machine at the time',
      'this PR adds',
      'After the merges of 2026-11-25',
    ];
    const all = [...TRACKER, ...AROUND].map(([, pattern]) => pattern);
    expect(legit.filter((text) => all.some((pattern) => pattern.test(text)))).toEqual([]);
    expect(diary.filter((text) => !all.some((pattern) => pattern.test(text)))).toEqual([]);
  });
});
