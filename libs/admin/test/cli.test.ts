import { createHash, randomBytes } from 'node:crypto';
import { USAGE } from '@catalogue/admin';
import { tokensRepository } from '@catalogue/db';
import { cliHarness, type CliResult } from './cli-harness';
import { makeEshop, runNodeScript } from '@catalogue/testing';

const harness = cliHarness();
const { cli } = harness;

/** The JSON a successful command printed (and checks it succeeded cleanly). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the JSON shapes are asserted by each test
function json(result: CliResult): any {
  expect(result).toMatchObject({ code: 0, err: '' });
  expect(result.out.endsWith('\n')).toBe(true);
  return JSON.parse(result.out);
}

/** A failed command: the exit code, one error line on err, nothing on out. */
function expectFailure(result: CliResult, code: number, message: string | RegExp): void {
  expect(result.code).toBe(code);
  expect(result.out).toBe('');
  expect(result.err.startsWith('error: ')).toBe(true);
  expect(result.err).toMatch(message);
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const uniqueName = (label: string) => `${label} ${process.pid}-${randomBytes(4).toString('hex')}`;
/** An id no eshop of the test run has (the largest int4). */
const MISSING_ID = '2147483647';

interface StoredEshop {
  id: number;
  name: string;
  languages: string[];
  enable_site_link: boolean;
  enable_rich_snippet: boolean;
  review_required: boolean;
  licence: string | null;
}

function storedEshop(id: number): Promise<StoredEshop | undefined> {
  return harness
    .db('eshops')
    .select(
      'id',
      'name',
      'languages',
      'enable_site_link',
      'enable_rich_snippet',
      'review_required',
      harness.db.raw(`to_char(licence_valid_until, 'YYYY-MM-DD') as licence`),
    )
    .where({ id })
    .first();
}

async function eshopsNamed(name: string): Promise<number[]> {
  const rows = await harness.db('eshops').select<{ id: number }[]>('id').where({ name });
  return rows.map((r) => r.id);
}

async function storedOrigins(eshopId: number): Promise<string[]> {
  const rows = await harness
    .db('allowed_origins')
    .select<{ origin: string }[]>('origin')
    .where({ eshop_id: eshopId })
    .orderBy('origin');
  return rows.map((r) => r.origin);
}

interface StoredToken {
  id: number;
  token_hash: string;
  token_prefix: string;
  revoked_at: Date | null;
}

function storedTokens(table: 'api_tokens' | 'white_label_tokens', eshopId: number): Promise<StoredToken[]> {
  return harness
    .db(table)
    .select<StoredToken[]>('id', 'token_hash', 'token_prefix', 'revoked_at')
    .where({ eshop_id: eshopId })
    .orderBy('id');
}

async function storedBalance(eshopId: number): Promise<{ balance: number; reserved: number } | undefined> {
  return harness.db('credit_accounts').select('balance', 'reserved').where({ eshop_id: eshopId }).first();
}

function storedLedger(eshopId: number): Promise<{ kind: string; amount: number; reason: string | null }[]> {
  return harness
    .db('credit_ledger')
    .select('kind', 'amount', 'reason')
    .where({ eshop_id: eshopId })
    .orderBy('id');
}

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

describe('admin CLI: eshop create', () => {
  it('when every flag is given, then the eshop, its tokens, origins and credits are stored', async () => {
    // Arrange
    const name = uniqueName('Full shop');

    // Act
    const result = await cli(
      'eshop',
      'create',
      '--name',
      `  ${name}  `,
      '--languages',
      'en,uk,cs',
      '--origin',
      'https://Admin.Example.com:443/',
      '--origin',
      'http://localhost:5173',
      '--credits',
      '250',
      '--site-link',
      '--rich-snippet',
      '--review-required',
      '--licence-until',
      '2030-06-30',
    );

    // Assert
    const printed = json(result);
    expect(Object.keys(printed)).toEqual(['id', 'api_token', 'white_label_token']);
    expect(printed.id).toEqual(expect.any(Number));
    expect(printed.api_token).toMatch(/^cat_[A-Za-z0-9_-]{43}$/);
    expect(printed.white_label_token).toMatch(/^wl_[A-Za-z0-9_-]{43}$/);

    expect(await storedEshop(printed.id)).toEqual({
      id: printed.id,
      name,
      languages: ['default', 'cs', 'en', 'uk'],
      enable_site_link: true,
      enable_rich_snippet: true,
      review_required: true,
      licence: '2030-06-30',
    });
    expect(await storedOrigins(printed.id)).toEqual(['http://localhost:5173', 'https://admin.example.com']);
    const [api] = await storedTokens('api_tokens', printed.id);
    const [wl] = await storedTokens('white_label_tokens', printed.id);
    expect(api).toMatchObject({ token_hash: sha256(printed.api_token), revoked_at: null });
    expect(wl).toMatchObject({ token_hash: sha256(printed.white_label_token), revoked_at: null });
    expect(await storedBalance(printed.id)).toEqual({ balance: 250, reserved: 0 });
    expect(await storedLedger(printed.id)).toEqual([
      { kind: 'topup', amount: 250, reason: 'initial credits' },
    ]);
  });

  it('when only a name is given, then the defaults are stored and no credits are recorded', async () => {
    // Arrange
    const name = uniqueName('Plain shop');

    // Act
    const printed = json(await cli('eshop', 'create', '--name', name));

    // Assert
    expect(await storedEshop(printed.id)).toEqual({
      id: printed.id,
      name,
      languages: ['default'],
      enable_site_link: false,
      enable_rich_snippet: false,
      review_required: false,
      licence: null,
    });
    expect(await storedOrigins(printed.id)).toEqual([]);
    expect(await storedTokens('api_tokens', printed.id)).toHaveLength(1);
    expect(await storedTokens('white_label_tokens', printed.id)).toHaveLength(1);
    expect(await storedBalance(printed.id)).toBeUndefined();
    expect(await storedLedger(printed.id)).toEqual([]);
  });

  it.each([
    ['cs', ['default', 'cs']],
    ['hu,de,sk', ['default', 'sk', 'de', 'hu']],
    [' pl , en ,default,en,', ['default', 'en', 'pl']],
    ['default', ['default']],
    ['uk,cs,sk,en,de,pl,hu,default', ['default', 'cs', 'sk', 'en', 'de', 'pl', 'hu', 'uk']],
  ])(
    'when --languages is "%s", then %j is stored (default added, canonical order)',
    async (list, expected) => {
      // Act
      const printed = json(
        await cli('eshop', 'create', '--name', uniqueName('Lang shop'), '--languages', list),
      );

      // Assert
      expect((await storedEshop(printed.id))?.languages).toEqual(expected);
    },
  );

  it('when the same origin is repeated in different spellings, then it is stored once', async () => {
    // Act
    const printed = json(
      await cli(
        'eshop',
        'create',
        '--name',
        uniqueName('Dup origin shop'),
        '--origin',
        'https://shop.example.com',
        '--origin',
        'HTTPS://SHOP.example.com:443/',
      ),
    );

    // Assert
    expect(await storedOrigins(printed.id)).toEqual(['https://shop.example.com']);
  });

  it.each([
    [
      ['--origin', 'https://admin.example.com/editor'],
      /not an origin: "https:\/\/admin.example.com\/editor"/,
    ],
    [['--origin', 'ftp://admin.example.com'], /not an origin/],
    [['--origin', 'https://ok.example.com', '--origin', 'nonsense'], /not an origin: "nonsense"/],
    [['--languages', 'cs,xx,yy'], /unknown language code\(s\): xx, yy/],
    [['--credits', '0'], /--credits must be a whole number from 1 to 1000000000000 \(got "0"\)/],
    [['--credits', 'ten'], /--credits must be a whole number from 1 to \d+/],
    [['--credits', '1.5'], /--credits must be a whole number from 1 to \d+/],
    [['--licence-until', '2030-02-30'], /not a date: "2030-02-30"/],
    [['--licence-until', '30.6.2030'], /not a date/],
    [['--colour', 'red'], /unknown option '--colour'/],
  ])('when create gets %j, then exit code 1, an error and no eshop is created', async (flags, message) => {
    // Arrange
    const name = uniqueName('Refused shop');

    // Act
    const result = await cli('eshop', 'create', '--name', name, ...flags);

    // Assert
    expectFailure(result, 1, message);
    expect(await eshopsNamed(name)).toEqual([]);
  });

  it.each([
    [[], /--name is required/],
    [['--name', '   '], /--name is required and must not be empty/],
    [['--name', 'x'.repeat(201)], /--name must be at most 200 characters/],
  ])('when the name is wrong (%#), then exit code 1 and an error', async (flags, message) => {
    // Act
    const result = await cli('eshop', 'create', ...flags);

    // Assert
    expectFailure(result, 1, message);
    expect(await eshopsNamed('x'.repeat(201))).toEqual([]);
  });

  it('when the name has exactly 200 characters, then it is accepted', async () => {
    // Arrange
    const name = `${uniqueName('Long')}`.padEnd(200, 'x');

    // Act
    const printed = json(await cli('eshop', 'create', '--name', name));

    // Assert
    expect((await storedEshop(printed.id))?.name).toBe(name);
  });
});

describe('admin CLI: eshop show and list', () => {
  it('when an eshop is shown, then its settings, origins, token prefixes and credits are printed', async () => {
    // Arrange
    const created = await makeEshop(harness.db, {
      languages: ['default', 'cs'],
      origins: ['https://admin.shop.test', 'http://localhost:8080'],
      credits: 40,
      enableSiteLink: true,
      licenceValidUntil: '2031-12-31',
    });
    const id = created.eshop.id;

    // Act
    const result = await cli('eshop', 'show', String(id));

    // Assert
    const printed = json(result);
    expect(printed).toEqual({
      id,
      name: created.eshop.name,
      languages: ['default', 'cs'],
      enable_site_link: true,
      enable_rich_snippet: false,
      review_required: false,
      licence_valid_until: '2031-12-31',
      rate_limit_per_minute: null,
      created_at: created.eshop.createdAt.toISOString(),
      updated_at: created.eshop.updatedAt.toISOString(),
      origins: ['http://localhost:8080', 'https://admin.shop.test'],
      tokens: [
        {
          kind: 'api',
          prefix: created.apiToken.slice(0, 12),
          created_at: expect.any(String),
          revoked_at: null,
        },
        {
          kind: 'white-label',
          prefix: created.whiteLabelToken.slice(0, 12),
          created_at: expect.any(String),
          revoked_at: null,
        },
      ],
      credits: { balance: 40, reserved: 0, remaining: 40 },
    });
    expect(result.out).not.toContain(created.apiToken);
    expect(result.out).not.toContain(created.whiteLabelToken);
  });

  it('when the eshop does not exist, then exit code 1 and "not found"', async () => {
    // Act
    const result = await cli('eshop', 'show', MISSING_ID);

    // Assert
    expectFailure(result, 1, `error: eshop ${MISSING_ID} not found\n`);
  });

  it.each([['abc'], ['0'], ['-1'], ['1.5']])(
    'when the id is "%s", then exit code 1 and an error',
    async (id) => {
      // Act
      const result = await cli('eshop', 'show', '--', id);

      // Assert
      expectFailure(result, 1, `error: ID must be a whole number from 1 to 2147483647 (got "${id}")\n`);
    },
  );

  it('when show gets no id, then exit code 1 and the expected arguments are named', async () => {
    // Act
    const result = await cli('eshop', 'show');

    // Assert
    expectFailure(result, 1, /missing required argument 'ID'/);
  });

  it('when eshops are listed, then the new ones appear in id order without tokens', async () => {
    // Arrange
    const first = await makeEshop(harness.db, { name: uniqueName('List A') });
    const second = await makeEshop(harness.db, { name: uniqueName('List B'), reviewRequired: true });

    // Act
    const result = await cli('eshop', 'list');

    // Assert
    const printed = json(result) as { id: number; name: string }[];
    const ids = printed.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.indexOf(first.eshop.id)).toBeLessThan(ids.indexOf(second.eshop.id));
    expect(ids).toContain(first.eshop.id);
    expect(printed.find((e) => e.id === second.eshop.id)).toEqual({
      id: second.eshop.id,
      name: second.eshop.name,
      languages: ['default', 'cs', 'en'],
      enable_site_link: false,
      enable_rich_snippet: false,
      review_required: true,
      licence_valid_until: '2099-12-31',
      rate_limit_per_minute: null,
      created_at: second.eshop.createdAt.toISOString(),
      updated_at: second.eshop.updatedAt.toISOString(),
    });
    expect(result.out).not.toContain(second.apiToken);
  });
});

