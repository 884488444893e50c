// One list of ccs-error codes: the table "Error codes" of libs/editor/README.md is compared with
// the codes the editor's sources emit (`return '…'` in errors.ts, `code: '…'` anywhere else), so
// a code added, renamed or dropped on one side fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const EDITOR = join(__dirname, '..', '..', 'libs', 'editor');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The codes the editor emits, found in its sources. */
function emittedCodes(): string[] {
  const codes = new Set<string>();
  for (const file of sources(join(EDITOR, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bcode: '([a-z_]+)'/g)) codes.add(m[1]!);
    if (file.endsWith('errors.ts')) {
      // editorErrorCode's answers.
      const body = text.slice(text.indexOf('export function editorErrorCode'));
      for (const m of body.slice(0, body.indexOf('\n}\n')).matchAll(/\breturn '([a-z_]+)'/g))
        codes.add(m[1]!);
    }
  }
  return [...codes].sort();
}

/** The codes of the README's table (first column, under "## Error codes"). */
function documentedCodes(): string[] {
  const readme = readFileSync(join(EDITOR, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Error codes'));
  const table = section.slice(0, section.indexOf('\n## ', 1));
  return [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!).sort();
}

describe('ccs-error codes', () => {
  test('when the README table and the editor sources are compared, then they list the same codes', () => {
    const emitted = emittedCodes();
    expect(emitted.length).toBeGreaterThan(10);
    expect(emitted).toContain('licence_invalid');
    expect(emitted).toContain('origin_not_allowed');
    expect(emitted).toContain('csp_blocked');
    expect(documentedCodes()).toEqual(emitted);
  });

  test('when the union type of codes is read, then it is the same list (nothing typed but never emitted)', () => {
    const text = readFileSync(join(EDITOR, 'src', 'errors.ts'), 'utf8');
    const union = text.slice(
      text.indexOf('export type EditorErrorCode'),
      text.indexOf(';', text.indexOf('export type EditorErrorCode')),
    );
    const typed = [...union.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!).sort();
    expect(typed).toEqual(emittedCodes());
  });
});
