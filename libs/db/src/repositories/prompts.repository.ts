import type { Knex } from 'knex';
import type { Row } from '../tables';

/** Prompts an eshop may use: the ones every eshop sees and its own. */
function visible(db: Knex | Knex.Transaction, eshopId: number) {
  return db('prompts').where((q) => q.whereNull('eshop_id').orWhere({ eshop_id: eshopId }));
}

const COLUMNS = [
  'id',
  'name',
  'prompt',
  'remove_exist_widget',
  'use_serp_context',
  'use_web_research',
  'search_web',
  'search_model',
] as const;

/** A prompt as the white-label API shows it (`PromptView` of libs/content): its table's columns above. */
export type Prompt = Pick<Row<'prompts'>, (typeof COLUMNS)[number]>;

export const promptsRepository = {
  async list(db: Knex | Knex.Transaction, eshopId: number): Promise<Prompt[]> {
    return visible(db, eshopId)
      .select(...COLUMNS)
      .orderBy(['position', 'id']);
  },

  /** A prompt the eshop may use; another eshop's prompt id finds nothing. */
  async find(db: Knex | Knex.Transaction, eshopId: number, id: number): Promise<Prompt | undefined> {
    return visible(db, eshopId)
      .andWhere({ id })
      .first(...COLUMNS);
  },
};