describe('admin CLI: eshop set', () => {
  it('when --rate-limit is given, then eshop show prints it, "default" clears it and a bad value changes nothing', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const id = String(created.eshop.id);
    const stored = async () =>
      (await harness.db('eshops').where({ id: created.eshop.id }).first('rate_limit_per_minute'))
        .rate_limit_per_minute;

    // Act
    const set = await cli('eshop', 'set', id, '--rate-limit', '3000');
    const shown = await cli('eshop', 'show', id);
    const refused = await cli('eshop', 'set', id, '--rate-limit', '0');
    const afterRefusal = await stored();
    const cleared = await cli('eshop', 'set', id, '--rate-limit', 'default');

    // Assert
    expect(json(set).rate_limit_per_minute).toBe(3000);
    expect(json(shown).rate_limit_per_minute).toBe(3000);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('error: --rate-limit must be a whole number from 1 to 1000000 (got "0")\n');
    expect(afterRefusal).toBe(3000);
    expect(json(cleared).rate_limit_per_minute).toBeNull();
    expect(await stored()).toBeNull();
  });

  it('when every option is given, then every setting changes and the details are printed', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { languages: ['default', 'cs'], reviewRequired: false });
    const id = created.eshop.id;
    const name = uniqueName('Renamed');

    // Act
    const result = await cli(
      'eshop',
      'set',
      String(id),
      '--name',
      name,
      '--languages',
      'de,en',
      '--site-link',
      'on',
      '--rich-snippet',
      'on',
      '--review-required',
      'on',
      '--licence-until',
      '2032-02-29',
    );

    // Assert
    const printed = json(result);
    expect(printed).toMatchObject({
      id,
      name,
      languages: ['default', 'en', 'de'],
      enable_site_link: true,
      enable_rich_snippet: true,
      review_required: true,
      licence_valid_until: '2032-02-29',
      rate_limit_per_minute: null,
      origins: ['https://admin.shop.test'],
      credits: { balance: 0, reserved: 0, remaining: 0 },
    });
    expect(new Date(printed.updated_at).getTime()).toBeGreaterThan(created.eshop.updatedAt.getTime());
    expect(await storedEshop(id)).toEqual({
      id,
      name,
      languages: ['default', 'en', 'de'],
      enable_site_link: true,
      enable_rich_snippet: true,
      review_required: true,
      licence: '2032-02-29',
    });
  });

  it('when only some options are given, then the other settings stay as they were', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { enableSiteLink: true, enableRichSnippet: true });
    const id = created.eshop.id;

    // Act
    const printed = json(await cli('eshop', 'set', String(id), '--rich-snippet', 'off'));

    // Assert
    expect(printed).toMatchObject({ enable_site_link: true, enable_rich_snippet: false });
    expect(await storedEshop(id)).toEqual({
      id,
      name: created.eshop.name,
      languages: ['default', 'cs', 'en'],
      enable_site_link: true,
      enable_rich_snippet: false,
      review_required: false,
      licence: '2099-12-31',
    });
  });

  it('when --licence-until is "none", then the licence is removed', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { licenceValidUntil: '2030-01-01' });

    // Act
    const printed = json(await cli('eshop', 'set', String(created.eshop.id), '--licence-until', 'none'));

    // Assert
    expect(printed.licence_valid_until).toBeNull();
    expect((await storedEshop(created.eshop.id))?.licence).toBeNull();
  });

  it.each([
    [['--site-link', 'yes'], /--site-link takes on or off \(got "yes"\)/],
    [['--review-required', 'true'], /--review-required takes on or off/],
    [['--licence-until', 'never'], /not a date: "never"/],
    [['--languages', 'cs,klingon'], /unknown language code\(s\): klingon/],
    [['--name', ' '], /--name is required and must not be empty/],
  ])(
    'when set gets %j, then exit code 1 and nothing is changed, even with a valid option',
    async (flags, message) => {
      // Arrange
      const created = await makeEshop(harness.db);
      const before = await storedEshop(created.eshop.id);

      // Act
      const alone = await cli('eshop', 'set', String(created.eshop.id), ...flags);
      const withValid = await cli(
        'eshop',
        'set',
        String(created.eshop.id),
        '--review-required',
        'on',
        ...flags,
      );

      // Assert
      expectFailure(alone, 1, message);
      expectFailure(withValid, 1, message);
      expect(await storedEshop(created.eshop.id)).toEqual(before);
    },
  );

  it('when set gets no option, then exit code 1 and "nothing to change"', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const before = await storedEshop(created.eshop.id);

    // Act
    const result = await cli('eshop', 'set', String(created.eshop.id));

    // Assert
    expectFailure(result, 1, 'error: nothing to change: give at least one option\n');
    expect(await storedEshop(created.eshop.id)).toEqual(before);
  });

  it('when the eshop does not exist, then exit code 1 and "not found"', async () => {
    // Act
    const result = await cli('eshop', 'set', MISSING_ID, '--name', 'Ghost');

    // Assert
    expectFailure(result, 1, `error: eshop ${MISSING_ID} not found\n`);
  });
});

