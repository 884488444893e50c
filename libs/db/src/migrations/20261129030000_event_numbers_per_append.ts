// Events are numbered at commit once per append, not once per event. The deferred trigger of
// 20261129001600_event_numbers_at_commit fired for every event; the first firing of a transaction
// took the eshop's counter lock and numbered the transaction's provisional events, found by
// scanning every provisional event of the eshop (those of the other writers in flight too, each
// checked for visibility), and each later firing scanned them all again to find none left — all of
// it with the counter locked, so the other writers of the eshop waited for it. Now the trigger fires
// for the first event of each append only (its provisional number ends in …000001), and numbers
// that append's block alone: a range of the primary key holding this transaction's rows and no
// other's. Blocks fire in the order they were written, so the numbers still follow the order
// written; the guarantees are unchanged (gap-free, commit order, nothing numbered on rollback).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw('drop trigger events_number_at_commit on events');
  await db.raw(`
    create or replace function number_events_at_commit() returns trigger language plpgsql as $$
    declare
      pending bigint;
      last bigint;
    begin
      -- new is the first event of one append: its block is seq in [new.seq - 999998, new.seq],
      -- position p at new.seq - (p - 1). Only this transaction writes in its block.
      select count(*) into pending from events
        where eshop_id = new.eshop_id and seq between new.seq - 999998 and new.seq;
      insert into event_sequences as s (eshop_id, last_seq) values (new.eshop_id, pending)
        on conflict (eshop_id) do update set last_seq = s.last_seq + excluded.last_seq
        returning last_seq into last;
      update events set seq = last - pending + (new.seq - seq + 1)
        where eshop_id = new.eshop_id and seq between new.seq - 999998 and new.seq;
      return null;
    end $$`);
  await db.raw(`
    create constraint trigger events_number_at_commit
      after insert on events
      deferrable initially deferred
      for each row when (new.seq < 0 and new.seq % 1000000 = -1)
      execute function number_events_at_commit()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop trigger events_number_at_commit on events');
  await db.raw(`
    create or replace function number_events_at_commit() returns trigger language plpgsql as $$
    declare
      pending bigint;
      last bigint;
    begin
      select count(*) into pending from events where eshop_id = new.eshop_id and seq < 0;
      if pending = 0 then
        return null;
      end if;
      insert into event_sequences as s (eshop_id, last_seq) values (new.eshop_id, pending)
        on conflict (eshop_id) do update set last_seq = s.last_seq + excluded.last_seq
        returning last_seq into last;
      update events e set seq = last - pending + p.ord
        from (select seq, row_number() over (order by seq desc) as ord
                from events where eshop_id = new.eshop_id and seq < 0) p
        where e.eshop_id = new.eshop_id and e.seq = p.seq;
      return null;
    end $$`);
  await db.raw(`
    create constraint trigger events_number_at_commit
      after insert on events
      deferrable initially deferred
      for each row when (new.seq < 0)
      execute function number_events_at_commit()`);
}
