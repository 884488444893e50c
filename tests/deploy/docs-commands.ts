// The shell blocks of the operator's documentation, taken apart into the commands an operator
// would paste, so that a test can run the ones it can (helm against the chart) and insist that
// every other one is marked, with a reason, as not run here.
//
// A block is preceded (on the line right before its fence) by
//   <!-- not-run: docker, kubectl, helm test (needs a registry and a cluster) -->
// naming the programs (or "program subcommand") it does not run and why, or `*` for a whole
// block; and a YAML block that a command reads as a file by
//   <!-- file: my-values.yaml -->
import { readFileSync } from 'node:fs';

export interface DocBlock {
  file: string;
  /** Line of the opening fence, 1-based. */
  line: number;
  lang: string;
  text: string;
  notRun?: { programs: string[]; reason: string };
  fileName?: string;
}

export interface DocCommand {
  block: DocBlock;
  /** The command's words, quotes removed (no variable expansion). */
  words: string[];
  source: string;
}

const FENCE = /^(\s*)```(\S*)\s*$/;

export function docBlocks(file: string): DocBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++) body.push(lines[j]!.slice(indent));
    const before = (lines[i - 1] ?? '').trim();
    const block: DocBlock = { file, line: i + 1, lang: open[2]!, text: body.join('\n') };
    const notRun = /^<!--\s*not-run:\s*(.*?)\s*\((.+)\)\s*-->$/.exec(before);
    if (notRun) {
      block.notRun = {
        programs: notRun[1]!
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
        reason: notRun[2]!.trim(),
      };
    }
    const named = /^<!--\s*file:\s*(\S+)\s*-->$/.exec(before);
    if (named) block.fileName = named[1]!;
    blocks.push(block);
    i = j;
  }
  return blocks;
}

/** Shell words of each command of a script (quotes, backslashes, comments and separators as sh reads them). */
export function shellWords(line: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | null = null;
  const push = () => {
    if (word !== null) commands[commands.length - 1]!.push(word);
    word = null;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let value = '';
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length) j++;
        value += line[j];
      }
      if (j >= line.length) throw new Error(`unclosed " in: ${line}`);
      word = (word ?? '') + value;
      i = j;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (c === '#' && word === null) {
      const end = line.indexOf('\n', i); // a comment, to the end of its line
      i = end < 0 ? line.length : end - 1;
    } else if (c === '\n') {
      push();
      commands.push([]);
    } else if (/\s/.test(c)) {
      push();
    } else if (c === ';' || c === '|' || c === '&') {
      push();
      if (line[i + 1] === c) i++;
      commands.push([]);
    } else {
      word = (word ?? '') + c;
    }
  }
  push();
  return commands.filter((words) => words.length > 0);
}

export function docCommands(block: DocBlock): DocCommand[] {
  return shellWords(block.text.replace(/\\\n/g, ' ')).map((words) => ({
    block,
    words,
    source: words.join(' '),
  }));
}

/** Whether the block's not-run marker covers the command ("kubectl", "helm test", "*"). */
export function markedNotRun(command: DocCommand): boolean {
  const programs = command.block.notRun?.programs ?? [];
  return programs.some((p) => p === '*' || p.split(/\s+/).every((w, i) => command.words[i] === w));
}

/** Helm subcommands that a test renders with the chart instead of sending to a cluster. */
const RENDERED = new Set(['install', 'upgrade', 'template', 'lint']);

export const isRenderedHelm = (command: DocCommand): boolean =>
  command.words[0] === 'helm' && RENDERED.has(command.words[1] ?? '');

/**
 * The `helm template` arguments of a documented `helm upgrade --install`, `helm install`,
 * `helm upgrade` or `helm template`: its release, chart and every flag, as written (helm
 * template takes the install flags, --wait and --timeout included). `files` maps the names of
 * documented values files to where the test wrote them.
 */
export function templateArgs(command: DocCommand, files: Record<string, string>): string[] {
  const rest = command.words.slice(2).filter((w) => w !== '--install');
  return [
    'template',
    ...rest.map((w, i) => (['-f', '--values'].includes(rest[i - 1] ?? '') && files[w] ? files[w]! : w)),
  ];
}

/** The values flags of a documented helm command (for `helm lint` with the same values). */
export function valuesArgs(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (['-f', '--values', '--set', '--set-string', '--set-json', '-n', '--namespace'].includes(a)) {
      out.push(a, args[++i]!);
    } else if (/^--(values|set|set-string|set-json|namespace)=/.test(a)) {
      out.push(a);
    }
  }
  return out;
}

/** Programs of the examples that tests/deploy/docs-run.test.ts runs against a test stack. */
const STACK_PROGRAMS = [/^curl$/, /^jq$/, /^[A-Za-z_][A-Za-z0-9_]*=/];

const isStackCommand = (c: DocCommand): boolean =>
  STACK_PROGRAMS.some((p) => p.test(c.words[0] ?? '')) ||
  c.words.slice(0, 5).join(' ') === 'npm run --silent admin --';

/**
 * A shell block that runs, as written, against the test stack (the services on the test's
 * database, reached at the documented localhost ports): no not-run marker, and only curl, the
 * admin CLI (`npm run --silent admin -- …`), jq and shell variables.
 */
export const isStackBlock = (block: DocBlock): boolean =>
  block.notRun === undefined && docCommands(block).length > 0 && docCommands(block).every(isStackCommand);