describe('admin CLI: tokens', () => {
  it.each([
    ['api', 'api_tokens', /^cat_/],
    ['white-label', 'white_label_tokens', /^wl_/],
  ] as const)(
    'when a %s token is created, then it is printed once and stored hashed',
    async (kind, table, start) => {
      // Arrange
      const created = await makeEshop(harness.db);
      const id = created.eshop.id;

      // Act
      const printed = json(await cli('token', 'create', String(id), '--kind', kind));

      // Assert
      expect(printed).toEqual({
        eshop_id: id,
        token: expect.stringMatching(start),
        kind,
        prefix: printed.token.slice(0, 12),
        created_at: expect.any(String),
        revoked_at: null,
      });
      const rows = await storedTokens(table, id);
      expect(rows).toHaveLength(2);
      expect(rows[1]).toMatchObject({ token_hash: sha256(printed.token), token_prefix: printed.prefix });
      expect(JSON.stringify(rows)).not.toContain(printed.token);
      const found = await tokensRepository.findEshopByTokenHash(harness.db, kind, sha256(printed.token));
      expect(found?.id).toBe(id);
    },
  );

  it.each([
    [['--kind', 'admin'], /--kind must be api or white-label/],
    [[], /--kind must be api or white-label/],
  ])('when token create gets %j, then exit code 1 and no token is stored', async (flags, message) => {
    // Arrange
    const created = await makeEshop(harness.db);

    // Act
    const result = await cli('token', 'create', String(created.eshop.id), ...flags);

    // Assert
    expectFailure(result, 1, message);
    expect(await storedTokens('api_tokens', created.eshop.id)).toHaveLength(1);
    expect(await storedTokens('white_label_tokens', created.eshop.id)).toHaveLength(1);
  });

  it('when a token is created for a missing eshop, then exit code 1 and "not found"', async () => {
    // Act
    const result = await cli('token', 'create', MISSING_ID, '--kind', 'api');

    // Assert
    expectFailure(result, 1, `error: eshop ${MISSING_ID} not found\n`);
  });

  it('when a token is revoked by a unique prefix, then only that token is revoked', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const id = created.eshop.id;
    const prefix = created.apiToken.slice(0, 8);

    // Act
    const printed = json(await cli('token', 'revoke', String(id), prefix));

    // Assert
    expect(printed).toEqual({
      eshop_id: id,
      kind: 'api',
      prefix: created.apiToken.slice(0, 12),
      created_at: expect.any(String),
      revoked_at: expect.any(String),
    });
    const [api] = await storedTokens('api_tokens', id);
    const [wl] = await storedTokens('white_label_tokens', id);
    expect(api?.revoked_at).toBeInstanceOf(Date);
    expect(wl?.revoked_at).toBeNull();
    expect(
      await tokensRepository.findEshopByTokenHash(harness.db, 'api', sha256(created.apiToken)),
    ).toBeUndefined();
    expect((await tokensRepository.findEshopByTokenHash(harness.db, 'white-label', wl!.token_hash))?.id).toBe(
      id,
    );
  });

  it('when a white-label token is revoked by its full display prefix, then it is revoked', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const id = created.eshop.id;

    // Act
    const printed = json(await cli('token', 'revoke', String(id), created.whiteLabelToken.slice(0, 12)));

    // Assert
    expect(printed).toMatchObject({ eshop_id: id, kind: 'white-label' });
    const [wl] = await storedTokens('white_label_tokens', id);
    const [api] = await storedTokens('api_tokens', id);
    expect(wl?.revoked_at).toBeInstanceOf(Date);
    expect(api?.revoked_at).toBeNull();
  });

  it('when the prefix matches several active tokens, then exit code 1 and none is revoked', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const id = created.eshop.id;
    for (const token of ['cat_AMBIG001-rest-of-token', 'cat_AMBIG002-rest-of-token']) {
      await tokensRepository.insert(harness.db, id, 'api', {
        hash: sha256(token),
        prefix: token.slice(0, 12),
      });
    }

    // Act
    const result = await cli('token', 'revoke', String(id), 'cat_AMBIG');

    // Assert
    expectFailure(result, 1, /"cat_AMBIG" matches 2 active tokens \(cat_AMBIG001, cat_AMBIG002\); give more/);
    const rows = await storedTokens('api_tokens', id);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.revoked_at)).toEqual([null, null, null]);
  });

  it('when the prefix is shorter than 6 characters, then exit code 1 and nothing is revoked', async () => {
    // Arrange
    const created = await makeEshop(harness.db);

    // Act
    const result = await cli('token', 'revoke', String(created.eshop.id), created.apiToken.slice(0, 5));

    // Assert
    expectFailure(result, 1, /give at least the first 6 characters of the token/);
    const [api] = await storedTokens('api_tokens', created.eshop.id);
    expect(api?.revoked_at).toBeNull();
  });

  it('when no active token has the prefix, then exit code 1 and nothing is revoked', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const other = await makeEshop(harness.db);
    const id = created.eshop.id;

    // Act
    const unknown = await cli('token', 'revoke', String(id), 'nomatch-prefix');
    const ofOtherEshop = await cli('token', 'revoke', String(id), other.apiToken.slice(0, 12));

    // Assert
    expectFailure(unknown, 1, `error: no active token of eshop ${id} starts with "nomatch-prefix"\n`);
    expectFailure(ofOtherEshop, 1, /no active token of eshop/);
    const [otherApi] = await storedTokens('api_tokens', other.eshop.id);
    expect(otherApi?.revoked_at).toBeNull();
    const [api] = await storedTokens('api_tokens', id);
    expect(api?.revoked_at).toBeNull();
  });

  it('when an already revoked token is revoked again, then exit code 1', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const prefix = created.apiToken.slice(0, 12);
    json(await cli('token', 'revoke', String(created.eshop.id), prefix));
    const [before] = await storedTokens('api_tokens', created.eshop.id);

    // Act
    const result = await cli('token', 'revoke', String(created.eshop.id), prefix);

    // Assert
    expectFailure(result, 1, /no active token of eshop/);
    const [after] = await storedTokens('api_tokens', created.eshop.id);
    expect(after?.revoked_at).toEqual(before?.revoked_at);
  });

  it('when the eshop does not exist, then revoke exits 1 with "not found"', async () => {
    // Act
    const result = await cli('token', 'revoke', MISSING_ID, 'cat_abcdef');

    // Assert
    expectFailure(result, 1, `error: eshop ${MISSING_ID} not found\n`);
  });
});

