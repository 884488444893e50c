// `token create|revoke`: API and white-label tokens.
import { AdminError } from '../admin.service';
import { presentToken } from '../present';
import { eshopId, type CommandGroup } from './options';

export const tokenCommands: CommandGroup = (program, admin, answer) => {
  const token = program.command('token').description('API and white-label tokens');
  token
    .command('create')
    .description('a new token of an eshop (shown only now)')
    .argument('<ID>', 'eshop id')
    .option('--kind <api|white-label>', 'the kind of token (required)')
    .action(async (id: string, o: { kind?: string }) => {
      const kind = o.kind;
      if (kind !== 'api' && kind !== 'white-label') throw new AdminError('--kind must be api or white-label');
      const eshop = eshopId(id);
      const created = await admin().createToken(eshop, kind);
      answer({ eshop_id: eshop, token: created.token, ...presentToken(created.info) });
    });
  token
    .command('revoke')
    .description('revoke a token by the prefix `eshop show` lists')
    .argument('<ID>', 'eshop id')
    .argument('<TOKEN_PREFIX>', 'the token prefix')
    .action(async (id: string, prefix: string) => {
      const eshop = eshopId(id);
      answer({ eshop_id: eshop, ...presentToken(await admin().revokeToken(eshop, prefix)) });
    });
};
