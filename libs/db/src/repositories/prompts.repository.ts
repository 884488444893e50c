import type { Knex } from 'knex';

export interface Prompt {
  id: number;
  name: string;
  prompt: string;
  remove_exist_widget: boolean;
  use_serp_context: boolean;
  use_web_research: boolean;
  search_web: string[];
  search_model: string[];
}

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
