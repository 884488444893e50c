// `item status`: a catalogue item's content status.
import { CATALOGUE_ENTITY_TYPES, type CatalogueEntityType, type EntityStatus } from '@catalogue/config';
import { eshopId, oneOf, type CommandGroup } from './options';

const ITEM_TYPES: readonly CatalogueEntityType[] = CATALOGUE_ENTITY_TYPES;
const ITEM_STATUSES: readonly EntityStatus[] = ['draft', 'generate', 'review', 'ready'];

export const itemCommands: CommandGroup = (program, admin, answer) => {
  program
    .command('item')
    .description('catalogue items')
    .command('status')
    .description("set a catalogue item's content status")
    .argument('<ID>', 'eshop id')
    .argument('<TYPE>', ITEM_TYPES.join('|'))
    .argument('<EXTERNAL_ID>', "the item's id")
    .argument('<STATUS>', ITEM_STATUSES.join('|'))
    .action(async (id: string, type: string, externalId: string, status: string) =>
      answer(
        await admin().setItemStatus(
          eshopId(id),
          oneOf(type, ITEM_TYPES, 'TYPE'),
          externalId,
          oneOf(status, ITEM_STATUSES, 'STATUS'),
        ),
      ),
    );
};
