import { creditsRepository } from '@catalogue/db';
import { makeEshop } from '@catalogue/testing';
import { harness, cli, json, expectFailure, MISSING_ID, storedBalance, storedLedger } from './cli-fixtures';

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

  it('when a credit alert is set and turned off, then the account keeps the level and then none', async () => {
    const { eshop } = await makeEshop(harness.db, { credits: 30 });

    expect(json(await cli('credit', 'alert', String(eshop.id), '100'))).toEqual({
      eshop_id: eshop.id,
      low_balance_threshold: 100,
    });
    expect(await creditsRepository.lowBalanceThreshold(harness.db, eshop.id)).toBe(100);
    expect(json(await cli('credit', 'alert', String(eshop.id), 'off'))).toEqual({
      eshop_id: eshop.id,
      low_balance_threshold: null,
    });
    expectFailure(await cli('credit', 'alert', String(eshop.id), '-5'), 1, /LEVEL must be a whole number/);
    expect(await creditsRepository.lowBalanceThreshold(harness.db, eshop.id)).toBeNull();
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