describe('admin CLI: origins', () => {
  it('when an origin is added, then it is stored normalised and the full list printed', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { origins: ['https://admin.shop.test'] });
    const id = created.eshop.id;

    // Act
    const printed = json(await cli('origin', 'add', String(id), 'https://Admin.Example.com:443/'));

    // Assert
    expect(printed).toEqual({
      eshop_id: id,
      origins: ['https://admin.example.com', 'https://admin.shop.test'],
    });
    expect(await storedOrigins(id)).toEqual(['https://admin.example.com', 'https://admin.shop.test']);
  });

  it('when an origin with a non-default port is added, then the port is kept', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { origins: [] });

    // Act
    const printed = json(await cli('origin', 'add', String(created.eshop.id), 'HTTP://LocalHost:5173'));

    // Assert
    expect(printed.origins).toEqual(['http://localhost:5173']);
    expect(await storedOrigins(created.eshop.id)).toEqual(['http://localhost:5173']);
  });

  it('when an origin already allowed is added again, then it is stored once', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { origins: ['https://admin.shop.test'] });

    // Act
    const printed = json(await cli('origin', 'add', String(created.eshop.id), 'https://ADMIN.shop.test/'));

    // Assert
    expect(printed.origins).toEqual(['https://admin.shop.test']);
    expect(await storedOrigins(created.eshop.id)).toEqual(['https://admin.shop.test']);
  });

  it.each([
    ['https://admin.example.com/editor'],
    ['https://admin.example.com?x=1'],
    ['https://user:pw@admin.example.com'],
    ['admin.example.com'],
    ['javascript:alert(1)'],
  ])('when the URL "%s" is added, then exit code 1 and nothing is stored', async (url) => {
    // Arrange
    const created = await makeEshop(harness.db, { origins: ['https://admin.shop.test'] });

    // Act
    const result = await cli('origin', 'add', String(created.eshop.id), url);

    // Assert
    expectFailure(result, 1, `error: not an origin: "${url}"`);
    expect(await storedOrigins(created.eshop.id)).toEqual(['https://admin.shop.test']);
  });

  it('when an origin is added to a missing eshop, then exit code 1 and "not found"', async () => {
    // Act
    const result = await cli('origin', 'add', MISSING_ID, 'https://a.example.com');

    // Assert
    expectFailure(result, 1, `error: eshop ${MISSING_ID} not found\n`);
  });

  it('when an allowed origin is removed (in any spelling), then it is gone and the rest printed', async () => {
    // Arrange
    const created = await makeEshop(harness.db, {
      origins: ['https://admin.shop.test', 'https://other.shop.test'],
    });
    const id = created.eshop.id;

    // Act
    const printed = json(await cli('origin', 'remove', String(id), 'HTTPS://Admin.Shop.Test:443'));

    // Assert
    expect(printed).toEqual({ eshop_id: id, origins: ['https://other.shop.test'] });
    expect(await storedOrigins(id)).toEqual(['https://other.shop.test']);
  });

  it('when an origin that is not allowed is removed, then exit code 1 and the list is unchanged', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { origins: ['https://admin.shop.test'] });
    const id = created.eshop.id;

    // Act
    const result = await cli('origin', 'remove', String(id), 'https://missing.shop.test');

    // Assert
    expectFailure(result, 1, `error: origin https://missing.shop.test is not allowed for eshop ${id}\n`);
    expect(await storedOrigins(id)).toEqual(['https://admin.shop.test']);
  });

  it('when remove gets a URL with a path, then exit code 1 and nothing is removed', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { origins: ['https://admin.shop.test'] });

    // Act
    const result = await cli('origin', 'remove', String(created.eshop.id), 'https://admin.shop.test/x');

    // Assert
    expectFailure(result, 1, /not an origin/);
    expect(await storedOrigins(created.eshop.id)).toEqual(['https://admin.shop.test']);
  });
});

