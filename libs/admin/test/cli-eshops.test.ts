import { makeEshop } from '@catalogue/testing';
import {
  harness,
  cli,
  json,
  expectFailure,
  sha256,
  uniqueName,
  MISSING_ID,
  storedEshop,
  eshopsNamed,
  storedOrigins,
  storedTokens,
  storedBalance,
  storedLedger,
} from './cli-fixtures';

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
      content_fallback: 'fallback',
      default_language: null,
      publish_mode: 'immediate',
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
      content_revisions_keep: null,
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
      content_fallback: 'fallback',
      default_language: null,
      publish_mode: 'immediate',
      created_at: second.eshop.createdAt.toISOString(),
      updated_at: second.eshop.updatedAt.toISOString(),
    });
    expect(result.out).not.toContain(second.apiToken);
  });
});

describe('admin CLI: eshop set', () => {
  it('when --revisions-keep is given, then eshop show prints it, "default" clears it and a bad value changes nothing', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const id = String(created.eshop.id);
    const stored = async () =>
      (await harness.db('eshops').where({ id: created.eshop.id }).first('content_revisions_keep'))!
        .content_revisions_keep;

    // Act
    const set = await cli('eshop', 'set', id, '--revisions-keep', '5');
    const shown = await cli('eshop', 'show', id);
    const refused = await cli('eshop', 'set', id, '--revisions-keep', '0');
    const afterRefusal = await stored();
    const both = await cli('eshop', 'set', id, '--name', 'Renamed shop', '--revisions-keep', '7');
    const cleared = await cli('eshop', 'set', id, '--revisions-keep', 'default');

    // Assert
    expect(json(set).content_revisions_keep).toBe(5);
    expect(json(shown).content_revisions_keep).toBe(5);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('error: --revisions-keep must be a whole number from 1 to 100000 (got "0")\n');
    expect(afterRefusal).toBe(5);
    expect(json(both)).toMatchObject({ name: 'Renamed shop', content_revisions_keep: 7 });
    expect(json(cleared).content_revisions_keep).toBeNull();
    expect(await stored()).toBeNull();
  });

  it('when --rate-limit is given, then eshop show prints it, "default" clears it and a bad value changes nothing', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const id = String(created.eshop.id);
    const stored = async () =>
      (await harness.db('eshops').where({ id: created.eshop.id }).first('rate_limit_per_minute'))!
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

  it('when --content-fallback and --default-language are given, then they are stored and printed, and a bad value is refused changing nothing', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const id = String(created.eshop.id);
    const stored = async () =>
      harness.db('eshops').where({ id: created.eshop.id }).first('content_fallback', 'default_language');

    // Act
    const initial = await stored();
    const set = await cli('eshop', 'set', id, '--content-fallback', 'omit', '--default-language', 'en');
    const shown = await cli('eshop', 'show', id);
    const badPolicy = await cli('eshop', 'set', id, '--content-fallback', 'hide', '--default-language', 'cs');
    const badLanguage = await cli('eshop', 'set', id, '--default-language', 'default');
    const afterRefusals = await stored();
    const cleared = await cli(
      'eshop',
      'set',
      id,
      '--default-language',
      'none',
      '--content-fallback',
      'fallback',
    );

    // Assert
    expect(initial).toEqual({ content_fallback: 'fallback', default_language: null });
    expect(json(set)).toMatchObject({ content_fallback: 'omit', default_language: 'en' });
    expect(json(shown)).toMatchObject({ content_fallback: 'omit', default_language: 'en' });
    expect(badPolicy.code).toBe(1);
    expect(badPolicy.err).toBe('error: --content-fallback takes fallback or omit (got "hide")\n');
    expect(badLanguage.code).toBe(1);
    expect(badLanguage.err).toBe(
      'error: --default-language takes one of cs, sk, en, de, pl, hu, uk or none (got "default")\n',
    );
    expect(afterRefusals).toEqual({ content_fallback: 'omit', default_language: 'en' });
    expect(json(cleared)).toMatchObject({ content_fallback: 'fallback', default_language: null });
    expect(await stored()).toEqual({ content_fallback: 'fallback', default_language: null });
  });

  it('when --publish-mode is given, then eshop show prints it, a bad value changes nothing and immediate switches back', async () => {
    // Arrange
    const created = await makeEshop(harness.db);
    const id = String(created.eshop.id);
    const stored = async () =>
      (await harness.db('eshops').where({ id: created.eshop.id }).first('publish_mode'))!.publish_mode;

    // Act
    const initial = await stored();
    const set = await cli('eshop', 'set', id, '--publish-mode', 'draft');
    const shown = await cli('eshop', 'show', id);
    const refused = await cli('eshop', 'set', id, '--publish-mode', 'later');
    const afterRefusal = await stored();
    const back = await cli('eshop', 'set', id, '--publish-mode', 'immediate');

    // Assert
    expect(initial).toBe('immediate');
    expect(json(set).publish_mode).toBe('draft');
    expect(json(shown).publish_mode).toBe('draft');
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('error: --publish-mode takes immediate or draft (got "later")\n');
    expect(afterRefusal).toBe('draft');
    expect(json(back).publish_mode).toBe('immediate');
    expect(await stored()).toBe('immediate');
  });

  it('when the database is written around the CLI, then its checks refuse an unknown policy or language', async () => {
    const created = await makeEshop(harness.db);
    await expect(
      harness
        .db('eshops')
        .where({ id: created.eshop.id })
        .update({ content_fallback: harness.db.raw('?', ['hide']) }),
    ).rejects.toThrow(/eshops_content_fallback_known/);
    await expect(
      harness
        .db('eshops')
        .where({ id: created.eshop.id })
        .update({ default_language: harness.db.raw('?', ['default']) }),
    ).rejects.toThrow(/eshops_default_language_known/);
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
