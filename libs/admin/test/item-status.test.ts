import type { CatalogueEntityType, EntityStatus } from '@catalogue/config';
import { cliHarness, type CliResult } from './cli-harness';
import { makeEshop } from '@catalogue/testing';

/** `admin item status ID TYPE EXTERNAL_ID STATUS`: how staff move catalogue items between statuses. */

const harness = cliHarness();
const { cli } = harness;

const TABLE: Record<CatalogueEntityType, string> = {
  product: 'products',
  category: 'categories',
  brand: 'brands',
  blog: 'blogs',
};
const TYPES: CatalogueEntityType[] = ['product', 'category', 'brand', 'blog'];
const STATUSES: EntityStatus[] = ['draft', 'generate', 'review', 'ready'];
/** An id no eshop of the test run has (the largest int4). */
const MISSING_ID = '2147483647';

async function newEshop(): Promise<number> {
  return (await makeEshop(harness.db)).eshop.id;
}

/** An item as an import leaves it, in the given status. */
async function insertItem(
  eshopId: number,
  type: CatalogueEntityType,
  externalId: string,
  status: EntityStatus,
) {
  await harness.db(TABLE[type]).insert({
    eshop_id: eshopId,
    external_id: externalId,
    status,
    name: JSON.stringify({ default: `${type} ${externalId}` }),
    updated_at: harness.db.raw(`now() - interval '1 hour'`),
  });
}

async function storedItem(eshopId: number, type: CatalogueEntityType, externalId: string) {
  return harness
    .db(TABLE[type])
    .where({ eshop_id: eshopId, external_id: externalId })
    .first<{ status: string; updated_at: Date; is_delete: boolean }>('status', 'updated_at', 'is_delete');
}

/** A failed command: the exit code, one error line on err, nothing on out. */
function expectFailure(result: CliResult, codes: number[], message: RegExp): void {
  expect(codes).toContain(result.code);
  expect(result.out).toBe('');
  expect(result.err.startsWith('error: ')).toBe(true);
  expect(result.err).toMatch(message);
}

describe('admin CLI: item status', () => {
  test('when staff move a product from review to ready, then it is stored as ready and the change is printed as JSON', async () => {
    // Arrange
    const eshopId = await newEshop();
    await insertItem(eshopId, 'product', 'P1', 'review');
    const before = await storedItem(eshopId, 'product', 'P1');

    // Act
    const result = await cli('item', 'status', String(eshopId), 'product', 'P1', 'ready');

    // Assert
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(result.out)).toEqual({
      eshop_id: eshopId,
      type: 'product',
      external_id: 'P1',
      status: 'ready',
    });
    const after = await storedItem(eshopId, 'product', 'P1');
    expect(after!.status).toBe('ready');
    expect(after!.updated_at.getTime()).toBeGreaterThan(before!.updated_at.getTime());
  });

  const moves = TYPES.flatMap((type) =>
    STATUSES.flatMap((from) => STATUSES.filter((to) => to !== from).map((to) => [type, from, to] as const)),
  );
  test.each(moves)(
    'when support moves a %s from %s to %s, then that status is stored',
    async (type, from, to) => {
      // Arrange
      const eshopId = await newEshop();
      await insertItem(eshopId, type, 'X1', from);

      // Act
      const result = await cli('item', 'status', String(eshopId), type, 'X1', to);

      // Assert
      expect(result.code).toBe(0);
      expect(JSON.parse(result.out)).toEqual({ eshop_id: eshopId, type, external_id: 'X1', status: to });
      expect((await storedItem(eshopId, type, 'X1'))!.status).toBe(to);
    },
  );

  test('when the type is unknown, then it fails naming TYPE and the allowed types, and nothing changes', async () => {
    // Arrange
    const eshopId = await newEshop();
    await insertItem(eshopId, 'product', 'P1', 'review');

    // Act
    const result = await cli('item', 'status', String(eshopId), 'parameter', 'P1', 'ready');

    // Assert
    expectFailure(result, [1, 2], /TYPE.*product.*category.*brand.*blog.*"parameter"/);
    expect((await storedItem(eshopId, 'product', 'P1'))!.status).toBe('review');
  });

  test('when the status is unknown, then it fails naming STATUS and the allowed statuses, and nothing changes', async () => {
    // Arrange
    const eshopId = await newEshop();
    await insertItem(eshopId, 'product', 'P1', 'review');

    // Act
    const result = await cli('item', 'status', String(eshopId), 'product', 'P1', 'published');

    // Assert
    expectFailure(result, [1, 2], /STATUS.*draft.*generate.*review.*ready.*"published"/);
    expect((await storedItem(eshopId, 'product', 'P1'))!.status).toBe('review');
  });

  test('when the item does not exist in the eshop, then exit 1 with "not found"', async () => {
    // Arrange
    const eshopId = await newEshop();

    // Act
    const result = await cli('item', 'status', String(eshopId), 'product', 'NOPE', 'ready');

    // Assert
    expectFailure(result, [1], /not found/);
    expect(await storedItem(eshopId, 'product', 'NOPE')).toBeUndefined();
  });

  test('when the eshop does not exist, then exit 1 with "not found"', async () => {
    // Act
    const result = await cli('item', 'status', MISSING_ID, 'product', 'P1', 'ready');

    // Assert
    expectFailure(result, [1], /not found/);
  });

  test("when the same external id exists in two eshops, then only the named eshop's item changes", async () => {
    // Arrange
    const mine = await newEshop();
    const other = await newEshop();
    await insertItem(mine, 'product', 'P1', 'review');
    await insertItem(other, 'product', 'P1', 'review');
    const otherBefore = await storedItem(other, 'product', 'P1');

    // Act
    const result = await cli('item', 'status', String(mine), 'product', 'P1', 'ready');

    // Assert
    expect(result.code).toBe(0);
    expect((await storedItem(mine, 'product', 'P1'))!.status).toBe('ready');
    expect(await storedItem(other, 'product', 'P1')).toEqual(otherBefore);
  });

  test('when the external id exists only in another eshop, then exit 1 with "not found" and the other item is untouched', async () => {
    // Arrange
    const mine = await newEshop();
    const other = await newEshop();
    await insertItem(other, 'category', 'C1', 'review');
    const otherBefore = await storedItem(other, 'category', 'C1');

    // Act
    const result = await cli('item', 'status', String(mine), 'category', 'C1', 'ready');

    // Assert
    expectFailure(result, [1], /not found/);
    expect(await storedItem(other, 'category', 'C1')).toEqual(otherBefore);
  });

  test.each([
    [['item', 'status', '1', 'product', 'P1'], /missing required argument 'STATUS'/],
    [['item', 'status', '1', 'product', 'P1', 'ready', 'extra'], /too many arguments for 'status'/],
    [['item', 'status', 'abc', 'product', 'P1', 'ready'], /ID must be a whole number/],
  ])(
    'when the arguments are %j, then it fails with a message saying what is expected',
    async (argv, message) => {
      // Act
      const result = await cli(...argv);

      // Assert
      expectFailure(result, [1, 2], message);
    },
  );
});
