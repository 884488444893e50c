// Which statements join two distributed (tenant) tables without tying their eshop_id together:
// under a distribution by eshop_id such a join would have to cross shards. The statements are
// captured as sent to PostgreSQL (the plan-proof tests capture knex's; here every pg client of
// the process, so the workers' statements too) and read from their plans (EXPLAIN VERBOSE), where
// every condition names its relation's alias.
import pg from 'pg';

export interface SentStatement {
  text: string;
  values: unknown[];
}

/**
 * Records every statement any pg client of this process sends until `stop()` (deduplicated by
 * text: the first values sent with a text are kept).
 */
export function captureStatements(): { statements: () => SentStatement[]; stop: () => void } {
  const seen = new Map<string, SentStatement>();
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const config =
      typeof first === 'string'
        ? { text: first, values: second }
        : (first as { text?: unknown; values?: unknown });
    if (config && typeof config.text === 'string' && !seen.has(config.text)) {
      seen.set(config.text, {
        text: config.text,
        values: Array.isArray(config.values) ? [...config.values] : [],
      });
    }
    return original.apply(this, args);
  };
  return { statements: () => [...seen.values()], stop: () => void (proto.query = original) };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  Plans?: PlanNode[];
  [condition: string]: unknown;
}

const CONDITIONS = [
  'Index Cond',
  'Recheck Cond',
  'Filter',
  'Join Filter',
  'Hash Cond',
  'Merge Cond',
  'One-Time Filter',
];

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** The relations whose eshop_id a plan node's output carries (`c.eshop_id` -> c). */
function eshopSources(output: unknown): string[] {
  return (Array.isArray(output) ? (output as string[]) : [])
    .map((column) => /^\(?(\w+)\.eshop_id\)?$/.exec(column)?.[1])
    .filter((alias): alias is string => alias !== undefined);
}

/** Union-find over `alias` and constant names. */
class Classes {
  private readonly parent = new Map<string, string>();
  find(x: string): string {
    const p = this.parent.get(x) ?? x;
    if (p === x) return x;
    const root = this.find(p);
    this.parent.set(x, root);
    return root;
  }
  union(a: string, b: string): void {
    this.parent.set(this.find(a), this.find(b));
  }
}

/**
 * Pairs of distributed tables a plan reads whose eshop_id the plan does not tie together: neither
 * equal to each other (directly or through other relations, `a.eshop_id = k.eshop_id and
 * b.eshop_id = k.eshop_id`) nor both equal to the same value (`a.eshop_id = 6 … b.eshop_id = 6`:
 * both in one shard). Conditions joined by OR are not told apart (none of the captured plans has
 * one on eshop_id).
 */
export function untiedPairs(plan: PlanNode, distributed: ReadonlySet<string>): [string, string][] {
  const classes = new Classes();
  const scans: { table: string; alias: string }[] = [];
  // A CTE's eshop_id is that of the relations its output (or RETURNING) takes it from.
  const cteSources = new Map<string, string[]>();
  for (const node of nodes(plan)) {
    const name = /^CTE (\w+)$/.exec(String(node['Subplan Name'] ?? ''))?.[1];
    if (name) cteSources.set(name, eshopSources(node.Output));
  }
  for (const node of nodes(plan)) {
    if (node['Node Type'] === 'CTE Scan' && node.Alias) {
      for (const source of cteSources.get(String(node['CTE Name'])) ?? []) classes.union(node.Alias, source);
    }
    const table = node['Relation Name'];
    if (table && distributed.has(table) && node['Node Type'] !== 'ModifyTable') {
      scans.push({ table, alias: node.Alias ?? table });
    }
    // A key set of one eshop (keysFrom: `unnest(array[$1::integer]) as k(eshop_id)`) is that value.
    const call = node['Function Call'];
    const one = typeof call === 'string' ? /^unnest\('\{(-?\d+)\}'::integer\[\]\)$/.exec(call) : null;
    if (one && node.Alias) classes.union(node.Alias, `value ${one[1]}`);
    // A subquery's eshop_id is that of the relations its output takes it from.
    if (node['Node Type'] === 'Subquery Scan' && node.Alias && node.Plans?.[0]) {
      for (const source of eshopSources(node.Plans[0].Output)) classes.union(node.Alias, source);
    }
    for (const key of CONDITIONS) {
      const cond = node[key];
      if (typeof cond !== 'string') continue;
      for (const m of cond.matchAll(/\b(\w+)\.eshop_id\)? = \(?(\w+)\.eshop_id\b/g))
        classes.union(m[1]!, m[2]!);
      for (const m of cond.matchAll(/\b(\w+)\.eshop_id\)? = (\$\d+|-?\d+|'[^']*'(?:::\w+)?)/g)) {
        classes.union(m[1]!, `value ${m[2]!.replace(/::\w+$/, '').replace(/'/g, '')}`);
      }
      for (const m of cond.matchAll(/(\$\d+|-?\d+|'[^']*'(?:::\w+)?) = \(?(\w+)\.eshop_id\b/g)) {
        classes.union(m[2]!, `value ${m[1]!.replace(/::\w+$/, '').replace(/'/g, '')}`);
      }
    }
  }
  const pairs: [string, string][] = [];
  for (let i = 0; i < scans.length; i++) {
    for (let j = i + 1; j < scans.length; j++) {
      const [a, b] = [scans[i]!, scans[j]!];
      if (classes.find(a.alias) !== classes.find(b.alias)) {
        pairs.push([a.table, b.table].sort() as [string, string]);
      }
    }
  }
  return pairs;
}

/** `a × b` for each distinct untied pair of a plan. */
export function pairKey([a, b]: [string, string]): string {
  return `${a} × ${b}`;
}
