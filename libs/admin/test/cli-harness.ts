import { adminService, runCli } from '@catalogue/admin';
import { createKnex, type Knex } from '@catalogue/db';
import { testConfig } from '@catalogue/testing';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/**
 * The admin CLI run in-process against the test database, for the tests of one file: `db` is
 * open inside tests and hooks, `cli(...argv)` returns the exit code and what was printed.
 */
export function cliHarness() {
  let db: Knex | undefined;
  beforeAll(() => {
    db = createKnex(testConfig().database);
  });
  afterAll(async () => {
    await db?.destroy();
  });
  const open = (): Knex => {
    if (!db) throw new Error('the database is open inside tests and hooks only');
    return db;
  };
  return {
    get db() {
      return open();
    },
    async cli(...argv: string[]): Promise<CliResult> {
      let out = '';
      let err = '';
      const code = await runCli(argv, () => adminService(open()), {
        out: (text) => (out += text),
        err: (text) => (err += text),
      });
      return { code, out, err };
    },
  };
}
