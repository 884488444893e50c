import { hashToken, issueToken } from '../src/tokens';

describe('tokens', () => {
  test('when a token is hashed, then it is its SHA-256 in hex, what every stored token hash is', () => {
    // FIPS 180-2's example of "abc".
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  test('when a token is issued, then its hash and prefix are of the token', () => {
    const issued = issueToken('api');

    expect(issued.token).toMatch(/^cat_[A-Za-z0-9_-]{43}$/);
    expect(issued.hash).toBe(hashToken(issued.token));
    expect(issued.prefix).toBe(issued.token.slice(0, 12));
  });
});
