// Why: a product named parameters by id and its page listed every value of each parameter in the
// eshop (a trail shoe showed the tent's "1.9 kg"). A product now links the values that are its
// own: product_parameter_values holds one row per linked parameter (value_id null: the parameter
// as a whole, rendered only when it has exactly one value) or per linked value, each a composite
// key with eshop_id (the value's key also names its parameter), so PostgreSQL refuses a link to
// another eshop's parameter or value, or to a value of another parameter, and deleting a product,
// parameter or value removes its links. Existing products get the links their parameters_ids
// named. products.parameter_values keeps the explicit pairs a client sent (like parameters_ids,
// as sent); parameters.name_translations holds a parameter's names per language.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table products add column parameter_values jsonb not null default '[]'`);
  await db.raw(`alter table parameters add column name_translations jsonb`);
  // The key a link names a value by (with its parameter), and the lookup of a value by its id.
  await db.raw(
    'create unique index parameter_values_eshop_id_parameter_id_id_unique on parameter_values (eshop_id, parameter_id, id)',
  );
  await db.raw(
    'alter table parameter_values add constraint parameter_values_eshop_id_parameter_id_id_unique ' +
      'unique using index parameter_values_eshop_id_parameter_id_id_unique',
  );
  await db.raw(
    'create index parameter_values_eshop_id_external_id_index on parameter_values (eshop_id, external_id)',
  );
  await db.raw(`create table product_parameter_values (
    eshop_id integer not null references eshops (id) on delete cascade,
    product_id bigint not null,
    position integer not null,
    parameter_id bigint not null,
    value_id bigint,
    primary key (eshop_id, product_id, position),
    foreign key (eshop_id, product_id) references products (eshop_id, id) on delete cascade,
    foreign key (eshop_id, parameter_id) references parameters (eshop_id, id) on delete cascade,
    foreign key (eshop_id, parameter_id, value_id) references parameter_values (eshop_id, parameter_id, id)
      on delete cascade,
    constraint product_parameter_values_link_unique
      unique nulls not distinct (eshop_id, product_id, parameter_id, value_id)
  )`);
  // What a deleted parameter or value cascades through.
  await db.raw(
    'create index product_parameter_values_value on product_parameter_values (eshop_id, parameter_id, value_id)',
  );
  // Products imported before: each parameter id they named (first mention) links the parameter.
  await db.raw(`insert into product_parameter_values (eshop_id, product_id, position, parameter_id, value_id)
    select eshop_id, product_id, (row_number() over (partition by eshop_id, product_id order by first))::int,
           parameter_id, null
    from (
      select p.eshop_id, p.id as product_id, par.id as parameter_id, min(e.ord) as first
      from products p
      cross join lateral jsonb_array_elements_text(p.parameters_ids) with ordinality as e(external_id, ord)
      join parameters par on par.eshop_id = p.eshop_id and par.external_id = e.external_id::bigint
      where jsonb_typeof(p.parameters_ids) = 'array'
      group by p.eshop_id, p.id, par.id
    ) linked`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop table product_parameter_values');
  await db.raw('drop index parameter_values_eshop_id_external_id_index');
  await db.raw(
    'alter table parameter_values drop constraint parameter_values_eshop_id_parameter_id_id_unique',
  );
  await db.raw('alter table parameters drop column name_translations');
  await db.raw('alter table products drop column parameter_values');
}
