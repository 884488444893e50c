// axe on the editor in a named state: no violation at all (the state names the failing one).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export async function expectNoViolations(page: Page, state: string): Promise<void> {
  const result = await new AxeBuilder({ page }).include('ccs-editor').analyze();
  expect({
    state,
    violations: result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  }).toEqual({ state, violations: [] });
}
