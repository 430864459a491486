import { laterThanEvery } from '../../src/db/create-migration';

describe("a new migration's name", () => {
  const names = [
    'Migration20261122000000_initial',
    'Migration20261130150000_jobs',
    'Migration20261125000000',
  ];

  it("keeps today's timestamp when it sorts after every migration", () => {
    expect(laterThanEvery('20261201090000', names)).toBe('20261201090000');
  });

  it('sorts after a migration named ahead of its day', () => {
    expect(laterThanEvery('20261129130000', names)).toBe('20261130150001');
    expect(laterThanEvery('20261130150000', names)).toBe('20261130150001');
  });

  it("sorts after the project's own migrations", () => {
    const latest = laterThanEvery('20000101000000');
    expect(latest > '20261122000000').toBe(true);
    expect(laterThanEvery(latest, [`Migration${latest}`])).toBe(String(BigInt(latest) + 1n));
  });
});
