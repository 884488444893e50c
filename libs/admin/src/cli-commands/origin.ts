// `origin add|remove`: the white-label origins an eshop allows.
import { parseOrigin } from '../admin.service';
import { eshopId, type CommandGroup } from './options';

export const originCommands: CommandGroup = (program, admin, answer) => {
  const origin = program.command('origin').description('allowed white-label origins');
  for (const [name, description] of [
    ['add', 'allow an origin'],
    ['remove', 'stop allowing an origin'],
  ] as const) {
    origin
      .command(name)
      .description(description)
      .argument('<ID>', 'eshop id')
      .argument('<URL>', 'scheme://host[:port]')
      .action(async (id: string, url: string) => {
        const eshop = eshopId(id);
        const service = admin();
        const origins = await (name === 'add' ? service.addOrigin : service.removeOrigin).call(
          service,
          eshop,
          parseOrigin(url),
        );
        answer({ eshop_id: eshop, origins });
      });
  }
};
