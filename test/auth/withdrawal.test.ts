import { withdrawnBySignOut } from '../../src/auth/withdrawal';

/** Which credentials a sign-out withdraws, decided without a database. */
describe('withdrawnBySignOut', () => {
  const at = new Date('2026-11-29T10:00:00.400Z');
  const second = at.getTime() / 1000 - 0.4;
  const own = (iat?: number) => ({ sub: 'u', email: 'e', tenantId: 't', iat });
  const provider = (iat: number, tokenId: string) => ({ ...own(iat), tokenId });

  it('withdraws nothing from a user never signed out', () => {
    expect(withdrawnBySignOut({ signedOutAt: null }, own(0))).toBe(false);
  });

  it("compares the service's own tokens to the millisecond", () => {
    expect(withdrawnBySignOut({ signedOutAt: at }, own(second + 0.399))).toBe(true);
    expect(withdrawnBySignOut({ signedOutAt: at }, own(second + 0.4))).toBe(false);
    expect(withdrawnBySignOut({ signedOutAt: at }, own(second + 0.401))).toBe(false);
    // A whole-second iat of the service's own is taken as exact: issued before the moment.
    expect(withdrawnBySignOut({ signedOutAt: at }, own(second))).toBe(true);
    expect(withdrawnBySignOut({ signedOutAt: at }, own(undefined))).toBe(true);
  });

  it("refuses a provider's token of the sign-out's second only when it asked for the sign-out", () => {
    const mark = { signedOutAt: at, signedOutTokenId: 'jti:asked' };
    expect(withdrawnBySignOut(mark, provider(second - 1, 'jti:older'))).toBe(true);
    expect(withdrawnBySignOut(mark, provider(second, 'jti:asked'))).toBe(true);
    expect(withdrawnBySignOut(mark, provider(second, 'jti:next'))).toBe(false);
    expect(withdrawnBySignOut(mark, provider(second + 1, 'jti:asked'))).toBe(false);
    // A provider that gives iat to the millisecond is compared as exactly as the service's own.
    expect(withdrawnBySignOut(mark, provider(second + 0.3, 'jti:other'))).toBe(true);
    expect(withdrawnBySignOut(mark, provider(second + 0.5, 'jti:asked'))).toBe(false);
  });
});
