import { USAGE } from '@catalogue/admin';
import { runNodeScript } from '@catalogue/testing';
import { cli, json, expectFailure, sha256, uniqueName, eshopsNamed, storedTokens } from './cli-fixtures';

describe('admin CLI: usage', () => {
  it('when no command is given, then the usage is printed and the exit code is 2', async () => {
    // Act
    const result = await cli();

    // Assert
    expect(result).toEqual({ code: 2, out: `${USAGE}\n`, err: '' });
  });

  it.each(['help', '--help', '-h'])(
    'when "%s" is asked, then the usage is printed with exit code 0',
    async (arg) => {
      // Act
      const result = await cli(arg);

      // Assert
      expect(result).toEqual({ code: 0, out: `${USAGE}\n`, err: '' });
    },
  );

  it.each([
    [['eshop', 'delete', '1'], 'eshop delete'],
    [['bogus'], 'bogus'],
    [['token'], 'token'],
  ])('when the command %j is unknown, then exit code 2 and the usage on err', async (argv, named) => {
    // Act
    const result = await cli(...argv);

    // Assert
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err).toBe(`error: unknown command "${named}"\n\n${USAGE}\n`);
  });

  it.each([
    [
      ['eshop', 'create', '--help'],
      ['--name <name>', '--origin <url>', '--licence-until <YYYY-MM-DD>'],
    ],
    [
      ['eshop', 'set', '--help'],
      ['<ID>', '--rate-limit <requests-per-minute|default>'],
    ],
    [
      ['credit', 'topup', '-h'],
      ['<ID>', '<AMOUNT>', '--reason <text>'],
    ],
    [
      ['item', 'status', '--help'],
      ['<ID>', '<TYPE>', '<EXTERNAL_ID>', '<STATUS>'],
    ],
  ])(
    "when %j is asked, then that command's help is printed with exit code 0 and nothing runs",
    async (argv, lines) => {
      // Act
      const result = await cli(...argv);

      // Assert
      expect(result.code).toBe(0);
      expect(result.err).toBe('');
      expect(result.out).toMatch(new RegExp(`^Usage: admin ${argv[0]} ${argv[1]} `));
      for (const line of lines) expect(result.out).toContain(line);
    },
  );

  it('when a command gets an option it does not know, then exit code 1, the option is named and nothing runs', async () => {
    // Act
    const result = await cli('eshop', 'create', '--name', 'Never made', '--colour', 'red');

    // Assert
    expectFailure(result, 1, /^error: unknown option '--colour'\n/);
    expect(json(await cli('eshop', 'list')).map((e: { name: string }) => e.name)).not.toContain('Never made');
  });

  it('when a command gets an unexpected argument, then exit code 1 and an error', async () => {
    // Act
    const result = await cli('eshop', 'list', 'extra');

    // Assert
    expectFailure(result, 1, /too many arguments for 'list'\. Expected 0 arguments but got 1/);
  });
});
describe('the compiled admin CLI', () => {
  const runAdmin = (...args: string[]) =>
    runNodeScript('libs/admin/dist/cli.js', args, { DATABASE_URL: process.env.TEST_DATABASE_URL });

  it('when run as a process, then create prints the tokens (exit 0) and a missing eshop exits 1 on stderr', async () => {
    // Arrange
    const name = uniqueName('Process shop');

    // Act
    const created = await runAdmin('eshop', 'create', '--name', name);
    const missing = await runAdmin('eshop', 'show', '999999');

    // Assert
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    const printed = JSON.parse(created.stdout);
    expect(printed).toEqual({
      id: expect.any(Number),
      api_token: expect.stringMatching(/^cat_/),
      white_label_token: expect.stringMatching(/^wl_/),
    });
    expect(await eshopsNamed(name)).toEqual([printed.id]);
    const [api] = await storedTokens('api_tokens', printed.id);
    expect(api?.token_hash).toBe(sha256(printed.api_token));

    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('error: eshop 999999 not found\n');
  });
});
describe('admin CLI: input past the column limits', () => {
  it('when an id is beyond the integer range, then exit code 1 and a clear error, not SQL', async () => {
    // Act
    const result = await cli('eshop', 'show', '3000000000');

    // Assert
    expectFailure(result, 1, 'error: ID must be a whole number from 1 to 2147483647 (got "3000000000")\n');
  });

  it('when an origin is longer than 255 characters, then it is refused and no eshop is created', async () => {
    // Arrange
    const name = uniqueName('long origin');
    const origin = `https://${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.test`;

    // Act
    const result = await cli('eshop', 'create', '--name', name, '--origin', origin);

    // Assert
    expectFailure(result, 1, /^error: not an origin/);
    expect(await eshopsNamed(name)).toEqual([]);
  });

  it('when --licence-until is empty on create, then it is refused instead of ignored', async () => {
    // Arrange
    const name = uniqueName('empty licence');

    // Act
    const result = await cli('eshop', 'create', '--name', name, '--licence-until', '');

    // Assert
    expectFailure(result, 1, 'error: not a date: "" (expected YYYY-MM-DD)\n');
    expect(await eshopsNamed(name)).toEqual([]);
  });
});
