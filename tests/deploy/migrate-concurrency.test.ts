// The migration Job as Kubernetes may run it: several copies at once (a retried hook whose
// first pod still runs, two releases' upgrades, a manual run beside the Job) on a server where
// the database does not exist yet. Every copy must succeed and the schema be migrated once.
// Runs the compiled CLI (npx tsc -b first), as the image does.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createKnex, dropDatabase, ensureDatabase, type Knex } from '@catalogue/db';
import { REPO_ROOT, siblingDatabaseUrl } from '@catalogue/testing';
import { migrations } from '../../libs/db/src/migrations';

const CLI = join(REPO_ROOT, 'libs', 'content-store', 'dist', 'cli', 'migrate.js');
const RUNS = 3;
const ROUNDS = 3;

function migrate(url: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, DATABASE_URL: url, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('the migration CLI, run several times at once', () => {
  const url = siblingDatabaseUrl('concurrent_migrate');

  afterAll(() => dropDatabase(url));

  test(`when ${RUNS} copies start together on a server without the database, then all succeed and every migration is applied once (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await dropDatabase(url);
      const results = await Promise.all(Array.from({ length: RUNS }, () => migrate(url)));
      const reports = await expectMigratedOnce(results);
      // One copy created the database; the others found it.
      expect(reports.filter((r) => r.created)).toHaveLength(1);
    }
  }, 180_000);

  test(`when ${RUNS} copies start together on an empty database (no knex tables yet), then all succeed and every migration is applied once (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await dropDatabase(url);
      await ensureDatabase(url);
      const results = await Promise.all(Array.from({ length: RUNS }, () => migrate(url)));
      await expectMigratedOnce(results);
    }
  }, 180_000);

  async function expectMigratedOnce(results: Array<{ code: number; stdout: string; stderr: string }>) {
    expect(results.map((r) => [r.code, r.stderr])).toEqual(results.map(() => [0, '']));
    const reports = results.map((r) => JSON.parse(r.stdout) as { created: boolean; applied: string[] });
    // One copy applied everything; the others waited for it and found nothing to do.
    expect(reports.flatMap((r) => r.applied).sort()).toEqual(migrations.map((m) => m.name).sort());
    const db: Knex = createKnex({ url, poolMin: 0, poolMax: 1, statementTimeoutMs: 10_000 });
    try {
      const recorded = await db('knex_migrations').select<{ name: string }[]>('name').orderBy('id');
      expect(recorded.map((r) => r.name)).toEqual(migrations.map((m) => m.name));
      // The seed ran too.
      const designs = await db('designs').whereNull('eshop_id').count<{ n: string }[]>({ n: '*' });
      expect(Number(designs[0]!.n)).toBeGreaterThan(0);
    } finally {
      await db.destroy();
    }
    return reports;
  }
});
