import { promptsRepository, type Knex, type Prompt } from '@catalogue/db';

/** Prompts every eshop sees plus the eshop's own, by position; never another eshop's. */
export async function listPrompts(db: Knex, eshopId: number): Promise<{ data: Prompt[] }> {
  return { data: await promptsRepository.list(db, eshopId) };
}
