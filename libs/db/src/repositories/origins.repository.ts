import type { Knex } from 'knex';

export const originsRepository = {
  /** Adds an origin; adding one that is already there changes nothing. */
  async add(db: Knex | Knex.Transaction, eshopId: number, origin: string): Promise<void> {
    await db('allowed_origins')
      .insert({ eshop_id: eshopId, origin })
      .onConflict(['eshop_id', 'origin'])
      .ignore();
  },

  async remove(db: Knex | Knex.Transaction, eshopId: number, origin: string): Promise<boolean> {
    return (await db('allowed_origins').where({ eshop_id: eshopId, origin }).delete()) > 0;
  },

  async list(db: Knex | Knex.Transaction, eshopId: number): Promise<string[]> {
    const rows = await db('allowed_origins').select('origin').where({ eshop_id: eshopId }).orderBy('origin');
    return rows.map((r) => r.origin);
  },

  async isAllowed(db: Knex | Knex.Transaction, eshopId: number, origin: string): Promise<boolean> {
    return Boolean(await db('allowed_origins').where({ eshop_id: eshopId, origin }).first('origin'));
  },

  /** Whether any eshop allows the origin (CORS preflights carry no token to name the eshop). */
  async isAllowedByAny(db: Knex | Knex.Transaction, origin: string): Promise<boolean> {
    return Boolean(await db('allowed_origins').where({ origin }).first('origin'));
  },
};
