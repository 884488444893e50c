// The capacity model of docs/scaling.md: `npm run capacity` prints a plan from the committed,
// measured constants, and the plan grows with the deployment (never fewer pods, connections or
// memory for more eshops, products, languages or imports).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@catalogue/testing';
import { capacityPlan, type CapacityConstants, type CapacityInput } from '../bench/capacity-model';
import { main } from '../bench/capacity';

const constants = JSON.parse(
  readFileSync(join(REPO_ROOT, 'docs', 'capacity-constants.json'), 'utf8'),
) as CapacityConstants;

const BASE: CapacityInput = { eshops: 100, products: 10_000, languages: 3, importsPerHour: 50_000 };

/** Every figure of a plan that must not shrink when the deployment grows. */
function figures(input: CapacityInput): number[] {
  const plan = capacityPlan(constants, input);
  return [
    plan.catalogueApi.pods,
    plan.catalogueApi.cores,
    plan.generationWorker.pods,
    plan.generationWorker.cores,
    plan.postgres.cores,
    plan.postgres.statementsPerSecond,
    plan.postgres.serverConnections,
    plan.postgres.clientConnections,
    plan.postgres.storageGigabytes,
    plan.redis.memoryMegabytes,
    plan.redis.commandsPerSecond,
  ];
}

describe('the capacity model', () => {
  test.each([
    ['eshops', { eshops: 1_000 }],
    ['products', { products: 100_000 }],
    ['languages', { languages: 6 }],
    ['imports per hour', { importsPerHour: 5_000_000 }],
    ['list requests per hour', { listsPerHour: 10_000_000 }],
  ])('when the deployment has more %s, then no figure of the plan is smaller', (_what, more) => {
    const small = figures(BASE);
    const big = figures({ ...BASE, ...more });
    big.forEach((value, i) => expect(value).toBeGreaterThanOrEqual(small[i]!));
    expect(big.some((value, i) => value > small[i]!)).toBe(true);
  });

  test('when a large import rate is planned, then the pods follow the measured CPU per item', () => {
    const plan = capacityPlan(constants, { ...BASE, importsPerHour: 36_000_000, listsPerHour: 0 });
    // 10,000 items/s at the measured Node CPU per item, a core per pod at 60 %.
    const cores = (10_000 * constants.render.perUnit.nodeCpuMs) / 1000 / 0.6;
    expect(plan.generationWorker.pods).toBe(Math.ceil(cores));
    expect(plan.catalogueApi.pods).toBeGreaterThan(2);
  });

  test('when the input is missing or wrong, then the command says what is wrong', () => {
    expect(() => main(['--eshops', '10'])).toThrow('missing --products, --languages, --imports-per-hour');
    expect(() =>
      main(['--eshops', 'x', '--products', '1', '--languages', '1', '--imports-per-hour', '1']),
    ).toThrow('--eshops must be a number');
    expect(() =>
      main(['--eshops', '0', '--products', '1', '--languages', '1', '--imports-per-hour', '1']),
    ).toThrow('eshops must be a positive number');
  });

  test('when the documented command runs, then it prints the plan from the committed constants', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'scaling.md'), 'utf8');
    const command = /`(npm run capacity -- [^`]+)`/.exec(doc)?.[1];
    expect(command).toBeDefined();
    const run = spawnSync('sh', ['-c', `${command!.replace(/^npm run/, 'npm run --silent')} --json`], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect({ status: run.status, stderr: run.stderr }).toMatchObject({ status: 0 });
    const printed = JSON.parse(run.stdout) as ReturnType<typeof capacityPlan>;
    expect(printed.catalogueApi.pods).toBeGreaterThanOrEqual(2);
    expect(printed.postgres.clientConnections).toBe(
      (printed.catalogueApi.pods + printed.generationWorker.pods) * printed.input.poolMax,
    );
  }, 150_000);
});
