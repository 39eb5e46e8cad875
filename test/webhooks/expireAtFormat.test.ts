import { expect } from 'chai';
import { down, up } from '../../migrations/20261125000040_expire_at_events.ts';
import { cloneTestDatabase } from '../helpers/db.ts';

// Events written before expire_at took the contract's DD/MM/YYYY in events carried YYYY-MM-DD; the
// migration rewrites them so the changes feed reads one format from its start.
describe('expire_at in stored events', () => {
  it('is rewritten from YYYY-MM-DD to DD/MM/YYYY in expiry_changed and renewal_due, and back on rollback', async () => {
    const { db } = await cloneTestDatabase();
    try {
      const ins = (event: string, oldValue: unknown, newValue: unknown) =>
        db('outbox')
          .insert({
            event,
            application_number: '4000001',
            old_value: oldValue === null ? null : JSON.stringify(oldValue),
            new_value: JSON.stringify(newValue),
            changed_at: new Date().toISOString(),
          })
          .returning('id')
          .then((r) => r[0].id as number);
      const a = await ins('trademark.expiry_changed', { expire_at: '2029-04-12' }, { expire_at: '2039-04-12' });
      const b = await ins('trademark.expiry_changed', { expire_at: null }, { expire_at: '2029-04-12' });
      const c = await ins('trademark.renewal_due', null, { expire_at: '2027-01-31', days_before: 90, days_left: 88 });
      const d = await ins('trademark.status_changed', { status: '2029-04-12' }, { status: 'Registered' });
      const read = async (id: number) => db('outbox').where({ id }).first('old_value', 'new_value');
      await up(db);
      expect(await read(a)).to.deep.equal({ old_value: { expire_at: '12/04/2029' }, new_value: { expire_at: '12/04/2039' } });
      expect(await read(b)).to.deep.equal({ old_value: { expire_at: null }, new_value: { expire_at: '12/04/2029' } });
      expect(await read(c)).to.deep.equal({ old_value: null, new_value: { expire_at: '31/01/2027', days_before: 90, days_left: 88 } });
      expect(await read(d)).to.deep.equal({ old_value: { status: '2029-04-12' }, new_value: { status: 'Registered' } });
      await up(db); // run twice: nothing changes
      expect(await read(a)).to.deep.equal({ old_value: { expire_at: '12/04/2029' }, new_value: { expire_at: '12/04/2039' } });
      await down(db);
      expect(await read(c)).to.deep.equal({ old_value: null, new_value: { expire_at: '2027-01-31', days_before: 90, days_left: 88 } });
    } finally {
      await db.destroy();
    }
  });
});
