// `webhook add|list|enable|rotate-secret|redeliver|remove`: the API's rules (libs/webhooks) from the CLI.
import { adminService, runCli } from '@catalogue/admin';
import { policyFromList } from '@catalogue/egress';
import { makeEshop } from '@catalogue/testing';
import { cliHarness } from './cli-harness';

const h = cliHarness();

/** The CLI as cli.ts runs it with WEBHOOK_ALLOW_PRIVATE=127.0.0.1/32:*. */
async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(
    argv,
    () => adminService(h.db, { webhookEgress: policyFromList(['127.0.0.1/32:*']) }),
    { out: (t) => (out += t), err: (t) => (err += t) },
  );
  return { code, out, err };
}

test('when an operator adds, lists, enables, redelivers and removes an endpoint, then each answers JSON and the secret shows only once', async () => {
  const { eshop } = await makeEshop(h.db);
  const added = await cli(
    'webhook',
    'add',
    String(eshop.id),
    'http://127.0.0.1:9/hook',
    '--events',
    'item.deleted',
  );
  expect(added.code).toBe(0);
  const hook = JSON.parse(added.out);
  expect(hook).toMatchObject({
    url: 'http://127.0.0.1:9/hook',
    event_types: ['item.deleted'],
    disabled_at: null,
  });
  expect(hook.secret).toMatch(/^whsec_/);

  const listed = await cli('webhook', 'list', String(eshop.id));
  expect(JSON.parse(listed.out)).toEqual([expect.objectContaining({ id: hook.id })]);
  expect(listed.out).not.toContain('whsec_');
  expect((await cli('webhook', 'enable', String(eshop.id), String(hook.id))).code).toBe(0);
  // Nothing relayed yet: no event to send again.
  const early = await cli('webhook', 'redeliver', String(eshop.id), String(hook.id), '1');
  expect(early.code).toBe(1);
  expect(early.err).toMatch(/to_seq must not exceed 0/);
  expect((await cli('webhook', 'remove', String(eshop.id), String(hook.id))).code).toBe(0);
  expect(JSON.parse((await cli('webhook', 'list', String(eshop.id))).out)).toEqual([]);
});

test('when the URL is private or the endpoint is another eshop’s, then the command fails and says why', async () => {
  const { eshop: a } = await makeEshop(h.db);
  const { eshop: b } = await makeEshop(h.db);
  const refused = await cli('webhook', 'add', String(a.id), 'http://10.1.2.3/hook');
  expect(refused.code).toBe(1);
  expect(refused.err).toContain('The URL is refused: private address 10.1.2.3 refused.');
  const bad = await cli('webhook', 'add', String(a.id), 'http://127.0.0.1:9/', '--events', 'item.exploded');
  expect(bad.code).toBe(1);
  const hook = JSON.parse((await cli('webhook', 'add', String(a.id), 'http://127.0.0.1:9/')).out);
  const foreign = await cli('webhook', 'remove', String(b.id), String(hook.id));
  expect(foreign.code).toBe(1);
  expect(foreign.err).toContain('No such webhook endpoint.');
  const foreignRotate = await cli('webhook', 'rotate-secret', String(b.id), String(hook.id));
  expect(foreignRotate.code).toBe(1);
  expect(foreignRotate.err).toContain('No such webhook endpoint.');
  const [row] = await h.db('webhook_endpoints').where({ id: hook.id });
  expect(row).toMatchObject({ secret: hook.secret, previous_secret: null });
});

test('when an operator rotates a secret, then the new one is printed once and the old one is kept as previous for 24 hours', async () => {
  const { eshop } = await makeEshop(h.db);
  const hook = JSON.parse((await cli('webhook', 'add', String(eshop.id), 'http://127.0.0.1:9/')).out);

  const rotated = await cli('webhook', 'rotate-secret', String(eshop.id), String(hook.id));

  expect(rotated.code).toBe(0);
  const answer = JSON.parse(rotated.out);
  expect(answer).toMatchObject({ id: hook.id, secret: expect.stringMatching(/^whsec_/) });
  expect(answer.secret).not.toBe(hook.secret);
  const hours = (Date.parse(answer.previous_secret_expires_at) - Date.now()) / 3600_000;
  expect(hours).toBeGreaterThan(23.9);
  expect(hours).toBeLessThanOrEqual(24);
  const [row] = await h.db('webhook_endpoints').where({ id: hook.id });
  expect(row).toMatchObject({ secret: answer.secret, previous_secret: hook.secret });
  expect((await cli('webhook', 'list', String(eshop.id))).out).not.toContain('whsec_');
});
