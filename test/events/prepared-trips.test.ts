import type { MikroORM } from '@mikro-orm/core';
import { openOrm } from '../../src/db/orm';
import { inOneTrip, ownConnections } from '../../src/events/store';
import { ormComposition } from '../../src/orm-composition';
import { workerDatabaseUrl } from '../support/database';

/**
 * The event worker's one-trip statements run prepared on its own connections. Two workers whose
 * connections share one session (two service processes on the embedded database's host, which
 * serves every connection from one session) each keep their own statements: neither's PREPARE is
 * refused as already existing, and one's recovery from a failed trip leaves the other's in place.
 */
describe('prepared one-trip statements on connections of their own', () => {
  const opened: { orm: MikroORM; close: () => Promise<void> }[] = [];
  const worker = async () => {
    const orm = await openOrm({
      composition: ormComposition,
      clientUrl: await workerDatabaseUrl(),
      poolMax: 1,
    });
    const entry = { orm, close: ownConnections(orm, 1) };
    opened.push(entry);
    return orm;
  };
  afterAll(async () => {
    for (const { orm, close } of opened) {
      await close();
      await orm.close(true);
    }
  });

  it('runs the same statement for two workers, and one failed trip leaves the other its statements', async () => {
    const [a, b] = [await worker(), await worker()];
    const twice = 'select ?::int * 2 as n';
    expect(await inOneTrip(a, twice, [1])).toEqual([{ n: 2 }]);
    expect(await inOneTrip(b, twice, [2])).toEqual([{ n: 4 }]);

    await expect(inOneTrip(b, 'select 1 / ?::int as n', [0])).rejects.toThrow('division by zero');
    expect(await inOneTrip(a, twice, [3])).toEqual([{ n: 6 }]);
    expect(await inOneTrip(b, twice, [4])).toEqual([{ n: 8 }]);
  });
});
