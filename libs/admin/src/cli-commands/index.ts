// The operators' admin CLI on commander: one module per command group, the top-level usage
// generated from the commands themselves (so a new command or option cannot be missing from it).
import { Command, CommanderError, type Argument, type Help } from 'commander';
import { AdminError, type AdminService } from '../admin.service';
import { authCacheCommands } from './auth-cache';
import { batchCommands } from './batch';
import { creditCommands } from './credit';
import { eshopCommands } from './eshop';
import { itemCommands } from './item';
import { type Answer, type CommandGroup } from './options';
import { originCommands } from './origin';
import { tokenCommands } from './token';
import { webhookCommands } from './webhook';

const GROUPS: readonly CommandGroup[] = [
  eshopCommands,
  tokenCommands,
  originCommands,
  authCacheCommands,
  creditCommands,
  batchCommands,
  itemCommands,
  webhookCommands,
];

/**
 * The commands, on commander: each has its own `--help` (usage, arguments, options), unknown
 * options and missing or excess arguments are refused before anything runs, and the action
 * hands its result to `answer`.
 */
function adminProgram(admin: () => AdminService, answer: Answer): Command {
  const program = new Command('admin').description('Operate eshops, tokens, origins, credits and items.');
  for (const group of GROUPS) group(program, admin, answer);
  return program;
}

/** An option as the usage shows it: `--name <name>`, bracketed unless its description says it is required. */
function optionWords(help: Help, command: Command): string[] {
  return help
    .visibleOptions(command)
    .filter((option) => option.long !== '--help')
    .map((option) => {
      const term =
        option.flags.replace(/^-\w, /, '') +
        (option.variadic || option.defaultValue instanceof Array ? '...' : '');
      return option.mandatory || /\(required\)/.test(option.description) ? term : `[${term}]`;
    });
}

/** An argument as the usage shows it: its choices when it has a few (`product|category`), bracketed when optional. */
function argumentWord(argument: Argument): string {
  const word = /^[\w.-]+(\|[\w.-]+)+$/.test(argument.description) ? argument.description : argument.name();
  return argument.required ? word : `[${word}]`;
}

/** Words after `indent`, wrapped before `width` columns with continuation lines under the first option. */
function wrap(first: string, words: string[], width = 100): string {
  const lines = [first];
  const hang = ' '.repeat(Math.min(first.length + 1, 20));
  for (const word of words) {
    const last = lines[lines.length - 1]!;
    if (last.length + 1 + word.length > width && last.trim() !== '') lines.push(`${hang}${word}`);
    else lines[lines.length - 1] = `${last} ${word}`;
  }
  return lines.join('\n');
}

/** The top-level usage: every command with its arguments and options, from the program itself. */
function usageOf(program: Command): string {
  const help = program.createHelp();
  const lines = program.commands.flatMap((group) =>
    group.commands.map((command) => {
      const args = help.visibleArguments(command).map(argumentWord);
      return wrap(`  ${group.name()} ${command.name()}`, [...args, ...optionWords(help, command)]);
    }),
  );
  return [
    'Usage: npm run --silent admin -- <command>',
    '',
    ...lines,
    '',
    'Each command explains itself with --help. Prints JSON on stdout; errors go to stderr with a non-zero exit code.',
  ].join('\n');
}

export const USAGE = usageOf(
  adminProgram(
    () => {
      throw new Error('the usage runs no command');
    },
    () => undefined,
  ),
);

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** `group action` of every command, for the unknown-command answer with the whole usage. */
function commandNames(program: Command): Set<string> {
  return new Set(
    program.commands.flatMap((group) => group.commands.map((c) => `${group.name()} ${c.name()}`)),
  );
}

/** Runs one admin command; returns the process exit code (0 ok, 1 failed, 2 usage). */
export async function runCli(argv: string[], admin: () => AdminService, io: CliIo): Promise<number> {
  const [group, action] = argv;
  if (!group || group === 'help' || group === '--help' || group === '-h') {
    io.out(`${USAGE}\n`);
    return group ? 0 : 2;
  }
  let result: unknown;
  const program = adminProgram(admin, (value) => (result = value));
  if (!commandNames(program).has(`${group} ${action ?? ''}`)) {
    io.err(`error: unknown command "${[group, action].filter(Boolean).join(' ')}"\n\n${USAGE}\n`);
    return 2;
  }
  program.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  for (const command of program.commands.flatMap((g) => [g, ...g.commands])) {
    command.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    // Commander has printed its message (or the help) already.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 1;
    if (err instanceof AdminError) {
      io.err(`error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  io.out(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}
