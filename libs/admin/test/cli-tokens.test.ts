import { tokensRepository } from '@catalogue/db';
import { makeEshop } from '@catalogue/testing';
import {
  harness,
  cli,
  json,
  expectFailure,
  sha256,
  MISSING_ID,
  storedOrigins,
  storedTokens,
} from './cli-fixtures';

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