describe('admin CLI: credits', () => {
  it('when credits are topped up, then the balance grows and a ledger row explains it', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { credits: 0 });
    const id = created.eshop.id;

    // Act
    const first = json(await cli('credit', 'topup', String(id), '100', '--reason', 'January invoice'));
    const second = json(await cli('credit', 'topup', String(id), '50'));

    // Assert
    expect(first).toEqual({ eshop_id: id, balance: 100, reserved: 0, remaining: 100 });
    expect(second).toEqual({ eshop_id: id, balance: 150, reserved: 0, remaining: 150 });
    expect(await storedBalance(id)).toEqual({ balance: 150, reserved: 0 });
    expect(await storedLedger(id)).toEqual([
      { kind: 'topup', amount: 100, reason: 'January invoice' },
      { kind: 'topup', amount: 50, reason: null },
    ]);
  });

  it.each([['0'], ['abc'], ['2.5'], ['9007199254740993']])(
    'when the amount is "%s", then exit code 1 and nothing is recorded',
    async (amount) => {
      // Arrange
      const created = await makeEshop(harness.db, { credits: 10 });

      // Act
      const result = await cli('credit', 'topup', String(created.eshop.id), amount);

      // Assert
      expectFailure(
        result,
        1,
        `error: AMOUNT must be a whole number from 1 to 1000000000000 (got "${amount}")\n`,
      );
      expect(await storedBalance(created.eshop.id)).toEqual({ balance: 10, reserved: 0 });
      expect(await storedLedger(created.eshop.id)).toHaveLength(1);
    },
  );

  it('when a negative amount is given, then exit code 1 and nothing is recorded', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { credits: 10 });

    // Act
    const result = await cli('credit', 'topup', String(created.eshop.id), '-5');

    // Assert
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toMatch(/^error: /);
    expect(await storedBalance(created.eshop.id)).toEqual({ balance: 10, reserved: 0 });
  });

  it('when a missing eshop is topped up, then exit code 1 and no account or ledger row is created', async () => {
    // Act
    const result = await cli('credit', 'topup', MISSING_ID, '10');

    // Assert
    expectFailure(result, 1, `error: eshop ${MISSING_ID} not found\n`);
    expect(await storedBalance(Number(MISSING_ID))).toBeUndefined();
    expect(await storedLedger(Number(MISSING_ID))).toEqual([]);
  });

  it('when credits are shown, then the balance and the newest ledger rows are printed', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { credits: 30 });
    const id = created.eshop.id;
    json(await cli('credit', 'topup', String(id), '5', '--reason', 'bonus'));

    // Act
    const printed = json(await cli('credit', 'show', String(id)));

    // Assert
    expect(printed).toEqual({
      eshop_id: id,
      balance: 35,
      reserved: 0,
      remaining: 35,
      ledger: [
        {
          id: expect.any(Number),
          kind: 'topup',
          amount: 5,
          reserved_delta: 0,
          job_id: null,
          reason: 'bonus',
          created_at: expect.any(String),
        },
        {
          id: expect.any(Number),
          kind: 'topup',
          amount: 30,
          reserved_delta: 0,
          job_id: null,
          reason: 'initial credits',
          created_at: expect.any(String),
        },
      ],
    });
    expect(printed.ledger[0].id).toBeGreaterThan(printed.ledger[1].id);
  });

  it('when an eshop never had credits, then show prints a zero balance and an empty ledger', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { credits: 0 });

    // Act
    const printed = json(await cli('credit', 'show', String(created.eshop.id)));

    // Assert
    expect(printed).toEqual({
      eshop_id: created.eshop.id,
      balance: 0,
      reserved: 0,
      remaining: 0,
      ledger: [],
    });
    expect(await storedBalance(created.eshop.id)).toBeUndefined();
  });

  it('when credit show shows more than 10 ledger rows exist, then only the newest 10 are printed', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { credits: 0 });
    const id = created.eshop.id;
    for (let i = 1; i <= 12; i += 1) json(await cli('credit', 'topup', String(id), String(i)));

    // Act
    const printed = json(await cli('credit', 'show', String(id)));

    // Assert
    expect(printed.balance).toBe(78);
    expect(printed.ledger.map((e: { amount: number }) => e.amount)).toEqual([
      12, 11, 10, 9, 8, 7, 6, 5, 4, 3,
    ]);
  });

  it('when the ledger is asked with --limit, then the newest entries come first', async () => {
    // Arrange
    const created = await makeEshop(harness.db, { credits: 1 });
    const id = created.eshop.id;
    json(await cli('credit', 'topup', String(id), '2', '--reason', 'second'));
    json(await cli('credit', 'topup', String(id), '3', '--reason', 'third'));

    // Act
    const limited = json(await cli('credit', 'ledger', String(id), '--limit', '2'));
    const all = json(await cli('credit', 'ledger', String(id)));

    // Assert
    expect(limited.map((e: { reason: string }) => e.reason)).toEqual(['third', 'second']);
    expect(all.map((e: { amount: number }) => e.amount)).toEqual([3, 2, 1]);
    expect(all[0]).toEqual({
      id: expect.any(Number),
      kind: 'topup',
      amount: 3,
      reserved_delta: 0,
      job_id: null,
      reason: 'third',
      created_at: expect.any(String),
    });
  });

  it.each([
    [['credit', 'ledger', '--limit', '0'], /--limit must be a whole number from 1 to \d+/],
    [['credit', 'show', MISSING_ID], new RegExp(`eshop ${MISSING_ID} not found`)],
    [['credit', 'ledger', MISSING_ID], new RegExp(`eshop ${MISSING_ID} not found`)],
    [['credit', 'topup', '1'], /missing required argument 'AMOUNT'/],
  ])('when credit gets %j, then exit code 1 and an error', async (argv, message) => {
    // Arrange
    const created = await makeEshop(harness.db, { credits: 0 });
    const args = argv[1] === 'ledger' && argv[2] === '--limit' ? [...argv, String(created.eshop.id)] : argv;

    // Act
    const result = await cli(...args);

    // Assert
    expectFailure(result, 1, message);
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

describe('admin CLI: revoking a leaked token by its full value', () => {
  it('when the whole token is given, then exactly that token is revoked', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const id = created.eshop.id;

    // Act
    const printed = json(await cli('token', 'revoke', String(id), created.whiteLabelToken));

    // Assert
    expect(printed).toMatchObject({ eshop_id: id, kind: 'white-label', revoked_at: expect.any(String) });
    expect((await storedTokens('white_label_tokens', id))[0]!.revoked_at).not.toBeNull();
    expect((await storedTokens('api_tokens', id))[0]!.revoked_at).toBeNull();
  });

  it('when a full-length value is not the token, then nothing is revoked', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const id = created.eshop.id;
    const wrong = `${created.apiToken.slice(0, -1)}${created.apiToken.endsWith('A') ? 'B' : 'A'}`;

    // Act
    const result = await cli('token', 'revoke', String(id), wrong);

    // Assert
    expectFailure(result, 1, /no active token/);
    expect((await storedTokens('api_tokens', id))[0]!.revoked_at).toBeNull();
  });
});
