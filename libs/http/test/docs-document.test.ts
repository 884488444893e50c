import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operationsOf, REPO_ROOT } from '@catalogue/testing';
import { parse } from 'yaml';
import { serviceDocument } from '../src/docs-document';

const full = parse(readFileSync(join(REPO_ROOT, 'docs', 'openapi.yaml'), 'utf8')) as Parameters<
  typeof serviceDocument
>[0];

describe('serviceDocument', () => {
  test('when restricted to a prefix, then only those operations and the shared ones stay, on server "/"', () => {
    const doc = serviceDocument(full, ['/public/credit']);

    expect(doc.servers).toEqual([{ url: '/' }]);
    const operations = operationsOf(doc as never);
    expect(operations).toContain('GET /public/credit');
    expect(operations).toContain('GET /docs/openapi.json');
    expect(
      operations.filter((op) => !/^GET \/(public\/credit|healthz|readyz|metrics|docs)\b/.test(op)),
    ).toEqual([]);
    expect(doc.info).toEqual(full.info);
  });

  test('when restricted, then components, security schemes and tags that no kept operation uses are left out', () => {
    const doc = serviceDocument(full, ['/api/v1/', '/api/v2/']);
    const text = JSON.stringify(doc);
    const components = doc.components as Record<string, Record<string, unknown>>;

    expect(Object.keys(components.securitySchemes!)).toEqual(['apiToken']);
    expect(Object.keys(components.schemas!).filter((name) => name.startsWith('Wl'))).toEqual([]);
    expect((doc.tags as { name: string }[]).map((t) => t.name)).not.toContain('white-label');
    // Every reference still resolves, also those reached only through other components.
    for (const [, kind, name] of text.matchAll(/"\$ref":"#\/components\/([^/"]+)\/([^"]+)"/g))
      expect(components[kind!]?.[name!]).toBeDefined();
  });

  test('when a prefix looks like another path, then only whole segments match', () => {
    const doc = serviceDocument(
      { paths: { '/docs': { get: {} }, '/docsx': { get: {} }, '/api/v3/a': { get: {} } } },
      ['/api/v3/'],
    );
    expect(Object.keys(doc.paths as object)).toEqual(['/docs', '/api/v3/a']);
  });
});
