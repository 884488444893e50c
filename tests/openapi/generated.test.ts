// docs/openapi.yaml is generated (scripts/gen-openapi.mjs) from docs/openapi.base.yaml, the
// routers' *.docs.yaml files and the joi schemas the routes declare with guard(): this test
// fails when the committed document is not what the generator writes (edit the sources and
// run `npm run gen:openapi`), or when a route declares a shape its docs file cannot take.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '@catalogue/testing';

function run(args: string[]): { status: number; output: string } {
  try {
    const output = execFileSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: 'pipe' });
    return { status: 0, output };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { status: e.status, output: `${e.stdout}${e.stderr}` };
  }
}

describe('the generated OpenAPI document', () => {
  test('when it is generated again from the routes and their docs files, then it is the committed docs/openapi.yaml', () => {
    // The generator reads the compiled routes: compile them first (incremental, quick when built).
    const tsc = run([
      join(REPO_ROOT, 'node_modules/typescript/bin/tsc'),
      '-b',
      'services/catalogue-api',
      'services/white-label-api',
    ]);
    expect(tsc.output).toBe('');
    const check = run(['scripts/gen-openapi.mjs', '--check']);
    expect(check.output).toBe('');
    expect(check.status).toBe(0);
  }, 120_000);
});
