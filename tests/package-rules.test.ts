// The package rules are one table (scripts/package-rules.mjs): docs/architecture.md shows it,
// every library's package.json stays within it, and ESLint refuses an import outside it —
// checked here by linting probe imports the rules must refuse (and a few they must allow).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@catalogue/testing';

type Table = Record<string, string[]>;

/** The table, read the way ESLint reads it (an ES module). */
function packageTable(): { imports: Table; services: string[] } {
  const script = `import('./scripts/package-rules.mjs').then((m) =>
    process.stdout.write(JSON.stringify({ imports: m.LIBRARY_IMPORTS, services: m.SERVICES })))`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: REPO_ROOT, encoding: 'utf8' })) as {
    imports: Table;
    services: string[];
  };
}

/** `libs/<name> … → a, b` lines of the architecture page's package block. */
function documentedTable(): Table {
  const page = readFileSync(join(REPO_ROOT, 'docs/architecture.md'), 'utf8');
  const rows = [...page.matchAll(/^libs\/([a-z-]+)\s.*→ (.+)$/gm)];
  return Object.fromEntries(
    rows.map(([, lib, arrow]) => [
      lib!,
      arrow!.trim() === 'nothing'
        ? []
        : arrow!
            .split(',')
            .map((name) => name.trim())
            .sort(),
    ]),
  );
}

interface Probe {
  file: string;
  source: string;
}

/** Lints each probe as if it were that file; returns the rule messages per probe. */
function lint(probes: Probe[]): string[][] {
  const script = `
    const { ESLint } = require('eslint');
    const probes = JSON.parse(process.argv[1]);
    (async () => {
      const eslint = new ESLint();
      const out = [];
      for (const p of probes) {
        const [result] = await eslint.lintText(p.source, { filePath: p.file });
        out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message));
      }
      process.stdout.write(JSON.stringify(out));
    })();`;
  return JSON.parse(
    execFileSync(process.execPath, ['-e', script, JSON.stringify(probes)], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }),
  ) as string[][];
}

describe('package rules', () => {
  const table = packageTable();

  test('when the architecture page is read, then its arrows are exactly the table', () => {
    const sorted = Object.fromEntries(
      Object.entries(table.imports).map(([lib, deps]) => [lib, [...deps].sort()]),
    );

    expect(documentedTable()).toEqual(sorted);
  });

  test("when a library's package.json names our packages, then each is one its arrow allows", () => {
    const outside = Object.entries(table.imports).flatMap(([lib, allowed]) => {
      const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'libs', lib, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      return Object.keys(manifest.dependencies ?? {})
        .filter((name) => name.startsWith('@catalogue/'))
        .map((name) => name.slice('@catalogue/'.length))
        .filter((name) => !allowed.includes(name))
        .map((name) => `libs/${lib} depends on @catalogue/${name}`);
    });

    expect(outside).toEqual([]);
  });

  test('when a library imports a package outside its arrow, by name or by path, then lint refuses it', () => {
    const refused: Probe[] = [
      {
        file: 'libs/content/src/probe.ts',
        source: "import { x } from '@catalogue/db';\nexport const y = x;\n",
      },
      {
        file: 'libs/egress/src/probe.ts',
        source: "import type { X } from '@catalogue/credits';\nexport type Y = X;\n",
      },
      {
        file: 'libs/db/src/probe.ts',
        source: "import { x } from '@catalogue/editor';\nexport const y = x;\n",
      },
      {
        file: 'libs/content/src/render/probe.ts',
        source: "import { x } from '../../../db/src/knex';\nexport const y = x;\n",
      },
      {
        file: 'libs/queue/src/probe.ts',
        source: "import { x } from '../../../services/catalogue-api/src/app';\nexport const y = x;\n",
      },
      {
        file: 'services/catalogue-api/src/probe.ts',
        source: "import { x } from '../../white-label-api/src/app';\nexport const y = x;\n",
      },
    ];

    const messages = lint(refused);

    expect(messages.map((found, i) => [refused[i]!.file, found.length > 0])).toEqual(
      refused.map((probe) => [probe.file, true]),
    );
  });

  test('when a library imports within its arrow or inside itself, then lint allows it', () => {
    const allowed: Probe[] = [
      {
        file: 'libs/http/src/probe.ts',
        source: "import { x } from '@catalogue/queue';\nexport const y = x;\n",
      },
      {
        file: 'libs/content/src/render/probe.ts',
        source: "import { x } from '../tree/index';\nexport const y = x;\n",
      },
      {
        file: 'libs/testing/src/probe.ts',
        source: "import { x } from '../../db/src/knex';\nexport const y = x;\n",
      },
      {
        file: 'services/generation-worker/src/probe.ts',
        source: "import { x } from '@catalogue/webhooks';\nexport const y = x;\n",
      },
    ];

    expect(lint(allowed)).toEqual(allowed.map(() => []));
  });
});
