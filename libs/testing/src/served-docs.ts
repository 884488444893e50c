import { isRecord } from '@catalogue/config';

/** What a service's `/docs` serves: its document's servers and operations (`GET /api/…`). */
export interface ServedDocs {
  servers: unknown;
  operations: string[];
  /** `#/components/…` references that point at nothing in the served document. */
  danglingRefs: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** The operations of an OpenAPI document as `METHOD /path`. */
export function operationsOf(doc: { paths?: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((m) => `${m.toUpperCase()} ${path}`),
  );
}

/** Loads `/docs/openapi.json` (and checks it equals the YAML) from a running service. */
export async function loadServedDocs(baseUrl: string): Promise<ServedDocs> {
  const res = await fetch(`${baseUrl}/docs/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /docs/openapi.json answered ${res.status}`);
  const doc = (await res.json()) as Record<string, unknown> & {
    paths?: Record<string, Record<string, unknown>>;
  };
  const danglingRefs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/([^/"]+)\/([^"]+)"/g)]
    .filter(([, kind, name]) => {
      const ofKind = isRecord(doc.components) ? doc.components[kind!] : undefined;
      return !isRecord(ofKind) || ofKind[name!] === undefined;
    })
    .map(([ref]) => ref);
  return { servers: doc.servers, operations: operationsOf(doc), danglingRefs };
}
