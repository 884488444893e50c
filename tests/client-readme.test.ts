// The README's TypeScript examples of @catalogue/client compile as written against the built
// client (strict): a renamed path, parameter or field of docs/openapi.yaml breaks them here. What
// they do at run time is the client journey's (client-journey.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '@catalogue/testing';
import { docBlocks } from './deploy/docs-commands';

const examples = docBlocks(join(REPO_ROOT, 'README.md')).filter(
  (b) => b.lang === 'ts' && b.text.includes("from '@catalogue/client'"),
);

describe('README examples of @catalogue/client', () => {
  test('when the README is read, then it has a TypeScript example of the client', () => {
    expect(examples.length).toBeGreaterThan(0);
  });

  test.each(examples.map((b) => [b.line, b] as const))(
    'when the example at README.md:%s is type-checked, then it compiles without a diagnostic',
    (_line, block) => {
      // Inside the repository, so that `@catalogue/client` resolves as an integrator's would.
      const dir = mkdtempSync(join(REPO_ROOT, 'tests', '.readme-client-'));
      try {
        const file = join(dir, 'example.ts');
        writeFileSync(file, block.text);
        const program = ts.createProgram([file], {
          strict: true,
          noEmit: true,
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.CommonJS,
          moduleResolution: ts.ModuleResolutionKind.Node10,
          esModuleInterop: true,
          skipLibCheck: true,
          types: ['node'],
          lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        });
        const problems = ts
          .getPreEmitDiagnostics(program)
          .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        expect(problems).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
