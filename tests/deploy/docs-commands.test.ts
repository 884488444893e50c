// The operator's documentation, run as written: every helm command of a shell block in the
// README, the runbook and the chart's README is rendered and linted with exactly its values;
// every other command is marked, with a reason, as one that needs what a test cannot have
// (a registry, a cluster, a running stack). Documentation then cannot drift from the chart.
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '@catalogue/testing';
import { leastPrivilegeErrors, parseObjects, schemaErrors } from './chart';
import {
  docBlocks,
  docCommands,
  isRenderedHelm,
  isStackBlock,
  markedNotRun,
  shellWords,
  templateArgs,
  valuesArgs,
  type DocBlock,
} from './docs-commands';
import { layerBinary, run } from './tools';

const DOCS = ['README.md', 'deploy/README.md', 'helm/catalogue-content/README.md'].map((f) =>
  join(REPO_ROOT, f),
);
const SHELL = new Set(['sh', 'bash', 'shell', 'console']);
const HELM_TIMEOUT_MS = 180_000;

const blocks: DocBlock[] = DOCS.flatMap(docBlocks);
const shellBlocks = blocks.filter((b) => SHELL.has(b.lang));
const where = (b: DocBlock): string => `${b.file.slice(REPO_ROOT.length + 1)}:${b.line}`;

let valuesDir: string;
const files: Record<string, string> = {};
beforeAll(() => {
  valuesDir = mkdtempSync(join(tmpdir(), 'doc-values-'));
  for (const b of blocks.filter((x) => x.fileName)) {
    files[b.fileName!] = join(valuesDir, b.fileName!);
    writeFileSync(files[b.fileName!]!, b.text);
  }
});
afterAll(() => rmSync(valuesDir, { recursive: true, force: true }));

describe('shell blocks of the operator documentation', () => {
  test('when read, then the three documents have shell blocks with helm commands to run', () => {
    expect(shellBlocks.length).toBeGreaterThan(10);
    expect(shellBlocks.flatMap(docCommands).filter(isRenderedHelm).length).toBeGreaterThanOrEqual(4);
  });

  test('when a command is neither a helm render, nor in a block run against the test stack, nor marked not-run with a reason, then it is named', () => {
    const unaccounted = shellBlocks
      .filter((b) => !isStackBlock(b))
      .flatMap((b) =>
        docCommands(b)
          .filter((c) => !isRenderedHelm(c) && !markedNotRun(c))
          .map((c) => `${where(b)}: ${c.source}`),
      );
    expect(unaccounted).toEqual([]);
    const reasonless = shellBlocks.filter((b) => b.notRun && !b.notRun.reason).map(where);
    expect(reasonless).toEqual([]);
  });

  test('when a not-run marker names a program its block does not use, then it is named (no stale marker)', () => {
    const stale = shellBlocks.flatMap((b) =>
      (b.notRun?.programs ?? [])
        .filter((p) => p !== '*')
        .filter(
          (p) =>
            !docCommands({ ...b, notRun: { programs: [p], reason: 'x' } }).some(
              (c) => markedNotRun(c) && !isRenderedHelm(c),
            ),
        )
        .map((p) => `${where(b)}: ${p}`),
    );
    expect(stale).toEqual([]);
  });

  test('when a documented values file is named, then a helm command reads it', () => {
    const read = shellBlocks.flatMap(docCommands).flatMap((c) => c.words);
    for (const name of Object.keys(files)) expect(read).toContain(name);
  });

  test(
    'when each documented helm install, upgrade or template runs with its own values, then the chart renders valid objects and lints strictly',
    async () => {
      const helm = layerBinary('helm');
      const failures: string[] = [];
      for (const command of shellBlocks.flatMap(docCommands).filter(isRenderedHelm)) {
        const label = `${where(command.block)}: ${command.source}`;
        const args = command.words[1] === 'lint' ? command.words.slice(1) : templateArgs(command, files);
        const result = await run(helm, args);
        if (result.code !== 0) {
          failures.push(`${label}\n  ${result.stderr.trim()}`);
          continue;
        }
        if (command.words[1] !== 'lint') {
          const objects = parseObjects(result.stdout);
          const errors = [...schemaErrors(objects), ...leastPrivilegeErrors(objects)];
          if (errors.length) failures.push(`${label}\n  ${errors.join('\n  ')}`);
          const chart = args[2]!;
          const lint = await run(helm, ['lint', '--strict', chart, ...valuesArgs(args.slice(3))]);
          if (lint.code !== 0) failures.push(`${label} (lint)\n  ${lint.stdout.trim()}`);
        }
      }
      expect(failures).toEqual([]);
    },
    HELM_TIMEOUT_MS,
  );
});

describe('the operator documentation stands on its own', () => {
  test('when it links a file of the repository, then the file exists', () => {
    const missing = DOCS.flatMap((doc) =>
      [...readFileSync(doc, 'utf8').matchAll(/\]\(([^)#:\s]+)(#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !existsSync(resolve(dirname(doc), target)))
        .map((target) => `${doc.slice(REPO_ROOT.length + 1)}: ${target}`),
    );
    expect(missing).toEqual([]);
  });

  test('when read, then it sends the reader to no design document or notes outside the project', () => {
    const outside = DOCS.flatMap((doc) =>
      readFileSync(doc, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, n: i + 1 }))
        .filter(({ line }) =>
          /\bthe (design|spec(ification)?)('s)? [\w -]*notes\b|\bscale-out notes\b/i.test(line),
        )
        .map(({ n }) => `${doc.slice(REPO_ROOT.length + 1)}:${n}`),
    );
    expect(outside).toEqual([]);
  });
});

describe('reading the shell blocks', () => {
  test('when a block is marked, then its programs, reason and file name are read from the comment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'doc-blocks-'));
    const doc = join(dir, 'doc.md');
    writeFileSync(
      doc,
      [
        '<!-- not-run: kubectl, helm test (needs a cluster) -->',
        '```sh',
        'helm upgrade --install r helm/c -n ns \\',
        "  --set 'a.b[0].c=x y' -f my.yaml   # comment",
        'kubectl get pods && helm test r',
        '```',
        '<!-- file: my.yaml -->',
        '   ```yaml',
        '   a: 1',
        '   ```',
      ].join('\n'),
    );
    const [sh, yaml] = docBlocks(doc);
    rmSync(dir, { recursive: true });
    expect(sh!.notRun).toEqual({ programs: ['kubectl', 'helm test'], reason: 'needs a cluster' });
    expect(yaml).toMatchObject({ lang: 'yaml', text: 'a: 1', fileName: 'my.yaml' });
    const commands = docCommands(sh!);
    expect(commands.map((c) => c.words)).toEqual([
      ['helm', 'upgrade', '--install', 'r', 'helm/c', '-n', 'ns', '--set', 'a.b[0].c=x y', '-f', 'my.yaml'],
      ['kubectl', 'get', 'pods'],
      ['helm', 'test', 'r'],
    ]);
    expect(commands.map((c) => [isRenderedHelm(c), markedNotRun(c)])).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
    expect(templateArgs(commands[0]!, { 'my.yaml': '/tmp/x/my.yaml' })).toEqual([
      'template',
      'r',
      'helm/c',
      '-n',
      'ns',
      '--set',
      'a.b[0].c=x y',
      '-f',
      '/tmp/x/my.yaml',
    ]);
    expect(shellWords(`curl -H "A: \\"b\\"" 'x#y' # c`)).toEqual([['curl', '-H', 'A: "b"', 'x#y']]);
  });
});
